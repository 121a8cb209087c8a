// Model-based test of the board lifecycle: every shortest path of machines/board.machine.ts is
// replayed against the API on a real database, and after each step the stored status must be the
// machine's state. What the machine allows, the server does; what it refuses is tested in
// boards.test.ts with the machine's messages.
import { describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { boardMachine, type BoardContext, type BoardEvent } from '../../../machines/board.machine';
import { useTestApp } from '../support/harness.ts';
import { as, boardForm, createBoard, createBoardTask, seedGroup, seedItem, signIn, type BoardOut } from '../support/board-fixtures.ts';

const t = useTestApp();
const ready: BoardContext = { taskCount: 1, groupCount: 1 };
const events: BoardEvent[] = [
  { type: 'board.publish', mode: 'all' },
  { type: 'board.publish', mode: 'users', userIds: [0] },
  { type: 'board.publish', mode: 'backup' },
  { type: 'board.close' },
  { type: 'board.reopen' },
];

describe('board machine, replayed against the API', () => {
  const model = createTestModel(boardMachine.provide({}), { events });
  const paths = model.getShortestPaths({ input: ready, events });

  it('has paths to every status a board can move to', () => {
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['open', 'close']));
  });

  for (const path of paths) {
    it(`follows: ${path.description}`, async () => {
      const { app, database } = t();
      const { user: member } = await signIn(app, database, 'member@x.test');
      const group = await seedGroup(database, '组', [member.id]);
      const { token } = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
      const admin = as(app, token);
      const board = await createBoard(admin);
      const item = await seedItem(database);
      await createBoardTask(admin, board.id, { itemId: item.id, buyIn: 10, show: 5 });
      expect((await admin.post(`/api/board/${board.id}/add?groupIds=${group.id}`)).body.code).toBe('A00000');

      const stored = async () => (await admin.get<BoardOut>(`/api/board/info/${board.id}`)).body.data!.status;
      // The model also walks events its machine refuses (they leave the state as it is); the
      // server then answers A00001 and the stored status must not move either.
      const send = async (url: string, payload?: unknown) => {
        const res = await admin.post<{ status?: string }>(url, payload);
        expect(['A00000', 'A00001'], JSON.stringify(res.body)).toContain(res.body.code);
      };
      await path.test({
        states: {
          unpublish: async () => expect(await stored()).toBe('unpublish'),
          open: async () => expect(await stored()).toBe('open'),
          close: async () => expect(await stored()).toBe('close'),
        },
        events: {
          'board.publish': async ({ event }) => {
            const e = event as Extract<BoardEvent, { type: 'board.publish' }>;
            if (e.mode === 'all') await send(`/api/boardtask/publish/${board.id}`);
            else if (e.mode === 'backup') await send(`/api/boardtask/backup/publish/${board.id}`);
            else await send(`/api/boardtask/publish/${board.id}/users`, { userIds: [member.id] });
          },
          'board.close': async () => send('/api/board/info', boardForm({ id: board.id, boardName: board.boardName, status: 'close' })),
          'board.reopen': async () => send('/api/board/info', boardForm({ id: board.id, boardName: board.boardName, status: 'open' })),
        },
      });
    });
  }
});
