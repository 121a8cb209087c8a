// The one classifier of "the database is unavailable" (decision 162): what it takes for a lost
// connection or a full disk, answered 503, and what it leaves to the other answers (a constraint, a
// missing table, a bug: the request's or the code's fault, not the database's absence).
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { databaseUnavailable, unavailableError } from '../../../src/server/db/unavailable.ts';
import { AppError } from '../../../src/server/errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** As drizzle reports a statement the driver failed: the driver's error is the cause. */
const wrapped = (cause: Error) => new DrizzleQueryError('insert into "items" ...', [], cause);

describe('databaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', wrapped(withCode('read ECONNRESET', 'ECONNRESET'))],
    ['a write to a closed socket', withCode('write EPIPE', 'EPIPE')],
    ['node-postgres: the connection ended', wrapped(new Error('Connection terminated unexpectedly'))],
    ['node-postgres: a client after its connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['node-postgres: a connection not open within its bound', new Error('timeout expired')],
    ['pg_terminate_backend (57P01)', wrapped(withCode('terminating connection due to administrator command', '57P01'))],
    ['a crash shutdown (57P02)', withCode('terminating connection because of crash of another server process', '57P02')],
    ['a server starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
  ])('%s is unreachable', (_, err) => {
    expect(databaseUnavailable(err)).toBe('unreachable');
  });

  it.each([
    ['PGlite: a table that cannot grow (53100)', wrapped(withCode('could not extend file "base/5/17301": No space left on device', '53100'))],
    ['a file write (ENOSPC)', withCode('ENOSPC: no space left on device, write', 'ENOSPC')],
  ])('%s is a full disk', (_, err) => {
    expect(databaseUnavailable(err)).toBe('disk full');
  });

  it.each([
    ['a unique violation', wrapped(withCode('duplicate key value violates unique constraint', '23505'))],
    ['a missing table', wrapped(withCode('relation "x" does not exist', '42P01'))],
    ['a serialization failure', withCode('could not serialize access', '40001')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['an answer of our own', new AppError('A00001', 400, '参数错误')],
    ['not an error', 'Connection terminated'],
  ])('%s is not', (_, err) => {
    expect(databaseUnavailable(err)).toBeNull();
  });

  it('answers 503 A00005 with a Chinese message saying which', () => {
    expect(unavailableError('unreachable')).toMatchObject({ httpStatus: 503, code: 'A00005', message: '数据库暂时不可用，请稍后重试' });
    expect(unavailableError('disk full')).toMatchObject({ httpStatus: 503, code: 'A00005', message: '服务器磁盘空间不足，请联系管理员' });
  });
});
