// The board lifecycle rules (machines/board.machine.ts), asked the way the server and UI ask them.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import {
  boardMachine,
  CLOSED_BOARD_STATUS,
  boardMessages,
  explainBoardRefusal,
  shownBoardState,
  showsOpen,
  type BoardContext,
  type BoardEvent,
  type BoardStatus,
} from '../../machines/board.machine';
import { allowedEvents, decide } from '../../machines/stored-state';

const ready: BoardContext = { taskCount: 2, groupCount: 1 };
const all: BoardEvent = { type: 'board.publish', mode: 'all' };
const backup: BoardEvent = { type: 'board.publish', mode: 'backup' };
const toUsers: BoardEvent = { type: 'board.publish', mode: 'users', userIds: [3] };
const close: BoardEvent = { type: 'board.close' };
const reopen: BoardEvent = { type: 'board.reopen' };
const run = (status: BoardStatus, context: BoardContext, event: BoardEvent) => decide(boardMachine, status, context, event, explainBoardRefusal);

describe('board machine', () => {
  it('publishes an unpublished board with tasks and an audience, in all three variants', () => {
    for (const e of [all, backup, toUsers]) expect(run('unpublish', ready, e)).toEqual({ ok: true, next: 'open' });
  });

  it('refuses to publish without tasks, without groups (all/backup) or without users, with the message the UI shows', () => {
    expect(run('unpublish', { taskCount: 0, groupCount: 1 }, all)).toEqual({ ok: false, msg: boardMessages.noTasks });
    expect(run('unpublish', { taskCount: 1, groupCount: 0 }, all)).toEqual({ ok: false, msg: boardMessages.noGroups });
    expect(run('unpublish', { taskCount: 1, groupCount: 0 }, backup)).toEqual({ ok: false, msg: boardMessages.noGroups });
    expect(run('unpublish', { taskCount: 1, groupCount: 0 }, toUsers)).toEqual({ ok: true, next: 'open' });
    expect(run('unpublish', ready, { type: 'board.publish', mode: 'users', userIds: [] })).toEqual({ ok: false, msg: boardMessages.noUsers });
  });

  it('refuses a publish with the reason the page shows, in every status', () => {
    expect(run('open', { taskCount: 0, groupCount: 1 }, all)).toEqual({ ok: false, msg: boardMessages.noTasks });
    expect(run('close', { taskCount: 0, groupCount: 0 }, toUsers)).toEqual({ ok: false, msg: boardMessages.closed });
    expect(run('unpublish', ready, { type: 'board.publish', mode: 'users' } as BoardEvent)).toEqual({ ok: false, msg: boardMessages.noUsers });
  });

  it('lets an open board be published again and closed; a closed one only reopened', () => {
    expect(run('open', ready, toUsers)).toEqual({ ok: true, next: 'open' });
    expect(run('open', ready, close)).toEqual({ ok: true, next: 'close' });
    expect(run('close', ready, all)).toEqual({ ok: false, msg: boardMessages.closed });
    expect(run('close', ready, reopen)).toEqual({ ok: true, next: 'open' });
    expect(run('unpublish', ready, close)).toEqual({ ok: false, msg: boardMessages.notOpen });
    expect(run('open', ready, reopen)).toEqual({ ok: false, msg: boardMessages.notClosed });
  });

  it('offers exactly the events each state allows (what the buttons show)', () => {
    const candidates = [all, toUsers, backup, close, reopen];
    const offered = (s: BoardStatus, c: BoardContext) =>
      allowedEvents(boardMachine, s, c, candidates).map((e) => (e.type === 'board.publish' ? e.mode : e.type));
    expect(offered('unpublish', ready)).toEqual(['all', 'users', 'backup']);
    expect(offered('open', ready)).toEqual(['all', 'users', 'backup', 'board.close']);
    expect(offered('close', ready)).toEqual(['board.reopen']);
    expect(offered('unpublish', { taskCount: 0, groupCount: 0 })).toEqual([]);
  });

  it('closes into the status the server stores for a closed board (its status change to close sends board.close)', () => {
    expect(run('open', ready, close)).toEqual({ ok: true, next: CLOSED_BOARD_STATUS });
    expect(run(CLOSED_BOARD_STATUS, ready, reopen)).toEqual({ ok: true, next: 'open' });
  });

  it('a board started from its context (as the model paths start it) judges publishes by that context', () => {
    const board = createActor(boardMachine, { input: { taskCount: 0, groupCount: 1 } }).start();
    for (const e of [toUsers, all, backup]) board.send(e);
    expect(board.getSnapshot().value).toBe('unpublish');
    const ok = createActor(boardMachine, { input: ready }).start();
    ok.send(toUsers);
    expect(ok.getSnapshot().value).toBe('open');
  });

  it('reaches every status from a new board through publish, close and reopen', () => {
    const paths = getShortestPaths(boardMachine, { input: ready, events: [all, toUsers, backup, close, reopen] });
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['unpublish', 'open', 'close']));
  });
});

describe('the one state a board is shown in (member and admin screens, decision 109)', () => {
  const NOW = Date.UTC(2026, 10, 27, 9, 0);
  it('is its status, except an open board past its deadline, which is expired and never shows open', () => {
    const at = (status: BoardStatus, expireAt: number) => shownBoardState({ status, expireAt }, NOW);
    expect(at('open', NOW + 1)).toBe('open');
    expect(at('open', NOW)).toBe('open'); // the deadline itself still counts
    expect(at('open', NOW - 1)).toBe('expired');
    expect(at('unpublish', NOW - 1)).toBe('unpublish');
    expect(at('close', NOW - 1)).toBe('close');
    for (const status of ['unpublish', 'open', 'close'] as const)
      for (const expireAt of [NOW - 1, NOW + 1]) expect(showsOpen({ status, expireAt }, NOW)).toBe(at(status, expireAt) === 'open');
  });
});

describe('board machine: model', () => {
  it('every simple path from a new board, replayed through decide, ends offering exactly that status’s buttons', () => {
    const events = [all, toUsers, backup, close, reopen];
    const name = (e: BoardEvent) => (e.type === 'board.publish' ? e.mode : e.type);
    const OFFERS: Record<BoardStatus, string[]> = {
      unpublish: ['all', 'users', 'backup'],
      open: ['all', 'users', 'backup', 'board.close'],
      close: ['board.reopen'],
    };
    const paths = getSimplePaths(boardMachine, { input: ready, events });
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['unpublish', 'open', 'close']));
    for (const path of paths) {
      const steps = path.steps.map((s) => s.event).filter((e) => !e.type.startsWith('xstate.')) as BoardEvent[];
      const end = steps.reduce<BoardStatus>((status, e) => {
        const d = run(status, ready, e);
        if (!d.ok) throw new Error(`${status} refused ${name(e)}`);
        return d.next;
      }, 'unpublish');
      expect(end, steps.map(name).join(' -> ')).toBe(path.state.value);
      expect(allowedEvents(boardMachine, end, ready, events).map(name)).toEqual(OFFERS[end]);
    }
  });
});
