// Boards' queries and writes (SPEC §4 board status and publication, §9 the board lists; DECISIONS
// "Boards, claims and tasks", "Mail"): the lists of boards a user may see, and the one place a
// board is created, edited, published, closed, reopened or bound to groups. Every status change
// goes through the lifecycle store (entities/store.ts, the board declared in entities/board.ts):
// the board's machine decides, the server refuses exactly what it refuses, with its message (A00001). handlers/boards.ts validates the request and answers (decision 164); this
// module reads, locks, decides and writes, in the caller's transaction.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { DELETED_BOARD_TASK_STATUS } from '../../../machines/claim.machine.ts';
import { CLOSED_BOARD_STATUS, NEW_BOARD_STATUS, type BoardEvent, type BoardStatus, type PublishMode } from '../../../machines/board.machine.ts';
import { writeAudit } from '../audit.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { boardGroups, boards, boardTasks, boardUsers } from '../db/schema/boards.ts';
import { userGroupMembers, userGroups } from '../db/schema/groups.ts';
import { boardEntity, decideBoard, EMPTY_BOARD_CONTEXT } from '../entities/board.ts';
import { applyToLocked, auditOf, planEvent } from '../entities/store.ts';
import { badRequest, notFound } from '../errors.ts';
import { parseIdList } from '../ids.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { boardPublishedMail } from '../mail/templates.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { BOARD_NOT_FOUND, boardScope, isAdminSide, type BoardRow } from './visibility.ts';

export const boardSaveMessages = {
  expireBeforePublish: '截止时间必须晚于发布时间',
  created: '创建成功',
  saved: '保存成功',
  published: '操作成功',
  notUnpublish: '已发布的看板不能改回未发布',
} as const;

/** A board's fields as the form sends them (validated by the handler). */
export interface BoardFields {
  boardName: string;
  remark: string;
  publishAt: Date;
  expireAt: Date;
}

/** Board list filters: boardId, boardTaskId (its board), itemId (boards with a task of that item). */
function boardFilters(q: { boardId?: number; boardTaskId?: number; itemId?: number }, memberView: boolean): SQL[] {
  // A member does not see deleted board tasks (board-tasks.ts), so they do not find boards either.
  const live = memberView ? sql` and bt.status <> ${DELETED_BOARD_TASK_STATUS}` : sql``;
  const out: SQL[] = [];
  if (q.boardId !== undefined) out.push(eq(boards.id, q.boardId));
  if (q.boardTaskId !== undefined) out.push(sql`exists (select 1 from ${boardTasks} bt where bt.board_id = ${boards.id} and bt.id = ${q.boardTaskId}${live})`);
  if (q.itemId !== undefined) out.push(sql`exists (select 1 from ${boardTasks} bt where bt.board_id = ${boards.id} and bt.item_id = ${q.itemId}${live})`);
  return out;
}

export interface BoardListQuery {
  page?: number;
  size?: number;
  isDesc?: boolean;
  boardId?: number;
  boardTaskId?: number;
  itemId?: number;
}

/** A page of the boards `user` may see (boardScope), by creation (SPEC §9: 10 a page), and the number of pages. */
export async function boardPage(db: Tx, user: SessionUser, q: BoardListQuery): Promise<{ rows: BoardRow[]; pageNumber: number }> {
  const p = pageOf(q, 10);
  const scope = boardScope(user);
  const where = and(...boardFilters(q, !isAdminSide(user)), ...(scope ? [scope] : []));
  const order = p.isDesc ? [desc(boards.createdAt), desc(boards.id)] : [asc(boards.createdAt), asc(boards.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(boards)
      .where(where)
      .orderBy(...order)
      .limit(p.size)
      .offset(p.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(boards)
      .where(where),
  ]);
  return { rows, pageNumber: totalPagesOf(Number(total?.n ?? 0), p.size) };
}

/** The groups bound to board `boardId`, by id. */
export function boardGroupsOf(db: Tx, boardId: number) {
  return db
    .select({ id: userGroups.id, groupName: userGroups.groupName, remark: userGroups.remark })
    .from(boardGroups)
    .innerJoin(userGroups, eq(userGroups.id, boardGroups.groupId))
    .where(eq(boardGroups.boardId, boardId))
    .orderBy(userGroups.id);
}

/**
 * The board row locked for the rest of the transaction, or A00004: publishes and edits of one board
 * run one after another. FOR NO KEY UPDATE, not the store's FOR UPDATE, so claims inserting tasks
 * that point at the board (their foreign-key check takes KEY SHARE) are not held up by it.
 */
export async function lockBoard(tx: Tx, id: number): Promise<BoardRow> {
  const [row] = await tx.select().from(boards).where(eq(boards.id, id)).for('no key update');
  if (!row) throw notFound(BOARD_NOT_FOUND);
  return row;
}

const statusEvent = (status: BoardStatus): BoardEvent => (status === CLOSED_BOARD_STATUS ? { type: 'board.close' } : { type: 'board.reopen' });

/** Creates a board, unpublish; asking for open/close at creation is the machine's refusal (open happens by publishing). */
export async function createBoard(tx: Tx, actor: SessionUser, fields: BoardFields, status?: BoardStatus): Promise<BoardRow> {
  if (status && status !== NEW_BOARD_STATUS) {
    const d = decideBoard(NEW_BOARD_STATUS, EMPTY_BOARD_CONTEXT, statusEvent(status));
    if (!d.ok) throw badRequest(d.msg);
  }
  const [row] = await tx
    .insert(boards)
    .values({ ...fields, status: NEW_BOARD_STATUS, createdBy: actor.id })
    .returning();
  await writeAudit(tx, auditOf(boardEntity, actor, 'create', null, row!));
  return row!;
}

/**
 * Saves the fields of board `id`, and closes or reopens it when `status` says so (board.close /
 * board.reopen, audited as close / reopen); a status equal to the current one (a board posted back
 * as read) is no event, only an edit. A board is never put back to unpublish.
 */
export async function saveBoard(tx: Tx, actor: SessionUser, id: number, fields: BoardFields, status?: BoardStatus): Promise<BoardRow> {
  const before = await lockBoard(tx, id);
  if (status && status !== before.status) {
    if (status === NEW_BOARD_STATUS) throw badRequest(boardSaveMessages.notUnpublish);
    const [after] = await applyToLocked(tx, boardEntity, actor, [before], statusEvent(status), { set: fields });
    return after!;
  }
  const [after] = await tx
    .update(boards)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(boards.id, before.id))
    .returning();
  await writeAudit(tx, auditOf(boardEntity, actor, 'edit', before, after!));
  return after!;
}

