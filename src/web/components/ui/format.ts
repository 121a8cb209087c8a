// Display formats shared by every screen: times travel as epoch milliseconds (CONVENTIONS "Wire")
// and show as local 'YYYY-MM-DD HH:mm'; money travels as decimals with at most 2 places.
const pad = (n: number) => String(n).padStart(2, '0');

/** The local calendar day "YYYY-MM-DD" of a date (the date filters' format, SPEC §9). */
export function formatDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "YYYY-MM-DD HH:mm" in local time; '' for a missing or invalid time. */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${formatDay(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Money as sent on the wire, shown with 2 decimals ('' when absent). */
export function formatMoney(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : value.toFixed(2);
}

/** The <input type="datetime-local"> value of an epoch-ms time ('' when missing). */
export function toDateTimeLocal(ms: number | null | undefined): string {
  return formatDateTime(ms).replace(' ', 'T');
}

/** Epoch ms of a datetime-local value, read as local time; NaN when it is not one. */
export function fromDateTimeLocal(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  // Reject rolled-over dates such as 2025-02-31.
  if (date.getMonth() !== mo - 1 || date.getDate() !== d) return Number.NaN;
  return date.getTime();
}
