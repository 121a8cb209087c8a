// Which payment button a task of /user/my-task shows (SPEC §4 "user applies (locked tasks only,
// unless an application exists, then a disabled 'already applied' button shows)"; decision 053):
// - 'applied': the task has an application (GET /api/task/apply/exist) -> a disabled '已申请付款';
// - 'apply': the task machine accepts task.apply (a locked task) -> the enabled '申请付款';
// - 'applyArrived': some but not all units arrived and the task machine's canApplyForArrived says
//   yes -> '申请付款' for the arrived units, in one step (split, then apply);
// - 'none': neither (or the answer about this task has not come yet: a new page asks again).
// One call asks about every task of the page; `reload` asks again (after an application).
import { useCallback } from 'react';
import { useRemote } from '../../lib/use-remote';
import { useAppContext } from '../../app/app-context';
import { canApplyForArrived } from '../../../../machines/task.machine';
import { canApplyForPayment } from './payment-rules';
import { loadApplyExists, type Task } from './payments-api';

export type ApplyButtonState = 'apply' | 'applyArrived' | 'applied' | 'none';

export type ApplyTaskFacts = Pick<Task, 'id' | 'status' | 'count' | 'productCount' | 'canSplit'>;

/** The button of one task, given whether it is known to have an application (undefined: not known yet). */
export function applyButtonState(task: ApplyTaskFacts, applied: boolean | undefined): ApplyButtonState {
  if (applied === undefined) return 'none';
  if (applied) return 'applied';
  if (canApplyForPayment(task)) return 'apply';
  return canApplyForArrived(task) ? 'applyArrived' : 'none';
}

export interface ApplyState {
  /** The button of `task` (one of the ids the hook was given). */
  stateOf: (task: ApplyTaskFacts) => ApplyButtonState;
  loading: boolean;
  /** Asks the server again. */
  reload: () => void;
}

export function useApplyState(taskIds: readonly number[]): ApplyState {
  const { api } = useAppContext();
  const ids = [...new Set(taskIds)].sort((a, b) => a - b);
  const key = ids.join(',');
  const remote = useRemote(`apply-exist:${key}`, () => loadApplyExists(api, ids));
  const known = remote.data;
  const stateOf = useCallback((task: ApplyTaskFacts) => applyButtonState(task, known?.[task.id]), [known]);
  return { stateOf, loading: remote.loading, reload: remote.reload };
}
