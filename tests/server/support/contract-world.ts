// A world holding something of every kind the contract speaks of, for the tests that call every
// operation (contract-answers.test.ts, fuzz.test.ts): an admin, a lowerAdmin, members a and b in a
// bound group, an open board with board tasks, tasks in each state a member meets, purchased records,
// scans, payment applications, bank cards, withdraw orders, a notice and a pending invitation and
// reset. Built through the API where the project's fixtures do, directly where they do.
import type { FastifyInstance } from 'fastify';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { hashToken, newToken } from '../../../src/server/auth/secrets.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { oneTimeTokens } from '../../../src/server/db/schema/accounts.ts';
import { userGroups } from '../../../src/server/db/schema/groups.ts';
import { withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { eq } from 'drizzle-orm';
import { createBoardTask, seedItem, signIn } from './board-fixtures.ts';
import { agreedApplication, appliedApplication, lockedTask, moneyWorld, type Member } from './money-fixtures.ts';
import { claim, client, record, scan, type Client, UPC } from './task-fixtures.ts';

export interface Ids {
  /** Tasks of the member: open with a record, open without, locked (no application), processing (applied), agreed, in a withdraw. */
  openTask: number;
  bareTask: number;
  lockedTask: number;
  appliedTask: number;
  agreedTask: number;
  withdrawnTask: number;
  record: number;
  recordTracking: string;
  applied: number;
  agreed: number;
  withdrawing: number;
  card: number;
  spareCard: number;
  order: number;
  line: number;
}

async function bindCard(api: Client, cardNo: string) {
  const res = await api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', {
    paymentType: 'Zelle',
    accountName: 'Ann Lee Holder',
    address: '1 Main St',
    cardNo,
  });
  if (res.body.code !== 'A00000') throw new Error(`bind failed: ${JSON.stringify(res.body)}`);
  return res.body.data!.card.id;
}

let parcels = 0;

/** The entities of one member (each world member gets the same set). */
async function memberSet(database: Database, w: Awaited<ReturnType<typeof moneyWorld>>, m: Member, tag: string): Promise<Ids> {
  const open = await claim(m.api, w.boardTask2.id, 3);
  const recordTracking = `REC-${tag}-${++parcels}`;
  const [rec] = await record(m.api, open.id, recordTracking, 1);
  const bare = await claim(m.api, w.boardTask2.id, 1);
  const locked = await lockedTask(database, w, m, { count: 1 });
  const applied = await appliedApplication(database, w, m, { count: 1 });
  const agreed = await agreedApplication(database, w, m, { count: 1, buyIn: 3 });
  const withdrawn = await agreedApplication(database, w, m, { count: 1, buyIn: 4 });
  const card = await bindCard(m.api, `555000${tag === 'a' ? 1111 : 9999}`);
  const spareCard = await bindCard(m.api, `555000${tag === 'a' ? 2222 : 8888}`);
  const res = await m.api.post<{ orderId: number }>('/api/withdraw/user/request', {
    requests: [{ cardId: card, withdrawAmount: 4 }],
    taskIds: [withdrawn.task.id],
  });
  if (res.body.code !== 'A00000') throw new Error(`withdraw failed: ${JSON.stringify(res.body)}`);
  const order = res.body.data!.orderId;
  const [line] = await database.db
    .select()
    .from(withdrawRequests)
    .where(eq(withdrawRequests.orderId, String(order)));
  return {
    openTask: open.id,
    bareTask: bare.id,
    lockedTask: locked.task.id,
    appliedTask: applied.task.id,
    agreedTask: agreed.task.id,
    withdrawnTask: withdrawn.task.id,
    record: rec!.id,
    recordTracking,
    applied: applied.apply.id,
    agreed: agreed.apply.id,
    withdrawing: withdrawn.apply.id,
    card,
    spareCard,
    order,
    line: line!.id,
  };
}

export async function contractWorld(app: FastifyInstance, database: Database) {
  const w = await moneyWorld(app, database);
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin', nickName: '副管理员' });
  // A member who forgot the password (a reset ends their sessions, so not a or b).
  const forgetful = await signIn(app, database, 'm@x.test', { nickName: '小M' });
  const tokens = {
    admin: await createSession(database.db, w.adminUser.id, false),
    lowerAdmin: lower.token,
    a: await createSession(database.db, w.a.user.id, false),
    b: await createSession(database.db, w.b.user.id, false),
  };
  const a = await memberSet(database, w, w.a, 'a');
  const b = await memberSet(database, w, w.b, 'b');
  // A closed board task: a claim on it waits for the admin (pending).
  const item3 = await seedItem(database, { itemName: 'Kindle', upc: '840080500013' });
  const closedBoardTask = await createBoardTask(w.admin, w.board.id, { itemId: item3.id, buyIn: 8, show: 50, status: 'closed' });
  const pending = await claim(w.a.api, closedBoardTask.id, 1);
  const scanned = await scan(database, `SCAN-${++parcels}`, UPC, 1);
  const notice = await w.admin.post('/api/notice/save', { content: '本周五截止', isMail: false });
  if (notice.body.code !== 'A00000') throw new Error(`notice failed: ${JSON.stringify(notice.body)}`);
  // An invitation and a reset link (their mails are the auth tests'): tokens written as the server writes them.
  const inviteToken = newToken();
  const resetToken = newToken();
  const hour = 3_600_000;
  await database.db.insert(oneTimeTokens).values([
    { kind: 'register', tokenHash: hashToken(inviteToken), mailAddr: 'invited@x.test', createdBy: w.adminUser.id, expiresAt: new Date(Date.now() + 24 * hour) },
    { kind: 'change', tokenHash: hashToken(resetToken), mailAddr: 'm@x.test', expiresAt: new Date(Date.now() + hour) },
  ]);
  return {
    ...w,
    lower: { user: lower.user, api: client(app, lower.token) },
    forgetful: forgetful.user,
    tokens,
    /** The group of a and b, bound to the board. */
    groupId: (await database.db.select().from(userGroups).where(eq(userGroups.groupName, 'bound')))[0]!.id,
    ids: { a, b },
    item3,
    closedBoardTask,
    pending,
    scanned,
    inviteToken,
    resetToken,
  };
}
export type ContractWorld = Awaited<ReturnType<typeof contractWorld>>;
