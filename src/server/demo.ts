// `npm run demo` (DEMO=1): fills an empty database with believable data so every sidebar and screen
// can be seen. Later issues extend it with boards, tasks, parcels and money. Demo accounts share the
// password DEMO_PASSWORD; it never runs on a database that has more than the bootstrap admin.
import { eq, sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { notices, users } from './db/schema/accounts.ts';
import { userGroupMembers, userGroups } from './db/schema/groups.ts';
import { items } from './db/schema/catalog.ts';
import { boardGroups, boards, boardTasks } from './db/schema/boards.ts';
import { tasks } from './db/schema/tasks.ts';
import { scanTrackings } from './db/schema/receiving.ts';
import type { Tx } from './db/client.ts';
import { hashPassword } from './auth/secrets.ts';
import { NEW_BOARD_STATUS, OPEN_BOARD_STATUS } from '../../machines/board.machine.ts';
import { NORMAL_BOARD_TASK_STATUS, type BoardTaskStatus } from '../../machines/claim.machine.ts';
import { CLAIM_PENDING_STATUS, OPEN_TASK_STATUS, type TaskStatus } from '../../machines/task.machine.ts';
import { UNMATCHED_SCAN_STATUS } from '../../machines/scan-record.machine.ts';
import { canonicalTrackingId } from '../../machines/tracking-id.ts';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_ACCOUNTS = [
  { mailAddr: 'lower@demo.local', nickName: '仓库主管小李', roleType: 'lowerAdmin' as const, phoneNo: '13800000001', qq: '10001' },
  { mailAddr: 'alice@demo.local', nickName: 'Alice', roleType: 'user' as const, phoneNo: '13800000002', qq: '10002' },
  { mailAddr: 'bob@demo.local', nickName: 'Bob', roleType: 'user' as const, phoneNo: '13800000003', qq: '10003' },
];

export async function seedDemo(db: Db): Promise<boolean> {
  const hash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
    if ((row?.n ?? 0) > 1) return false;
    const created = await tx
      .insert(users)
      .values(DEMO_ACCOUNTS.map((a) => ({ ...a, passwordHash: hash })))
      .returning({ id: users.id, roleType: users.roleType });
    const [group] = await tx.insert(userGroups).values({ groupName: '华东采购一组', remark: '演示数据：两位组员' }).returning({ id: userGroups.id });
    if (!group) throw new Error('demo group not created');
    await tx.insert(userGroupMembers).values(created.filter((u) => u.roleType === 'user').map((u) => ({ groupId: group.id, userId: u.id })));
    const [alice, bob] = created.filter((u) => u.roleType === 'user');
    await seedBoards(tx, group.id, alice!.id, bob!.id);
    await seedUnknownParcel(tx);
    await tx.insert(notices).values({ id: 1, content: '欢迎使用采购任务平台！\n本周重点：请在认领后 3 天内填写购买记录和快递单号。' }).onConflictDoNothing();
    return true;
  });
}

const DAY = 86_400_000;

const DEMO_ITEMS = [
  { itemName: 'Apple AirPods Pro (第2代)', upc: '194253397168', productId: 'MQD83AM/A', price: 24999, url: 'https://www.apple.com/airpods-pro/' },
  { itemName: 'Nintendo Switch OLED 白色', upc: '045496883386', productId: 'HEG-S-KAAAA', price: 34999, url: 'https://www.nintendo.com/switch/oled-model/' },
  { itemName: 'Dyson V8 无绳吸尘器', upc: '885609020358', productId: '400473-01', price: 36999, url: 'https://www.dyson.com/' },
  { itemName: 'Kindle Paperwhite 16GB', upc: '840268977839', productId: 'B0CFPJYX7P', price: 14999, url: 'https://www.amazon.com/' },
  { itemName: 'LEGO 星球大战 千年隼 75375', upc: '673419378409', productId: '75375', price: 8499, url: 'https://www.lego.com/' },
  { itemName: 'Yeti 保温杯 20oz', upc: '888830050118', productId: 'YRAM20', price: 3500, url: 'https://www.yeti.com/' },
];

