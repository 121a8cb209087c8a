// Fixtures of the task, purchased-record and matching tests: a board open to two members, claims
// made through the API, and what the warehouse scanned written straight into scan_trackings (the
// scan screens are the next issue's; matching reads only the table).
import { canonicalTrackingId } from '../../../machines/tracking-id.ts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/server/db/client.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { tasks } from '../../../src/server/db/schema/tasks.ts';
import type { SessionUser } from '../../../src/server/auth/session-user.ts';
import { call } from './harness.ts';
import { createBoardTask, openBoard, seedGroup, seedItem, signIn } from './board-fixtures.ts';

export const UPC = '194253397168';
export const UPC2 = '888462500012';

export interface TaskOut {
  id: number;
  mainId: number;
  subId: number;
  userId: number;
  status: string;
  count: number;
  productCount: number;
  canSplit: boolean;
  labelCount: number;
  trackingId: string;
  [k: string]: unknown;
}

export interface PurchasedOut {
  id: number;
  taskId: number;
  trackingId: string;
  productCount: number;
  status: string;
  msg: string;
}

/** Calls as one signed-in account, with DELETE too. */
export function client(app: FastifyInstance, token: string) {
  const headers = { 'x-token': token };
  return {
    get: <T = Record<string, unknown>>(url: string) => call<T>(app, { method: 'GET', url, headers }),
    post: <T = Record<string, unknown>>(url: string, payload?: unknown) =>
      call<T>(app, { method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) }),
    del: <T = Record<string, unknown>>(url: string) => call<T>(app, { method: 'DELETE', url, headers }),
  };
}
export type Client = ReturnType<typeof client>;

export const actorOf = (u: { id: number; mailAddr: string; nickName: string; roleType: 'admin' | 'lowerAdmin' | 'user' }): SessionUser => ({
  id: u.id,
  mailAddr: u.mailAddr,
  nickName: u.nickName,
  roleType: u.roleType,
  sessionId: 0,
});

/**
 * An admin, members a (小A) and b (小B) in a bound group, and an open board with two board tasks:
 * `boardTask` (item UPC) and `boardTask2` (item UPC2), each showing `show` units.
 */
export async function taskWorld(app: FastifyInstance, database: Database, v: { show?: number } = {}) {
  const adminIn = await signIn(app, database, 'admin@x.test', { roleType: 'admin', nickName: '管理员' });
  const admin = client(app, adminIn.token);
  const g = await seedGroup(database, 'bound');
  const a = await signIn(app, database, 'a@x.test', { groupId: g.id, nickName: '小A' });
  const b = await signIn(app, database, 'b@x.test', { groupId: g.id, nickName: '小B' });
  const opened = await openBoard(admin, database, g.id, { show: v.show ?? 100 });
  const item2 = await seedItem(database, { itemName: 'Switch Pro', upc: UPC2 });
  const boardTask2 = await createBoardTask(admin, opened.board.id, { itemId: item2.id, buyIn: 20, show: v.show ?? 100 });
  return {
    admin,
    adminUser: adminIn.user,
    adminActor: actorOf(adminIn.user),
    group: g,
    a: { user: a.user, api: client(app, a.token), actor: actorOf(a.user) },
    b: { user: b.user, api: client(app, b.token), actor: actorOf(b.user) },
    ...opened,
    item2,
    boardTask2,
  };
}
export type TaskWorld = Awaited<ReturnType<typeof taskWorld>>;

/** Claims `count` units through the API and returns the new task. */
export async function claim(api: Client, boardTaskId: number, count: number): Promise<TaskOut> {
  const res = await api.post<{ task: TaskOut }>(`/api/task/${boardTaskId}/user/create/${count}`);
  if (res.body.code !== 'A00000') throw new Error(`claim failed: ${JSON.stringify(res.body)}`);
  return res.body.data!.task;
}

/** Sets stored task columns directly (status and the machine's context, to arrange a case). */
export async function setTask(database: Database, id: number, patch: Partial<typeof tasks.$inferInsert>) {
  await database.db.update(tasks).set(patch).where(eq(tasks.id, id));
}

export async function storedTask(database: Database, id: number) {
  const [row] = await database.db.select().from(tasks).where(eq(tasks.id, id));
  return row!;
}

/** A parcel seen at the warehouse: one scan row (status scan unless told). */
export async function scan(database: Database, trackingId: string, upc: string, count: number, status: 'init' | 'scan' | 'wait2pay' = 'scan') {
  // Stored as the server stores it: the canonical key (decision 097).
  const [row] = await database.db
    .insert(scanTrackings)
    .values({ trackingId: canonicalTrackingId(trackingId), upc, count, status })
    .returning();
  return row!;
}

export async function scansOf(database: Database, trackingId: string) {
  return database.db
    .select()
    .from(scanTrackings)
    .where(eq(scanTrackings.trackingId, canonicalTrackingId(trackingId)))
    .orderBy(scanTrackings.id);
}

/** Records a purchase through the member's API. */
export async function record(api: Client, taskId: number, trackingId: string, productCount: number) {
  const res = await api.post<{ purchasedItems: PurchasedOut[] }>(`/api/purchased/user/${taskId}/create`, { trackingId, productCount });
  if (res.body.code !== 'A00000') throw new Error(`record failed: ${JSON.stringify(res.body)}`);
  return res.body.data!.purchasedItems;
}

export const refused = (msg: string) => ({ status: 400, body: { code: 'A00001', msg } });
export const notFound = { status: 404, body: { code: 'A00004' } };
