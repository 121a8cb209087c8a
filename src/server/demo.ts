// `npm run demo` (DEMO=1): fills an empty database with believable data so every sidebar and screen
// can be seen. Later issues extend it with boards, tasks, parcels and money. Demo accounts share the
// password DEMO_PASSWORD; it never runs on a database that has more than the bootstrap admin.
import { sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { notices, users } from './db/schema/accounts.ts';
import { userGroupMembers, userGroups } from './db/schema/groups.ts';
import { hashPassword } from './auth/secrets.ts';

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
    await tx
      .insert(notices)
      .values({ id: 1, content: '欢迎使用采购任务平台！\n本周重点：请在认领后 3 天内填写购买记录和快递单号。' })
      .onConflictDoNothing();
    return true;
  });
}
