// Display helpers of the member's board screens.

const pad = (n: number) => String(n).padStart(2, '0');

/** Epoch milliseconds as local 'YYYY-MM-DD HH:mm' ('' when absent). */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Money as sent on the wire (at most 2 decimals), shown with 2. */
export function formatMoney(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : value.toFixed(2);
}

/** SPEC §9 "status reloads use a 10 ms delay": the wait before reloading after a claim. */
export const STATUS_RELOAD_DELAY_MS = 10;
