// Download tokens die with the session that asked for them (decision 067), through the real API on
// a real database: a logout, a password reset and a role change refuse the links made before them
// (A00004, as an unknown link), while another session's links still open; the payment file's link
// opens once, also when two requests race for it.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { hashToken, newToken } from '../../../src/server/auth/secrets.ts';
import { oneTimeTokens, sessions } from '../../../src/server/db/schema/accounts.ts';
import { downloadTokens } from '../../../src/server/db/schema/files.ts';
import { DOWNLOAD_MESSAGES } from '../../../src/server/files/download-tokens.ts';
import { signIn } from '../support/board-fixtures.ts';
import { call, useTestApp } from '../support/harness.ts';
import { agreedApplication, moneyWorld } from '../support/money-fixtures.ts';
import { claim, client } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const refused = { status: 404, body: { code: 'A00004', msg: DOWNLOAD_MESSAGES.invalid } };
const tokenOf = async (res: Promise<{ body: { code: string; data?: { token: string } } }>) => {
  const r = await res;
  if (r.body.code !== 'A00000') throw new Error(`no token: ${JSON.stringify(r.body)}`);
  return r.body.data!.token;
};
/** A download link, opened as a browser does (no session header). */
async function open(url: string) {
  const res = await t().app.inject({ method: 'GET', url });
  return res.statusCode === 200 ? { status: 200 } : { status: res.statusCode, body: res.json() as unknown };
}

/** Member a (a task, two sessions), a lowerAdmin, and an admin with a waited withdraw line of a's to pay. */
async function world() {
  const { app, database } = t();
  const w = await moneyWorld(app, database);
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
  const adminToken = await createSession(database.db, w.adminUser.id, false);
  const task = await claim(w.a.api, w.boardTask.id, 1);
  const paid = await agreedApplication(database, w, w.a, { buyIn: 10.5, count: 2 });
  const card = await w.a.api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', {
    paymentType: 'Zelle',
    accountName: 'Ann Lee',
    cardNo: '+1 555 0100',
    address: 'NY',
  });
  const order = await w.a.api.post('/api/withdraw/user/request', {
    requests: [{ cardId: card.body.data!.card.id, withdrawAmount: 21 }],
    taskIds: [paid.task.id],
  });
  expect(order.body.code).toBe('A00000');
  const aTokens = [await createSession(database.db, w.a.user.id, false), await createSession(database.db, w.a.user.id, false)];
  return { w, task, lowerToken: lower.token, adminToken, aTokens };
}
type World = Awaited<ReturnType<typeof world>>;

const as = (token: string) => client(t().app, token);
const pdfLink = async (x: World, token: string) => `/ext/pdf/${x.task.id}/${await tokenOf(as(token).get(`/api/download/pdf/${x.task.id}/token`))}`;
const myTasksLink = async (token: string) => `/ext/excel/user-task/${await tokenOf(as(token).get('/api/download/excel/user-task/token?timezone=8'))}`;
const trackingLink = async (token: string) => `/ext/excel/tracking/${await tokenOf(as(token).get('/api/download/excel/tracking/token?timezone=8'))}`;
const paymentLink = async (token: string) => `/ext/excel/withdraw-payment/${await tokenOf(as(token).post('/api/withdraw/admin/payment-file/token', {}))}`;

describe('download links and the session that made them', () => {
  it("a logout refuses that session's links, every time, and leaves the user's other session's links working", async () => {
    const x = await world();
    const [mine, other] = x.aTokens as [string, string];
    const links = [await pdfLink(x, mine), await myTasksLink(mine)];
    const otherLink = await pdfLink(x, other);
    for (const link of links) expect(await open(link)).toEqual({ status: 200 });

    expect((await as(mine).post('/ext/login/logout')).body.code).toBe('A00000');
    for (let i = 0; i < 3; i++) for (const link of links) expect(await open(link), link).toEqual(refused);
    expect(await open(otherLink)).toEqual({ status: 200 });

    // The admin's payment file too.
    const payment = await paymentLink(x.adminToken);
    expect((await as(x.adminToken).post('/ext/login/logout')).body.code).toBe('A00000');
    expect(await open(payment)).toEqual(refused);
  });

  it('a session that expired opens none of its links', async () => {
    const x = await world();
    const [mine] = x.aTokens as [string];
    const link = await pdfLink(x, mine);
    await t()
      .database.db.update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(mine)));
    expect(await open(link)).toEqual(refused);
  });

  it("a password reset refuses every link of the user's sessions", async () => {
    const x = await world();
    const links = [await pdfLink(x, x.aTokens[0]!), await myTasksLink(x.aTokens[1]!)];
    const resetToken = newToken();
    await t()
      .database.db.insert(oneTimeTokens)
      .values({ kind: 'change', mailAddr: 'a@x.test', tokenHash: hashToken(resetToken), expiresAt: new Date(Date.now() + 3_600_000) });
    const reset = await call(t().app, { method: 'POST', url: '/ext/login/reset', payload: { pwd: 'brand-new-1', token: resetToken, mailAddr: 'a@x.test' } });
    expect(reset.body).toMatchObject({ code: 'A00000', data: { status: 'succ' } });
    for (const link of links) expect(await open(link)).toEqual(refused);
  });

  it("a role change refuses the user's links, even those the new role could still open", async () => {
    const x = await world();
    const before = await trackingLink(x.lowerToken);
    expect(await open(before)).toEqual({ status: 200 });
    const [lower] = await t()
      .database.db.select({ userId: sessions.userId })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(x.lowerToken)));
    // Promoted: an admin may open a tracking export, but not with a link made as a lowerAdmin.
    const promoted = await as(x.adminToken).post('/api/admin/user/update', { id: lower!.userId, roleType: 'admin' });
    expect(promoted.body.code).toBe('A00000');
    expect(await open(before)).toEqual(refused);
    // A link asked for in the new role opens.
    expect(await open(await trackingLink(x.lowerToken))).toEqual({ status: 200 });
  });
});

describe("the payment file's link (full payout details)", () => {
  it('opens once: the second download is refused as an unknown link', async () => {
    const x = await world();
    const link = await paymentLink(x.adminToken);
    expect(await open(link)).toEqual({ status: 200 });
    for (let i = 0; i < 2; i++) expect(await open(link)).toEqual(refused);
    // Other links are not single use (a browser may retry a download).
    const pdf = await pdfLink(x, x.aTokens[0]!);
    expect([await open(pdf), await open(pdf)]).toEqual([{ status: 200 }, { status: 200 }]);
  });

  it('two downloads racing for one link: one gets the file, the other A00004', async () => {
    const x = await world();
    const link = await paymentLink(x.adminToken);
    const answers = await Promise.all([open(link), open(link), open(link)]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200)).toEqual([refused, refused]);
    expect(await t().database.db.select().from(downloadTokens).where(eq(downloadTokens.kind, 'excel.withdrawPayment'))).toEqual([]);
  });
});
