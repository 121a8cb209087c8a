// decide (machines/stored-state.ts) remembers its answers: a remembered answer must be the one the
// machine gives for that row's own status, context and event, and no caller may change it for the next.
import { describe, expect, it } from 'vitest';
import { boardMachine, boardMessages, explainBoardRefusal, type BoardContext, type BoardEvent } from '../../machines/board.machine';
import { explainTaskRefusal, taskMachine, taskMessages } from '../../machines/task.machine';
import { decide } from '../../machines/stored-state';

const publish: BoardEvent = { type: 'board.publish', mode: 'users', userIds: [3] };
const ask = (context: BoardContext, event: BoardEvent = publish) => decide(boardMachine, 'unpublish', context, event, explainBoardRefusal);

describe('decide, remembered', () => {
  it('answers each row by its own context and event, however often the same question was asked before', () => {
    const ready = { taskCount: 2, groupCount: 1 };
    for (let i = 0; i < 3; i++) {
      expect(ask(ready)).toEqual({ ok: true, next: 'open' });
      expect(ask({ taskCount: 0, groupCount: 1 })).toEqual({ ok: false, msg: boardMessages.noTasks });
      expect(ask(ready, { type: 'board.publish', mode: 'users', userIds: [] })).toEqual({ ok: false, msg: boardMessages.noUsers });
      // The same status and event for two tasks: the machine's guard reads canSplit.
      const split = (canSplit: boolean) => decide(taskMachine, 'open', { productCount: 1, canSplit }, { type: 'task.split' }, explainTaskRefusal);
      expect(split(true)).toEqual({ ok: true, next: 'open' });
      expect(split(false)).toEqual({ ok: false, msg: taskMessages.splitRule });
    }
  });

  it('hands out an answer no caller can change for the next one', () => {
    const answer = ask({ taskCount: 5, groupCount: 2 });
    expect(Object.isFrozen(answer)).toBe(true);
    expect(() => Object.assign(answer, { next: 'closed' })).toThrow(TypeError);
    expect(ask({ taskCount: 5, groupCount: 2 })).toEqual({ ok: true, next: 'open' });
  });
});
