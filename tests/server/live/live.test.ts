// The live stream (GET /api/events) over real HTTP on the app of this worker's database (PGlite, or
// PostgreSQL with TEST_DB=pg): a member hears of their own tasks, applications and withdraw lines
// as the warehouse scans and the admin agrees and pays, and never of another member's; the admin
// side hears of claims; the stream is refused without a session and beyond the per-user cap, ends
// within 1 s of a logout, password reset or role change (made here or by another process) and when
// the server stops; a second app on the same database hears what the first wrote.
// Each wait is the product's 2 s promise.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { eq } from 'drizzle-orm';
import { hashToken } from '../../../src/server/auth/secrets.ts';
import { createSession, revokeSession, revokeUserSessions, sessionsChanged } from '../../../src/server/auth/sessions.ts';
import { sessions, users } from '../../../src/server/db/schema/accounts.ts';
import { LIVE_STREAMS_PER_USER } from '../../../src/server/live/hub.ts';
import { STOP_DEADLINE_MS } from '../../../src/server/lifecycle.ts';
import { signIn } from '../support/board-fixtures.ts';
import { contractAjv } from '../support/contract-answers.ts';
import { useTestApp } from '../support/harness.ts';
import { changeOf, endsWithin, openLiveStream, REVOKED_MS, type LiveStream } from '../support/live-stream.ts';
import { agreePayment, appliedApplication } from '../support/money-fixtures.ts';
import { claim, record, taskWorld, UPC, type TaskWorld } from '../support/task-fixtures.ts';

const t = useTestApp();
let base = '';
beforeAll(async () => {
  await t().app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t().app.server.address() as { port: number }).port}`;
});

const open: LiveStream[] = [];
/** A stream that is open and listening (its `ready` arrived), closed after the test. */
async function listen(token: string, url = base): Promise<LiveStream> {
  const s = await openLiveStream(url, token);
  open.push(s);
  expect(s.status, JSON.stringify(s.refusal)).toBe(200);
  await s.waitFor((m) => m.event === 'ready');
  return s;
}
// A stream closed from this side (fetch aborted) may leave its socket open until the client lets go
// of it, and the harness's app.close() would wait for that: the sockets go first (vitest runs this
// file's afterAll before the harness's).
afterAll(() => t().app.server.closeAllConnections());
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  // The hub has let go of every closed stream before the next test reuses the user ids.
  const until = Date.now() + 5_000;
  while (t().app.appCtx.live.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(t().app.appCtx.live.size).toBe(0);
});

/** The task world, with session tokens of its admin and members (its clients keep theirs to themselves). */
async function world() {
  const { app, database } = t();
  const w = await taskWorld(app, database);
  const tokens = {
    admin: await createSession(database.db, w.adminUser.id, false),
    a: await createSession(database.db, w.a.user.id, false),
    b: await createSession(database.db, w.b.user.id, false),
  };
  return { ...w, tokens };
}

/** The contract's LiveEvent, the data of every change message. */
const isLiveEvent = contractAjv().compile({ $ref: 'openapi.json#/components/schemas/LiveEvent' });

const scanParcel = (w: TaskWorld, trackingId: string, count: number) =>
  w.admin.post<{ opStatus: string }>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/create`, {
    items: [{ upc: UPC, count, itemId: w.item.id }],
  });