/** Items, three boards (open, unpublished, expired) and a few claims, one of them pending. */
async function seedBoards(tx: Tx, groupId: number, aliceId: number, bobId: number) {
  const now = Date.now();
  const itemRows = await tx
    .insert(items)
    .values(DEMO_ITEMS.map((i) => ({ ...i, status: 'open' as const })))
    .returning();
  const item = (n: number) => itemRows[n]!;
  const [open, , expired] = await tx
    .insert(boards)
    .values([
      {
        boardName: '11月第4周 黑五采购',
        remark: '黑五折扣商品，请在周日前下单并填写快递单号',
        publishAt: new Date(now - 2 * DAY),
        expireAt: new Date(now + 7 * DAY),
        status: OPEN_BOARD_STATUS,
      },
      {
        boardName: '12月圣诞预售（草稿）',
        remark: '尚未发布，管理员整理中',
        publishAt: new Date(now + 5 * DAY),
        expireAt: new Date(now + 20 * DAY),
        status: NEW_BOARD_STATUS,
      },
      {
        boardName: '10月第2周 返校季',
        remark: '已过期：认领需管理员审核',
        publishAt: new Date(now - 40 * DAY),
        expireAt: new Date(now - 30 * DAY),
        status: OPEN_BOARD_STATUS,
      },
    ])
    .returning();
  await tx.insert(boardGroups).values([open!, expired!].map((b) => ({ boardId: b.id, groupId })));
  const bt = (boardId: number, n: number, buyIn: number, show: number, status: BoardTaskStatus = NORMAL_BOARD_TASK_STATUS, note = '') => ({
    boardId,
    itemId: item(n).id,
    itemName: item(n).itemName,
    url: item(n).url,
    price: item(n).price,
    buyIn,
    show,
    need: show,
    status,
    note,
  });
  const [airpods, sw, , yeti] = await tx
    .insert(boardTasks)
    .values([
      bt(open!.id, 0, 26000, 20, 'urgent', '限购每单2件'),
      bt(open!.id, 1, 36500, 10),
      bt(open!.id, 2, 38000, 6, 'closed', '已截止，认领需审核'),
      bt(expired!.id, 5, 3800, 30),
    ])
    .returning();
  const claim = async (userId: number, t: typeof airpods, count: number, status: TaskStatus) => {
    const res = (await tx.execute(sql`select nextval(pg_get_serial_sequence('tasks', 'id'))::int as id`)) as unknown as { rows: { id: number }[] };
    const id = res.rows[0]!.id;
    await tx.insert(tasks).values({
      id,
      mainId: id,
      subId: 0,
      boardId: t!.boardId,
      boardTaskId: t!.id,
      userId,
      itemId: t!.itemId,
      itemName: t!.itemName,
      url: t!.url,
      price: t!.price,
      buyIn: t!.buyIn,
      count,
      status,
      upc: itemRows.find((i) => i.id === t!.itemId)?.upc ?? null,
    });
  };
  await claim(aliceId, airpods, 8, OPEN_TASK_STATUS);
  await claim(bobId, airpods, 6, OPEN_TASK_STATUS);
  await claim(aliceId, sw, 2, OPEN_TASK_STATUS);
  await claim(bobId, yeti, 3, CLAIM_PENDING_STATUS);
}

/**
 * A parcel the warehouse received that nobody recorded (decision 169): an unknown parcel Alice can
 * claim on her AirPods task by its full id, 1Z999AA10123456784 (a UPS id).
 */
async function seedUnknownParcel(tx: Tx) {
  const [item] = await tx.select().from(items).where(eq(items.upc, DEMO_ITEMS[0]!.upc));
  await tx.insert(scanTrackings).values({
    trackingId: canonicalTrackingId('1Z999AA10123456784'),
    upc: DEMO_ITEMS[0]!.upc,
    count: 2,
    itemId: item!.id,
    itemName: item!.itemName,
    status: UNMATCHED_SCAN_STATUS,
  });
}
