// Order amounts per member (SPEC §2 /admin/task-amount-list: filters ascending switch, sort field,
// user, start date, end date; table userId, nickName, mailAddr, amount; Excel export; §7
// GET /api/statistics/admin/task/amount/list, response data, pageNumber; §9 dates YYYY-MM-DD with the
// caller's timezone offset in hours). SPEC and DECISIONS say nothing about what "amount" counts; the
// decision: a member's amount is the sum of the income of their payment applications the admin side
// has agreed to (COUNTED_STATUSES), each counted on the day it was agreed (whereOf). Only members with
// at least one counted application in the range are listed (no row of 0.00). Amounts are summed in
// cents in the database's exact arithmetic (sumCents) and sent as yuan with two places (fromCents); a
// member's sum cannot pass MAX_TOTAL_CENTS (payment-service.ts).
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { dayRange } from '../dates.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { paymentApplies } from '../db/schema/money.ts';
import type { DownloadParams } from '../files/download-tokens.ts';
import { writeWorkbook } from '../files/xlsx-write.ts';
import { fromCents, sumCents } from './cents.ts';
import { AGREED_PAYMENT_STATUSES } from '../../../machines/payment.machine.ts';
import { pageOf, totalPagesOf } from '../paging.ts';

type TaskAmount = components['schemas']['TaskAmount'];

/**
 * The statuses whose income counts (agreed or later): the payment machine's AGREED_PAYMENT_STATUSES.
 *
 * Status agreed, withdrawing, paid or collected: money the platform owes or has paid. Applications
 * still waiting (applied) are not counted.
 */
export const COUNTED_STATUSES = AGREED_PAYMENT_STATUSES;

export interface TaskAmountFilters {
  isAsc?: boolean;
  orderItem?: 1 | 2;
  userId?: number;
  startTime?: string;
  endTime?: string;
  /** Offset of the caller from UTC in hours. */
  timezone?: number;
}

/**
 * Each application is counted on the day it was agreed (agreedAt; a cancelled withdraw returning it
 * to agreed does not move that day): startTime is the first day included, endTime the last day
 * included, both read in the caller's offset `timezone` (hours) through dates.ts dayRange, as the
 * tracking list reads its dates; either end may be left open, and a start after the end is refused
 * (A00001 '开始日期不能晚于结束日期'). userId narrows the list to one member.
 */
function whereOf(f: TaskAmountFilters, userIds?: number[]): SQL | undefined {
  const { from, to } = dayRange(f);
  return and(
    inArray(paymentApplies.status, [...COUNTED_STATUSES]),
    from ? gte(paymentApplies.agreedAt, from) : undefined,
    to ? lt(paymentApplies.agreedAt, to) : undefined,
    f.userId === undefined ? undefined : eq(paymentApplies.userId, f.userId),
    userIds ? inArray(paymentApplies.userId, userIds) : undefined,
  );
}

const amountSum = sumCents(paymentApplies.income);

/**
 * The rows of the filters, sorted; `page` limits them to one page.
 *
 * orderItem 1 sorts by user id, 2 by amount (ties by user id); isAsc=false (the default) is
 * descending.
 */
async function amountRows(db: Tx, f: TaskAmountFilters, where: SQL | undefined, page?: { size: number; offset: number }): Promise<TaskAmount[]> {
  const dir = f.isAsc ? asc : desc;
  const order = f.orderItem === 2 ? [dir(amountSum), dir(paymentApplies.userId)] : [dir(paymentApplies.userId)];
  const query = db
    .select({ userId: paymentApplies.userId, nickName: users.nickName, mailAddr: users.mailAddr, amount: amountSum })
    .from(paymentApplies)
    .innerJoin(users, eq(users.id, paymentApplies.userId))
    .where(where)
    .groupBy(paymentApplies.userId, users.nickName, users.mailAddr)
    .orderBy(...order);
  const rows = page ? await query.limit(page.size).offset(page.offset) : await query;
  return rows.map((r) => ({ userId: r.userId, nickName: r.nickName, mailAddr: r.mailAddr, amount: fromCents(r.amount) }));
}

/**
 * GET /api/statistics/admin/task/amount/list.
 *
 * pageNumber is the number of pages (SPEC §7 "response data, pageNumber").
 */
export async function listTaskAmounts(db: Tx, q: TaskAmountFilters & { page?: number; size?: number }) {
  const { size, offset } = pageOf(q);
  const where = whereOf(q);
  const [total] = await db
    .select({ n: sql<number>`count(distinct ${paymentApplies.userId})`.mapWith(Number) })
    .from(paymentApplies)
    .where(where);
  const data = await amountRows(db, q, where, { size, offset });
  return { data, pageNumber: totalPagesOf(total?.n ?? 0, size) };
}

/**
 * Every row of the filters (only `userIds` when given), for the export.
 *
 * The Excel export (/ext/excel/task-amount/{token}) holds the same rows in the same order: the rows
 * whose user ids the link's userIds names (the rows selected on the page), else every row matching
 * the filters. Its columns are the page's: 用户ID, 用户名, 邮箱, 金额.
 */
export function taskAmountsForExport(db: Tx, f: TaskAmountFilters, userIds?: number[]) {
  return amountRows(db, f, whereOf(f, userIds?.length ? userIds : undefined));
}

/**
 * What a task-amount download token keeps: the dates and timezone given when it was issued
 * (getExcelDownloadToken declares only those of this export's filters); checked here, so a token
 * is never issued for a range the export would refuse.
 */
export function taskAmountTokenParams(q: { startTime?: string; endTime?: string; timezone?: number }): DownloadParams {
  dayRange(q);
  const p: DownloadParams = { timezone: q.timezone ?? 0 };
  if (q.startTime) p.startTime = q.startTime;
  if (q.endTime) p.endTime = q.endTime;
  return p;
}

/**
 * The export's filters: the link's query (exportTaskAmountExcel declares every filter of the list)
 * gives the sort and the user; the dates with their timezone come from the link when it names a
 * date, else from the token. Anything stored of an unexpected type is ignored.
 */
export function taskAmountExportFilters(token: DownloadParams, link: TaskAmountFilters): TaskAmountFilters {
  const f: TaskAmountFilters = { isAsc: link.isAsc ?? false, orderItem: link.orderItem ?? 1, userId: link.userId };
  if (link.startTime || link.endTime) return { ...f, startTime: link.startTime, endTime: link.endTime, timezone: link.timezone ?? 0 };
  const str = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
  const tz = token.timezone;
  return {
    ...f,
    startTime: str(token.startTime),
    endTime: str(token.endTime),
    timezone: typeof tz === 'number' && tz >= -12 && tz <= 14 ? tz : (link.timezone ?? 0),
  };
}

export const TASK_AMOUNT_HEADER = ['用户ID', '用户名', '邮箱', '金额'] as const;

export function taskAmountWorkbook(rows: TaskAmount[]): Buffer {
  return writeWorkbook([
    {
      name: '订单金额',
      header: TASK_AMOUNT_HEADER,
      rows: rows.map((r) => [r.userId, r.nickName, r.mailAddr, r.amount]),
      widths: [10, 20, 32, 14],
      textColumns: [1, 2],
    },
  ]);
}