describe('a member hears of their own objects only', () => {
  it('a scan that matches a task reaches its member within 2 s, and not the other member', async () => {
    const w = await world();
    const taskA = await claim(w.a.api, w.boardTask.id, 2);
    const taskB = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.a.api, taskA.id, 'LIVE-A-1', 2);
    await record(w.b.api, taskB.id, 'LIVE-B-1', 1);
    const [a, b] = [await listen(w.tokens.a), await listen(w.tokens.b)];

    expect((await scanParcel(w, 'LIVE-A-1', 2)).body.data?.opStatus).toBe('succ');
    await a.waitFor(changeOf('task', taskA.id));
    expect((await scanParcel(w, 'LIVE-B-1', 1)).body.data?.opStatus).toBe('succ');
    await b.waitFor(changeOf('task', taskB.id));

    // Notifications arrive in commit order: b heard of its own parcel, so it would have heard of a's before it.
    expect(a.changes()).toEqual([{ kind: 'task', ids: [taskA.id] }]);
    expect(b.changes()).toEqual([{ kind: 'task', ids: [taskB.id] }]);
    expect(a.contentType).toBe('text/event-stream; charset=utf-8');
    for (const change of [...a.changes(), ...b.changes()]) expect(isLiveEvent(change), JSON.stringify(change)).toBe(true);
  });

  it("an admin's agree of an application and pay of a withdraw line reach their member, not the other", async () => {
    const w = await world();
    const { database } = t();
    const { task, apply } = await appliedApplication(database, w, w.a, { buyIn: 10, count: 2 });
    const [a, b] = [await listen(w.tokens.a), await listen(w.tokens.b)];

    expect((await agreePayment(w.admin, { paymentApplyId: apply.id })).body.data?.status).toBe('succ');
    await a.waitFor(changeOf('apply', apply.id));

    const card = await w.a.api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', {
      paymentType: 'Zelle',
      accountName: 'Ann Lee',
      cardNo: '5550001111',
      address: '1 Main St',
    });
    const asked = await w.a.api.post('/api/withdraw/user/request', {
      requests: [{ cardId: card.body.data!.card.id, withdrawAmount: 20 }],
      taskIds: [task.id],
    });
    expect(asked.body.code).toBe('A00000');
    const lines = await w.a.api.get<{ requestPage: { content: { id: number }[] } }>('/api/withdraw/user/requests');
    const lineId = lines.body.data!.requestPage.content[0]!.id;

    const before = a.messages.length;
    expect((await w.admin.post('/api/withdraw/admin/paid', { id: lineId })).body.code).toBe('A00000');
    await a.waitFor(changeOf('withdraw', lineId), { from: before });
    // Paying the line paid its application and finished its task: the member hears of both.
    await a.waitFor(changeOf('apply', apply.id), { from: before });
    await a.waitFor(changeOf('task', task.id), { from: before });

    // b's own change, heard after all of a's: b heard nothing else.
    const taskB = await claim(w.b.api, w.boardTask.id, 1);
    await b.waitFor(changeOf('task', taskB.id));
    expect(b.changes()).toEqual([{ kind: 'task', ids: [taskB.id] }]);
    expect(a.changes().every((c) => c.kind !== 'claim')).toBe(true);
  });
});

describe('the admin side', () => {
  it('hears of claims by board (admin and lowerAdmin); members do not', async () => {
    const w = await world();
    const lower = await signIn(t().app, t().database, 'lower@x.test', { roleType: 'lowerAdmin' });
    const [admin, lowerAdmin, a] = [await listen(w.tokens.admin), await listen(lower.token), await listen(w.tokens.a)];

    const taskB = await claim(w.b.api, w.boardTask.id, 3);
    await admin.waitFor(changeOf('claim', w.board.id));
    await lowerAdmin.waitFor(changeOf('claim', w.board.id));
    expect(admin.changes()).toEqual([{ kind: 'claim', ids: [w.board.id] }]);

    // Deleting a claim frees its units: a claim change too.
    const from = admin.messages.length;
    expect((await w.b.api.del(`/api/task/info/user/${taskB.id}`)).body.code).toBe('A00000');
    await admin.waitFor(changeOf('claim', w.board.id), { from });

    const taskA = await claim(w.a.api, w.boardTask.id, 1);
    await a.waitFor(changeOf('task', taskA.id));
    expect(a.changes()).toEqual([{ kind: 'task', ids: [taskA.id] }]);
  });
});

