// The time left until a deadline (a board's expireAt), counted down live: 剩余 2天3小时 far off,
// 剩余 3小时12分 the same day, 剩余 12分05秒 in the last hour (then it ticks each second), and
// 已过期 once passed (the board machine's isBoardExpired). `offsetMs` is the server's clock less this
// browser's, when a page knows it, so a wrong local clock does not show a closed board as open.
import { useEffect, useState, type JSX } from 'react';
import { isBoardExpired } from '../../../machines/board.machine';
import { formatDateTime } from './ui/format';
import { zh } from '../i18n/zh';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The current time (server-adjusted by `offsetMs`), read again every `everyMs`. */
export function useNow(everyMs = SECOND, offsetMs = 0): number {
  const [now, setNow] = useState(() => Date.now() + offsetMs);
  useEffect(() => {
    setNow(Date.now() + offsetMs);
    const timer = setInterval(() => setNow(Date.now() + offsetMs), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, offsetMs]);
  return now;
}

/** 剩余 … for `left` ms still to go; 已过期 when none. */
export function timeLeftText(left: number): string {
  const w = zh.countdown;
  if (left < 0) return w.expired;
  const d = Math.floor(left / DAY);
  const h = Math.floor((left % DAY) / HOUR);
  const m = Math.floor((left % HOUR) / MINUTE);
  const s = Math.floor((left % MINUTE) / SECOND);
  if (d > 0) return w.left(`${d}${w.days}${h}${w.hours}`);
  if (h > 0) return w.left(`${h}${w.hours}${m}${w.minutes}`);
  return w.left(`${m}${w.minutes}${String(s).padStart(2, '0')}${w.seconds}`);
}

export interface CountdownProps {
  expireAt: number;
  offsetMs?: number;
  className?: string;
}

/** The time left to `expireAt`, live; its full date on hover and for screen readers' time element. */
export function Countdown({ expireAt, offsetMs = 0, className = '' }: CountdownProps): JSX.Element {
  const now = useNow(SECOND, offsetMs);
  const expired = isBoardExpired({ expireAt }, now);
  const urgent = !expired && expireAt - now < DAY;
  return (
    <time
      dateTime={new Date(expireAt).toISOString()}
      title={formatDateTime(expireAt)}
      data-expired={expired || undefined}
      className={`tabular-nums ${expired ? 'text-slate-500' : urgent ? 'font-medium text-orange-700' : 'text-slate-700'} ${className}`}
    >
      {timeLeftText(expireAt - now)}
    </time>
  );
}
