// @vitest-environment happy-dom
// The UI half of "a button's presence equals the server's acceptance": for every task
// status and every context (productCount 0 or not, canSplit, isHome), the action buttons of the
// row on /user/my-task are exactly the events the task machine accepts (read here from
// machines/task.machine.ts itself), plus records (every status but pending and deleted), upload
// where the machine accepts the member's task.records (the server's question for a record change)
// and the label PDF (the records' statuses, when the task ships home); task.apply is the payment dialog's button
// (no application exists in this fake). The board page's 'my tasks' offers SPEC §2's
// upload, records, edit and delete under the same rules.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedEvents } from '../../../machines/stored-state';
import { recordsEvent, TASK_STATUSES, taskMachine, type TaskEvent, type TaskStatus } from '../../../machines/task.machine';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { aBoard, createMemberBoardsFake } from '../member-boards/member-boards-fake';
import { aTask, createTasksFake, type Task } from './tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');

/** The member's machine events and the button each one shows as. */
const MEMBER_EVENTS: Array<[TaskEvent, string]> = [
  [{ type: 'task.edit', by: 'user' }, '编辑'],
  [{ type: 'task.delete', by: 'user' }, '删除'],
  [{ type: 'task.split' }, '拆分'],
  [{ type: 'task.match', outcome: 'open' }, '匹配'],
  [{ type: 'task.apply' }, '申请付款'],
];

interface Case {
  status: TaskStatus;
  productCount: number;
  canSplit: boolean;
  isHome: boolean;
}

const CASES: Case[] = TASK_STATUSES.flatMap((status) =>
  [0, 2].flatMap((productCount) => [false, true].flatMap((canSplit) => [false, true].map((isHome) => ({ status, productCount, canSplit, isHome })))),
);

const nameOf = (c: Case) => `${c.status}·到货${c.productCount}·${c.canSplit ? '可拆分' : '不可拆分'}·${c.isHome ? '寄到家' : '不寄家'}`;

function expectedButtons(c: Case): string[] {
  const accepted = allowedEvents(
    taskMachine,
    c.status,
    { productCount: c.productCount, canSplit: c.canSplit },
    MEMBER_EVENTS.map(([event]) => event),
  );
  const byMachine = MEMBER_EVENTS.filter(([event]) => accepted.includes(event)).map(([, label]) => label);
  const recordable = c.status !== 'pending' && c.status !== 'deleted';
  const changeable = allowedEvents(taskMachine, c.status, { productCount: c.productCount, canSplit: c.canSplit }, [recordsEvent('user')]).length > 0;
  return [...(changeable ? ['上传'] : []), ...(recordable ? ['记录'] : []), ...byMachine, ...(recordable && c.isHome ? ['标签PDF'] : [])].sort();
}

function tasksFor(boardId = 1): Task[] {
  return CASES.map((c, i) =>
    aTask({
      id: 300 + i,
      mainId: 300 + i,
      boardId,
      itemName: nameOf(c),
      status: c.status,
      productCount: c.productCount,
      canSplit: c.canSplit,
      isHome: c.isHome,
      state: c.isHome ? 'NY' : '',
      zipCode: c.isHome ? '10001' : '',
      labelCount: c.isHome ? 2 : 0,
    }),
  );
}

/** The labels of the buttons and links in the row's actions cell (the last one). */
function actionsOf(row: HTMLElement): string[] {
  const cells = within(row).getAllByRole('cell');
  const cell = cells[cells.length - 1]!;
  return [...within(cell).queryAllByRole('button'), ...within(cell).queryAllByRole('link')].map((el) => el.textContent ?? '').sort();
}

async function checkEveryRow(tableName: string, offered?: string[]) {
  const table = await screen.findByRole('table', { name: tableName });
  await within(table).findByText(nameOf(CASES[0]!));
  // One pass over the rows: each is found by the cell holding its case name.
  const names = new Set(CASES.map(nameOf));
  const rows = new Map<string, HTMLElement>();
  for (const row of within(table).getAllByRole('row')) {
    const name = [...row.querySelectorAll('td, td *')].map((el) => el.textContent ?? '').find((text) => names.has(text));
    if (name) rows.set(name, row);
  }
  expect(rows.size).toBe(CASES.length);
  for (const c of CASES) {
    const expected = expectedButtons(c).filter((label) => !offered || offered.includes(label));
    expect({ case: nameOf(c), buttons: actionsOf(rows.get(nameOf(c))!) }).toEqual({ case: nameOf(c), buttons: expected });
  }
}

/** 64 rows of a wide table take a few seconds to render in happy-dom. */
const RENDER_TIMEOUT_MS = 30_000;

describe('row actions equal what the task machine accepts', () => {
  it('covers every status of the machine', () => {
    expect(new Set(CASES.map((c) => c.status))).toEqual(new Set(TASK_STATUSES));
    expect(CASES).toHaveLength(TASK_STATUSES.length * 8);
  });

  it(
    'on /user/my-task, for every status × context',
    async () => {
      const server = createTasksFake({ tasks: tasksFor() });
      renderApp('/user/my-task?size=100', { loggedInAs: member, handlers: server.handlers });
      await checkEveryRow('我的任务列表');
    },
    RENDER_TIMEOUT_MS,
  );

  it(
    "on the board page's 'my tasks' (upload, records, edit, delete), for every status × context",
    async () => {
      const board = createMemberBoardsFake({ boards: [aBoard()], myTasks: tasksFor(1) });
      const tasks = createTasksFake({ tasks: board.myTasks });
      renderApp('/user/board/b-1', { loggedInAs: member, handlers: { ...tasks.handlers, ...board.handlers } });
      await checkEveryRow('我在此看板的任务', ['上传', '记录', '编辑', '删除']);
    },
    RENDER_TIMEOUT_MS,
  );
});
