// Fixtures of the board, board-task and claim tests: items and groups written straight into the
// database (their own screens are tested elsewhere), boards and board tasks made through the API.
import type { FastifyInstance } from 'fastify';
import { items } from '../../../src/server/db/schema/catalog.ts';
import { userGroupMembers, userGroups } from '../../../src/server/db/schema/groups.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { call, createUser } from './harness.ts';

export const DAY = 86_400_000;

export async function seedItem(
  database: Database,
  v: { itemName?: string; upc?: string | null; url?: string; price?: number | null; status?: 'open' | 'close' } = {},
) {
  const [row] = await database.db
    .insert(items)
    .values({
      itemName: v.itemName ?? 'AirPods Pro',
      upc: v.upc === undefined ? '194253397168' : v.upc,
      url: v.url ?? 'www.apple.com/airpods',
      productId: 'P-1',
      price: v.price === undefined ? 24999 : v.price,
      status: v.status ?? 'open',
    })
    .returning();
  return row!;
}

export async function seedGroup(database: Database, groupName: string, userIds: number[] = []) {
  const [g] = await database.db.insert(userGroups).values({ groupName, remark: '' }).returning();
  if (userIds.length) await database.db.insert(userGroupMembers).values(userIds.map((userId) => ({ groupId: g!.id, userId })));
  return g!;
}

/**
 * A signed-in account; members are put into `groupId` (or a group of their own). The session is
 * created the way login creates it (createSession) without the password check, which costs a
 * scrypt hash per account; logging in itself is tested through the API in auth.test.ts.
 */
export async function signIn(
  app: FastifyInstance,
  database: Database,
  mailAddr: string,
  v: { roleType?: 'admin' | 'lowerAdmin' | 'user'; groupId?: number; nickName?: string } = {},
) {
  const role = v.roleType ?? 'user';
  const user = await createUser(database, { mailAddr, roleType: role, nickName: v.nickName, inGroup: role === 'user' && v.groupId === undefined });
  if (v.groupId !== undefined) await database.db.insert(userGroupMembers).values({ groupId: v.groupId, userId: user.id });
  return { user, token: await createSession(database.db, user.id, false) };
}

/** Calls as one signed-in account. */
export function as(app: FastifyInstance, token: string) {
  const headers = { 'x-token': token };
  return {
    get: <T = Record<string, unknown>>(url: string) => call<T>(app, { method: 'GET', url, headers }),
    post: <T = Record<string, unknown>>(url: string, payload?: unknown) =>
      call<T>(app, { method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) }),
  };
}

export type Api = ReturnType<typeof as>;

export interface BoardOut {
  id: number;
  uuid: string;
  boardName: string;
  remark: string;
  publishAt: number;
  expireAt: number;
  status: string;
  expire: boolean;
  createdAt: number;
}

export const boardForm = (over: Record<string, unknown> = {}) => ({
  boardName: '四月采购',
  remark: '本周截止',
  publishAt: Date.now() - DAY,
  expireAt: Date.now() + 7 * DAY,
  ...over,
});

export async function createBoard(admin: Api, over: Record<string, unknown> = {}) {
  const res = await admin.post<BoardOut>('/api/board/info', boardForm(over));
  if (res.body.code !== 'A00000') throw new Error(`board not created: ${JSON.stringify(res.body)}`);
  return res.body.data!;
}

export async function createBoardTask(admin: Api, boardId: number, body: Record<string, unknown>) {
  const res = await admin.post<{ status: string; boardTask: { id: number } & Record<string, unknown> }>(`/api/boardtask/${boardId}/info`, body);
  if (res.body.code !== 'A00000') throw new Error(`board task not created: ${JSON.stringify(res.body)}`);
  return res.body.data!.boardTask;
}

/**
 * An open board with one board task (showing `show`) of a new item, bound to a group holding the
 * given members, published to all.
 */
export async function openBoard(
  admin: Api,
  database: Database,
  groupId: number,
  v: { show?: number; boardOver?: Record<string, unknown>; taskOver?: Record<string, unknown> } = {},
) {
  const item = await seedItem(database);
  const board = await createBoard(admin, v.boardOver);
  const bt = await createBoardTask(admin, board.id, { itemId: item.id, buyIn: 12.5, show: v.show ?? 10, ...v.taskOver });
  const bind = await admin.post<boolean>(`/api/board/${board.id}/add?groupIds=${groupId}`);
  if (bind.body.data !== true) throw new Error(`bind failed: ${JSON.stringify(bind.body)}`);
  const pub = await admin.post(`/api/boardtask/publish/${board.id}`);
  if (pub.body.code !== 'A00000') throw new Error(`publish failed: ${JSON.stringify(pub.body)}`);
  return { item, board, boardTask: bt };
}
