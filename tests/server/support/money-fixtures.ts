// Fixtures of the payment, statistics and withdraw tests: built on taskWorld (task-fixtures.ts).
// A locked task is made the way a member gets one: claim through the API, a parcel scanned (written
// into scan_trackings) and the purchase recorded through the API, which matches and locks the task.
// Applications are made and agreed through the API; putting them into a withdraw can be done
// directly through the lifecycle store (pay.withdraw) when a test is not about the withdraw request itself.
import { eq } from 'drizzle-orm';
import type { Database } from '../../../src/server/db/client.ts';
import { paymentApplies } from '../../../src/server/db/schema/money.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import type { SessionUser } from '../../../src/server/auth/session-user.ts';
import { toCents } from '../../../src/server/money/cents.ts';
import { paymentEntity } from '../../../src/server/entities/payment.ts';
import { transition } from '../../../src/server/entities/store.ts';
import { claim, record, scan, setTask, storedTask, taskWorld, UPC, type Client, type TaskOut, type TaskWorld } from './task-fixtures.ts';

export { taskWorld as moneyWorld };
export type MoneyWorld = TaskWorld;

/** A member of the world: `w.a` or `w.b`. */
export type Member = TaskWorld['a'];

/** An application as the API answers it (amounts in yuan, times in epoch ms). */
export interface PaymentApplyOut {
  id: number;
  taskId: number;
  mainId: number;
  subId: number;
  userId: number;
  nickName?: string;
  itemName: string;
  price: number;
  buyIn: number;
  count: number;
  bonus: number;
  punish: number;
  income: number;
  note: string;
  status: 'applied' | 'agreed' | 'withdrawing' | 'paid' | 'collected';
  existBonus: number;
  createdAt: number;
  updatedAt?: number;
}

export interface PaymentResult {
  status: 'succ' | 'failed';
  msg?: string;
  paymentApply?: PaymentApplyOut;
}

let parcel = 0;

/**
 * A locked task of `member`: claims `count` units of the world's first board task (UPC), scans a
 * parcel of them and records it, so matching locks the task (productCount = count). `buyIn` and
 * `punish` (yuan) are written onto the task afterwards when given. Returns the stored task and the
 * parcel's tracking id.
 */
export async function lockedTask(database: Database, w: TaskWorld, member: Member, v: { count?: number; buyIn?: number; punish?: number } = {}) {
  const count = v.count ?? 2;
  const task: TaskOut = await claim(member.api, w.boardTask.id, count);
  const trackingId = `PAY${++parcel}X${task.id}`;
  await scan(database, trackingId, UPC, count);
  await record(member.api, task.id, trackingId, count);
  const patch: Parameters<typeof setTask>[2] = {};
  if (v.buyIn !== undefined) patch.buyIn = toCents(v.buyIn);
  if (v.punish !== undefined) patch.punish = toCents(v.punish);
  if (Object.keys(patch).length) await setTask(database, task.id, patch);
  const stored = await storedTask(database, task.id);
  if (stored.status !== 'locked') throw new Error(`lockedTask: task ${task.id} is ${stored.status}`);
  return { task: stored, trackingId };
}

/** Applies for payment through the member's API; returns the whole answer (tests check refusals). */
export const applyPayment = (api: Client, body: { taskId: number; bonus?: number; note?: string }) =>
  api.post<PaymentResult>('/api/trade/user/pay/apply', body);

/** Agrees through an admin's API; returns the whole answer. */
export const agreePayment = (admin: Client, body: { paymentApplyId: number; bonus?: number }) => admin.post<PaymentResult>('/api/trade/admin/pay/agree', body);

/** An application of a new locked task of `member` (status applied). */
export async function appliedApplication(
  database: Database,
  w: TaskWorld,
  member: Member,
  v: { count?: number; buyIn?: number; punish?: number; bonus?: number; note?: string } = {},
) {
  const { task, trackingId } = await lockedTask(database, w, member, v);
  const res = await applyPayment(member.api, { taskId: task.id, bonus: v.bonus, note: v.note });
  if (res.body.data?.status !== 'succ') throw new Error(`apply failed: ${JSON.stringify(res.body)}`);
  return { task, trackingId, apply: res.body.data.paymentApply! };
}

/** An agreed application of a new locked task of `member` (the admin keeps the asked bonus unless `agreeBonus` is given). */
export async function agreedApplication(
  database: Database,
  w: TaskWorld,
  member: Member,
  v: { count?: number; buyIn?: number; punish?: number; bonus?: number; note?: string; agreeBonus?: number } = {},
) {
  const made = await appliedApplication(database, w, member, v);
  const res = await agreePayment(w.admin, { paymentApplyId: made.apply.id, ...(v.agreeBonus === undefined ? {} : { bonus: v.agreeBonus }) });
  if (res.body.data?.status !== 'succ') throw new Error(`agree failed: ${JSON.stringify(res.body)}`);
  return { ...made, apply: res.body.data.paymentApply! };
}

/** Puts agreed applications into a withdraw directly (pay.withdraw), without a withdraw request. */
export function markWithdrawing(database: Database, actor: SessionUser, ids: number[]) {
  return database.db.transaction((tx) => transition(tx, paymentEntity, actor, ids, { type: 'pay.withdraw' }));
}

export async function storedPayment(database: Database, id: number) {
  const [row] = await database.db.select().from(paymentApplies).where(eq(paymentApplies.id, id));
  return row!;
}

/** The scan rows tied to a task. */
export function scansOfTask(database: Database, taskId: number) {
  return database.db.select().from(scanTrackings).where(eq(scanTrackings.taskId, taskId)).orderBy(scanTrackings.id);
}

/** Sets stored application columns directly (e.g. agreedAt, to arrange a statistics case). */
export async function setPayment(database: Database, id: number, patch: Partial<typeof paymentApplies.$inferInsert>) {
  await database.db.update(paymentApplies).set(patch).where(eq(paymentApplies.id, id));
}
