// A revocation written by another server process reaches this one's session cache
// (docs/decisions/150-session-revocation-across-processes.md): the revoking statements are run
// straight on the database, as another process runs them, never through this app. A session row
// deleted without a revocation shows that the cache is in play (it keeps answering); on PostgreSQL,
// a lost listening connection empties the cache.
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createSession, revokeSession, revokeUserSessions, sessionsChanged } from '../../../src/server/auth/sessions.ts';
import { LISTEN_APPLICATION_NAME, rowsOf } from '../../../src/server/db/client.ts';
import { sessions, users } from '../../../src/server/db/schema/accounts.ts';
import { call, createUser, dbDriver, useTestApp } from '../support/harness.ts';

const t = useTestApp();

const info = (token: string) => call(t().app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });

/** The answers of `token` until `done` says so (a notification takes a moment to arrive), at most 5 s. */
async function until(token: string, done: (r: Awaited<ReturnType<typeof info>>) => boolean) {
  const deadline = Date.now() + 5_000;
  let r = await info(token);
  while (!done(r) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    r = await info(token);
  }
  return r;
}

async function sessionOf(mailAddr: string, roleType: 'user' | 'lowerAdmin' = 'user') {
  const { database } = t();
  const user = await createUser(database, { mailAddr, inGroup: true, roleType });
  const token = await createSession(database.db, user.id, false);
  const [row] = await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
  expect((await info(token)).body.code).toBe('A00000');
  return { user, token, sessionId: row!.id };
}

describe('revocations made by another process', () => {
  it('a logout, a password reset and a role change elsewhere end or refresh the cached session here', async () => {
    const { database } = t();
    const silent = await sessionOf('silent@x.test');
    const logout = await sessionOf('logout@x.test');
    const reset = await sessionOf('reset@x.test');
    const role = await sessionOf('role@x.test', 'lowerAdmin');
    // Make sure each is cached: a row deleted without a revocation is still answered from the cache.
    await database.db.delete(sessions).where(eq(sessions.id, silent.sessionId));
    expect((await info(silent.token)).body.code).toBe('A00000');

    await revokeSession(database.db, logout.sessionId);
    expect((await until(logout.token, (r) => r.status === 401)).body.code).toBe('A00002');

    await database.db.transaction((tx) => revokeUserSessions(tx, reset.user.id));
    expect((await until(reset.token, (r) => r.status === 401)).body.code).toBe('A00002');

    // The role a call is allowed by is the session's: a lowerAdmin's list of users, refused once a member.
    const listUsers = () => call(t().app, { method: 'GET', url: '/api/user/list', headers: { 'x-token': role.token } });
    expect((await listUsers()).status).toBe(200);
    await database.db.transaction(async (tx) => {
      await tx.update(users).set({ roleType: 'user' }).where(eq(users.id, role.user.id));
      await sessionsChanged(tx, role.user.id);
    });
    let listed = await listUsers();
    for (let i = 0; i < 250 && listed.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      listed = await listUsers();
    }
    expect(listed).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });

  it('a revocation rolled back revokes nothing', async () => {
    const { database } = t();
    const s = await sessionOf('stays@x.test');
    await database.db
      .transaction(async (tx) => {
        await revokeSession(tx, s.sessionId);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await info(s.token)).body.code).toBe('A00000');
    expect(await database.db.select().from(sessions).where(eq(sessions.id, s.sessionId))).toHaveLength(1);
  });

  it.skipIf(dbDriver() !== 'pg')('a lost listening connection empties the cache (PostgreSQL)', async () => {
    const { database } = t();
    const s = await sessionOf('lost@x.test');
    const [db] = await rowsOf<{ name: string }>(database.db.execute(sql`select current_database() as name`));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const listening = 'select pid from pg_stat_activity where datname = $1 and application_name = $2';
      const pids = async () => (await admin.query<{ pid: number }>(listening, [db!.name, LISTEN_APPLICATION_NAME])).rows.map((r) => r.pid);
      const before = await pids();
      expect(before.length).toBeGreaterThan(0);
      for (const pid of before) await admin.query('select pg_terminate_backend($1)', [pid]);
      // Listening again on a new connection, opened once the loss was noticed.
      for (let i = 0; i < 200 && !(await pids()).some((p) => !before.includes(p)); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await admin.end();
    }
    // Deleted without a revocation: had the entry survived the loss, it would still be answered.
    await database.db.delete(sessions).where(eq(sessions.id, s.sessionId));
    expect((await info(s.token)).status).toBe(401);
  });
});