describe('who may hold a stream, and for how long', () => {
  it('refuses no session (401) and a stream beyond the cap (429); ends at logout', async () => {
    const w = await world();
    const none = await openLiveStream(base);
    expect([none.status, none.refusal?.code]).toEqual([401, 'A00002']);

    for (let i = 0; i < LIVE_STREAMS_PER_USER; i++) await listen(w.tokens.a);
    const extra = await openLiveStream(base, w.tokens.a);
    expect([extra.status, extra.refusal?.code]).toEqual([429, 'A00004']);
    expect(extra.refusal?.msg).toContain('实时更新的连接过多');
    const b = await listen(w.tokens.b);

    // Logging out ends the session's streams within 1 s, without waiting for a keep-alive; b's stays.
    const out = await t().app.inject({ method: 'POST', url: '/ext/login/logout', headers: { 'x-token': w.tokens.a } });
    expect(out.statusCode).toBe(200);
    await Promise.all(open.slice(0, LIVE_STREAMS_PER_USER).map((s) => endsWithin(s, REVOKED_MS)));
    expect(t().app.appCtx.live.size).toBe(1);
    await t().app.appCtx.live.keepAlive();
    await b.waitFor((m) => m.event === 'comment' && m.data === 'ping');
  });

  it("a demoted lowerAdmin's stream ends within 1 s and hears nothing after; the admin's goes on", async () => {
    const w = await world();
    const lower = await signIn(t().app, t().database, 'lower@x.test', { roleType: 'lowerAdmin' });
    const [admin, lowerAdmin] = [await listen(w.tokens.admin), await listen(lower.token)];
    const demoted = await w.admin.post('/api/admin/user/update', { id: lower.user.id, roleType: 'user' });
    expect(demoted.body.code).toBe('A00000');
    await endsWithin(lowerAdmin, REVOKED_MS);
    await claim(w.b.api, w.boardTask.id, 1);
    await admin.waitFor(changeOf('claim', w.board.id));
    expect(lowerAdmin.changes()).toEqual([]);
  });

  it('a revocation written by another process (straight on the database) ends the streams concerned within 1 s', async () => {
    const w = await world();
    const { database } = t();
    const lower = await signIn(t().app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
    const [a, b, lowerAdmin] = [await listen(w.tokens.a), await listen(w.tokens.b), await listen(lower.token)];
    // Logout of a's session, a password reset of b's sessions, a role change: each only its own streams.
    const [aSession] = await database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(w.tokens.a)));
    await revokeSession(database.db, aSession!.id);
    await endsWithin(a, REVOKED_MS);
    expect(t().app.appCtx.live.size).toBe(2);
    await database.db.transaction((tx) => revokeUserSessions(tx, w.b.user.id));
    await endsWithin(b, REVOKED_MS);
    await database.db.transaction(async (tx) => {
      await tx.update(users).set({ roleType: 'admin' }).where(eq(users.id, lower.user.id));
      await sessionsChanged(tx, lower.user.id);
    });
    await endsWithin(lowerAdmin, REVOKED_MS);
    // The promoted user's session still works: a new stream opens.
    await listen(lower.token);
  });

  it('a second app on the same database hears what the first wrote; its streams end as it stops, well within the stop limit', async () => {
    const w = await world();
    const { database, config, mailer, outbox } = t();
    const other: FastifyInstance = await buildApp({ db: database.db, config, mailer, outbox, logger: pino({ level: 'silent' }) });
    await other.listen({ port: 0, host: '127.0.0.1' });
    const otherBase = `http://127.0.0.1:${(other.server.address() as { port: number }).port}`;
    try {
      const taskA = await claim(w.a.api, w.boardTask.id, 1);
      await record(w.a.api, taskA.id, 'LIVE-A-2', 1);
      const a = await listen(w.tokens.a, otherBase);
      expect((await scanParcel(w, 'LIVE-A-2', 1)).body.data?.opStatus).toBe('succ');
      await a.waitFor(changeOf('task', taskA.id));

      const started = Date.now();
      await other.close();
      await a.ended;
      expect(Date.now() - started).toBeLessThan(STOP_DEADLINE_MS);
      expect(other.appCtx.live.size).toBe(0);
    } finally {
      await other.close();
    }
  });
});
