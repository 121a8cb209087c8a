// Dates on the wire (DECISIONS "Wire contract": date filters are `YYYY-MM-DD` plus `timezone`, the
// caller's offset from UTC in hours, interpreted in that offset; SPEC §9 "The timezone offset in hours
// is sent with the tracking list, task-amount list and exports"). The one place a day of the caller
// becomes an instant: the lists and their Excel exports filter with dayRange and write times with
// formatTime, so a list and its file always agree.
import { badRequest } from './errors.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const dateMessages = {
  invalidDate: (field: string, v: string) => `参数错误：字段 ${field} 不是有效日期（${v}）`,
  reversed: '开始日期不能晚于结束日期',
} as const;

/** Epoch ms of 00:00 of `ymd` (YYYY-MM-DD) in the offset `timezone` (hours); A00001 for a date that does not exist. */
export function startOfDay(ymd: string, timezone: number, field = 'date'): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) throw badRequest(dateMessages.invalidDate(field, ymd));
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = Date.UTC(y, mo - 1, d);
  const back = new Date(utc);
  // 2024-02-30 would roll over to March: refused rather than silently moved.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) throw badRequest(dateMessages.invalidDate(field, ymd));
  return utc - timezone * HOUR;
}

/**
 * The instants [from, to) of the days `startTime` (first day included) to `endTime` (last day
 * included) in the offset `timezone`; either end may be absent (open). A range whose start lies after
 * its end is refused.
 */
export function dayRange(q: { startTime?: string; endTime?: string; timezone?: number }): { from?: Date; to?: Date } {
  const tz = q.timezone ?? 0;
  const from = q.startTime ? startOfDay(q.startTime, tz, 'startTime') : undefined;
  const to = q.endTime ? startOfDay(q.endTime, tz, 'endTime') + DAY : undefined;
  if (from !== undefined && to !== undefined && from >= to) throw badRequest(dateMessages.reversed);
  return { from: from === undefined ? undefined : new Date(from), to: to === undefined ? undefined : new Date(to) };
}

/** 'YYYY-MM-DD HH:mm' of epoch ms in the offset `timezone` (hours), as the files write times. */
export const formatTime = (ms: number, timezone: number) => new Date(ms + timezone * HOUR).toISOString().slice(0, 16).replace('T', ' ');

/** The instants [from, to) of the day `now` falls on in the offset `timezone` (hours): "today" of the caller. */
export function todayRange(timezone: number, now = Date.now()): { from: Date; to: Date } {
  const offset = timezone * HOUR;
  const from = Math.floor((now + offset) / DAY) * DAY - offset;
  return { from: new Date(from), to: new Date(from + DAY) };
}
