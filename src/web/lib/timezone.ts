// The caller's offset from UTC as the API's `timezone` parameter wants it (SPEC §9: exports and
// date-ranged lists carry it, in hours, 8 for UTC+8, so the server reads and writes times in it).

/** The offset from UTC in hours of `date` in this browser (may be fractional: 5.5 for India). */
export function timezoneOffsetHours(date: Date = new Date()): number {
  return 0 - date.getTimezoneOffset() / 60; // 0 - x: never -0
}

/** 'UTC+8', 'UTC-5', 'UTC+5.5', 'UTC' for an offset in hours. */
export function offsetLabel(hours: number): string {
  if (hours === 0) return 'UTC';
  return `UTC${hours > 0 ? '+' : '-'}${Math.abs(hours)}`;
}
