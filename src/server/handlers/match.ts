// The match calls (SPEC §6 "The match button in the task record dialog appears only in the user view
// and uses the user-side match call; the admin view uses the admin match call", §7 "POST
// /api/match/..."; DECISIONS "Receiving and matching"). Matching itself is
// src/server/matching/match.ts; these handlers choose what to match and who may ask. The answer lists
// the tasks concerned after matching - for a member only their own - and a msg saying where a single
// task stands. Its queries: boards/task-queries.ts (decision 164).
import { listTasksByIds, recordedByMember } from '../boards/task-queries.ts';
import { isAdminSide } from '../boards/visibility.ts';
import type { Tx } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { assignContested, contestedMessages, listContested } from '../matching/contested.ts';
import { matchTasks, matchTracking, type MatchReport } from '../matching/match.ts';
import { checkTrackingId } from '../receiving/scan-service.ts';
import { requireTransition } from '../tasks/apply-event.ts';
import { lockTaskForChange } from '../tasks/task-changes.ts';
import { me, ok, type Ctx, type Handlers } from './types.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { MATCH_OUTCOME_STATUS, MATCH_QUESTION } from '../../../machines/task.machine.ts';

export const matchMessages = {
  done: '匹配完成',
  locked: '已全部到货，任务已锁定',
  unmatch: '包裹与记录不符，任务不匹配',
  partial: (arrived: number, count: number) => `已到货${arrived}/${count}件，可以拆分`,
  nothing: '尚未到货',
  noTracking: '没有该快递单号的记录',
} as const;

/** The tasks the matching concerned, for a member only their own. */
const tasksOf = (tx: Tx, user: SessionUser, report: MatchReport) => listTasksByIds(tx, report.taskIds, isAdminSide(user) ? undefined : user.id);

function taskMessage(t: { status: string; productCount: number; count: number }) {
  if (t.status === MATCH_OUTCOME_STATUS.locked) return matchMessages.locked;
  if (t.status === MATCH_OUTCOME_STATUS.unmatch) return matchMessages.unmatch;
  if (t.productCount > 0) return matchMessages.partial(t.productCount, t.count);
  return matchMessages.nothing;
}

/**
 * Task match (user: own task, else A00004; admin: any): the task machine must accept task.match
 * (open or unmatch; e.g. a locked task answers '已锁定的任务不能再匹配'), then every tracking id of the
 * task is matched again and the task evaluated (also a task without records).
 */
async function matchTask(ctx: Ctx, user: SessionUser, taskId: number) {
  return ctx.db.transaction(async (tx) => {
    const { task } = await lockTaskForChange(tx, user, taskId);
    requireTransition(task, MATCH_QUESTION);
    const report = await matchTasks(tx, [task.id], user);
    const list = await tasksOf(tx, user, report);
    const mine = list.find((t) => t.id === task.id)!;
    const msg = taskMessage(mine);
    return ok({ opStatus: 'succ' as const, msg, tasks: list }, msg);
  });
}

/**
 * Tracking match (user: only a tracking id the member recorded on one of their own tasks, else
 * A00004; admin: any): matches that tracking id; tasks that no longer accept matching are left as
 * they are (no refusal: the tracking id is matched, not a task).
 */
async function matchTrackingId(ctx: Ctx, user: SessionUser, raw: string) {
  const trackingId = checkTrackingId(raw);
  return ctx.db.transaction(async (tx) => {
    if (!isAdminSide(user) && !(await recordedByMember(tx, user.id, trackingId))) throw notFound(matchMessages.noTracking);
    const report = await matchTracking(tx, trackingId, user);
    return ok({ opStatus: 'succ' as const, msg: matchMessages.done, tasks: await tasksOf(tx, user, report) }, matchMessages.done);
  });
}

export const matchHandlers: Handlers = {
  async matchUserTask(req, ctx) {
    return matchTask(ctx, me(req), req.body.taskId);
  },
  async matchAdminTask(req, ctx) {
    return matchTask(ctx, me(req), req.body.taskId);
  },
  async matchUserTracking(req, ctx) {
    return matchTrackingId(ctx, me(req), req.body.trackingId);
  },
  async matchAdminTracking(req, ctx) {
    return matchTrackingId(ctx, me(req), req.body.trackingId);
  },
  // Contested parcels (decision 096): the list for the admin home, and the admin's one-step assignment.
  async listContestedParcels(_req, ctx) {
    return ok(await ctx.db.transaction((tx) => listContested(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' }));
  },
  async assignContestedParcel(req, ctx) {
    const user = me(req);
    const parcel = await ctx.db.transaction((tx) => assignContested(tx, user, req.body));
    return ok({ opStatus: 'succ' as const, parcel }, contestedMessages.done);
  },
};
