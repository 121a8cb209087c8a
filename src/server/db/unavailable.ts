// "The database is unavailable": the one classifier of the errors that say the database, not the
// request, failed (docs/decisions/162-a-database-that-blinks.md). A lost or refused connection, a
// server shutting down or restarting, and a full disk are answered 503 A00005 with a message that
// says so (a balancer or a client retries; nothing here is the request's fault), never 500.
// Readiness (ops/readiness.ts) reads the disk-full mark a write leaves on the handle.
import { AppError, Code } from '../errors.ts';

export type Unavailable = 'unreachable' | 'disk full';

/** Node's socket errors of a connection that is lost or cannot be opened. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** SQLSTATE 57P01-57P03: admin shutdown (pg_terminate_backend, a restart), crash shutdown, cannot connect now (starting up). */
const SERVER_GOING = new Set(['57P01', '57P02', '57P03']);
/** node-postgres's own words for a connection that ended, did not open in time (a client's own 'timeout expired', the pool's wait), or cannot be used after one did. */
const LOST_CONNECTION = /Connection terminated|not queryable|timeout exceeded when trying to connect|^timeout expired$|PGlite is closed/i;
const DISK_FULL = /No space left on device|ENOSPC/i;

/** Why `err` (or an error in its chain of causes: drizzle wraps the driver's) says the database is unavailable; null otherwise. */
export function databaseUnavailable(err: unknown): Unavailable | null {
  let found: Unavailable | null = null;
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (code === 'ENOSPC' || code === '53100' || DISK_FULL.test(text)) return 'disk full';
    if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || SERVER_GOING.has(code))) found = 'unreachable';
    else if (LOST_CONNECTION.test(text)) found = 'unreachable';
  }
  return found;
}

export const UNAVAILABLE_MESSAGES: Record<Unavailable, string> = {
  unreachable: '数据库暂时不可用，请稍后重试',
  'disk full': '服务器磁盘空间不足，请联系管理员',
};

/** The answer to a request that failed because the database is unavailable: 503 A00005. */
export const unavailableError = (why: Unavailable) => new AppError(Code.system, 503, UNAVAILABLE_MESSAGES[why]);

/** When each database handle last failed a write for a full disk (readiness reads it). */
const diskFullAt = new WeakMap<object, number>();
export const markDiskFull = (db: object) => void diskFullAt.set(db, Date.now());
export const diskFullSince = (db: object): number | undefined => diskFullAt.get(db);
export const clearDiskFull = (db: object) => void diskFullAt.delete(db);
