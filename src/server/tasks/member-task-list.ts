// What a member's own task list (/user/my-task, GET /api/task/info/user/list) adds to each task
// (decision 106): its purchased records with matching's verdict (status and msg), so each tracking id
// shows whether it arrived, is still expected or disagrees; and the bonus of its payment application,
// asked and agreed (machines/payment.machine.ts applicationBonuses), because the task's own bonus is
// not what the member is paid. Two reads for the whole page, keyed by its task ids.
import { asc, inArray, sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { applicationBonuses } from '../../../machines/payment.machine.ts';
import type { Tx } from '../db/client.ts';
import { paymentApplies } from '../db/schema/money.ts';
import { purchasedRecords } from '../db/schema/tasks.ts';
import { fromCents } from '../money/cents.ts';
import { missingAge } from './missing-parcels.ts';

type Task = components['schemas']['Task'];

/**
 * The page's tasks with `trackings`, `askedBonus` and `agreedBonus`. A tracking id not arrived
 * after `missingDays` days carries its age (`missingDays`) and, when its member reported it lost,
 * `lost` (decision 077): the row is flagged where the member looks.
 */
export async function withMemberDetails<P extends { content: Task[] }>(tx: Tx, page: P, missingDays?: number): Promise<P> {
  const ids = page.content.map((t) => t.id);
  if (!ids.length) return page;
  const [records, applications] = await Promise.all([
    tx
      .select({
        taskId: purchasedRecords.taskId,
        trackingId: purchasedRecords.trackingId,
        productCount: purchasedRecords.productCount,
        status: purchasedRecords.status,
        msg: purchasedRecords.msg,
        age: missingDays === undefined ? sql<number | null>`null` : missingAge(missingDays, 'purchased_records'),
        lost: sql<boolean>`${purchasedRecords.lostAt} is not null`,
      })
      .from(purchasedRecords)
      .where(inArray(purchasedRecords.taskId, ids))
      .orderBy(asc(purchasedRecords.id)),
    tx
      .select({ taskId: paymentApplies.taskId, status: paymentApplies.status, askedBonus: paymentApplies.askedBonus, bonus: paymentApplies.bonus })
      .from(paymentApplies)
      .where(inArray(paymentApplies.taskId, ids)),
  ]);
  const trackingsOf = new Map<number, Task['trackings'] & object>(ids.map((id) => [id, []]));
  for (const { taskId, age, lost, ...r } of records)
    trackingsOf.get(taskId)!.push({ ...r, ...(age === null ? {} : { missingDays: age, ...(lost ? { lost } : {}) }) });
  const bonusesOf = new Map(applications.map((a) => [a.taskId, applicationBonuses(a)]));
  return {
    ...page,
    content: page.content.map((t) => {
      const b = bonusesOf.get(t.id);
      return {
        ...t,
        trackings: trackingsOf.get(t.id)!,
        askedBonus: b ? fromCents(b.askedBonus) : null,
        agreedBonus: b?.agreedBonus == null ? null : fromCents(b.agreedBonus),
      };
    }),
  };
}
