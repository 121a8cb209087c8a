// How the task screens word what a call came to (SPEC §8). A refusal toast opens with SPEC's own
// words ('删除失败', '拆分失败', '操作失败') and adds the server's reason when it gives one, so the
// member learns why; a match shows where the task now stands.
import type { ApiClient } from '../../../api/client';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { loadTaskPart, matchTask, type Outcome } from './tasks-api';

const t = zh.tasks;

/** SPEC's failure text, then the server's reason when there is one. */
export function failureText(specText: string, msg: string): string {
  return msg && msg !== specText ? t.withReason(specText, msg) : specText;
}

/** An error toast for a failed outcome; true when the outcome succeeded. */
export function reportFailure<T>(outcome: Outcome<T>, specText: string): outcome is Extract<Outcome<T>, { ok: true }> {
  if (outcome.ok) return true;
  toast.error(failureText(specText, outcome.msg));
  return false;
}

/**
 * The member's match call (POST /api/match/user/task/match), then the outcome: the server's msg
 * (or '匹配完成'), the status the matching left the task in and how many units arrived and
 * matched (GET /api/task/part/match), and whether that part can now be split off. An unmatch
 * outcome is an info toast: the call worked, the parcels did not agree. True when the call worked.
 */
export async function matchAndReport(api: ApiClient, taskId: number): Promise<boolean> {
  const outcome = await matchTask(api, taskId);
  if (!reportFailure(outcome, t.matchFailed)) return false;
  const part = await loadTaskPart(api, taskId);
  const task = outcome.data.tasks?.find((x) => x.id === taskId);
  const status = part?.status ?? task?.status;
  const lines: string[] = [outcome.msg || t.matchDone];
  const standing = part ?? task;
  if (status && standing) lines.push(t.matchOutcome(zh.status.task[status] ?? status, standing.productCount, standing.count));
  if (standing?.canSplit) lines.push(t.matchCanSplit);
  const text = t.outcomeLines(lines);
  if (status === 'unmatch') toast.info(text);
  else toast.success(text);
  return true;
}