/** The members a publication mails: the given users (recorded in board_users, which makes the board visible to them), or the bound groups' members. */
async function audienceOf(tx: Tx, boardId: number, mode: PublishMode, userIds: number[]) {
  if (mode !== 'users') {
    return tx
      .selectDistinct({ id: users.id, mailAddr: users.mailAddr })
      .from(boardGroups)
      .innerJoin(userGroupMembers, eq(userGroupMembers.groupId, boardGroups.groupId))
      .innerJoin(users, eq(users.id, userGroupMembers.userId))
      .where(eq(boardGroups.boardId, boardId))
      .orderBy(users.id);
  }
  const audience = await tx.select({ id: users.id, mailAddr: users.mailAddr }).from(users).where(inArray(users.id, userIds));
  const missing = userIds.filter((id) => !audience.some((u) => u.id === id));
  if (missing.length) throw notFound(`用户不存在：${missing.join(',')}`);
  await tx
    .insert(boardUsers)
    .values(userIds.map((userId) => ({ boardId, userId })))
    .onConflictDoNothing();
  return audience;
}

/**
 * Publishing (DECISIONS "Boards, claims and tasks"): the machine decides; the board opens; one
 * notification mail per targeted member is queued in the outbox in the same transaction (so a mail
 * exists exactly when the publication does), through the backup transport for backup publish.
 * mode all/backup targets the members of the bound groups; mode users targets the given users.
 * The audit entry (publish.all / publish.users / publish.backup) counts the members mailed and
 * lists them in its after (`audience`). Answers how many mails were queued.
 */
export async function publishBoard(tx: Tx, actor: SessionUser, appUrl: string, boardId: number, mode: PublishMode, userIds: number[] = []): Promise<number> {
  const board = await lockBoard(tx, boardId);
  const event: BoardEvent = { type: 'board.publish', mode, userIds };
  // The machine's refusal comes before a missing user: asked first, before the audience is read.
  planEvent(boardEntity, [board], event, await boardEntity.contextOf!(tx, [board]));
  const audience = await audienceOf(tx, board.id, mode, userIds);
  const ids = audience.map((u) => u.id);
  const [updated] = await applyToLocked(tx, boardEntity, actor, [board], event, {
    audit: (m) => ({ count: ids.length, after: { ...m.after, audience: ids } }),
  });
  await enqueueMail(
    tx,
    'board.publish',
    audience.map((u) => boardPublishedMail(appUrl, u.mailAddr, updated!)),
    mode === 'backup' ? 'backup' : 'primary',
  );
  return audience.length;
}

/** Group ids of the query that exist; an unknown one is A00004. */
async function existingGroups(tx: Tx, csv: string) {
  const ids = parseIdList(csv, 'groupIds');
  const found = await tx.select({ id: userGroups.id }).from(userGroups).where(inArray(userGroups.id, ids));
  const missing = ids.filter((id) => !found.some((g) => g.id === id));
  if (missing.length) throw notFound(`用户组不存在：${missing.join(',')}`);
  return ids;
}

/** Binds the groups of `groupIdsCsv` to board `boardId` (idempotent: a bound group stays bound); an unknown board or group is A00004. */
export async function addBoardGroups(tx: Tx, actor: SessionUser, boardId: number, groupIdsCsv: string): Promise<void> {
  const board = await lockBoard(tx, boardId);
  const ids = await existingGroups(tx, groupIdsCsv);
  const added = await tx
    .insert(boardGroups)
    .values(ids.map((groupId) => ({ boardId: board.id, groupId })))
    .onConflictDoNothing()
    .returning({ groupId: boardGroups.groupId });
  await writeAudit(tx, {
    entity: 'board',
    entityId: board.id,
    action: 'groups.add',
    opUid: actor.id,
    before: null,
    after: { groupIds: added.map((g) => g.groupId) },
  });
}

/** Unbinds the groups of `groupIdsCsv` from board `boardId` (idempotent); an unknown board is A00004. */
export async function removeBoardGroups(tx: Tx, actor: SessionUser, boardId: number, groupIdsCsv: string): Promise<void> {
  const board = await lockBoard(tx, boardId);
  const ids = parseIdList(groupIdsCsv, 'groupIds');
  const removed = await tx
    .delete(boardGroups)
    .where(and(eq(boardGroups.boardId, board.id), inArray(boardGroups.groupId, ids)))
    .returning({ groupId: boardGroups.groupId });
  await writeAudit(tx, {
    entity: 'board',
    entityId: board.id,
    action: 'groups.remove',
    opUid: actor.id,
    before: { groupIds: removed.map((g) => g.groupId) },
    after: null,
  });
}
