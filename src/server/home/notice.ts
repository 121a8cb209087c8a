// The site notice (SPEC /me): one row that everyone reads and admins save. Saving may also queue
// the notice as a mail to every other account, through the outbox in the same transaction (never
// sent inside the request).
import { ne } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { notices, users } from '../db/schema/accounts.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { noticeMail } from '../mail/templates.ts';

const NOTICE_ID = 1;

/** The notice's text ('' before any was saved). */
export async function readNotice(tx: Tx): Promise<string> {
  const [row] = await tx.select({ content: notices.content }).from(notices).limit(1);
  return row?.content ?? '';
}

/** Saves the notice; with `mail`, queues it to every account but the author's. How many mails were queued. */
export async function saveNotice(db: Db, authorId: number, content: string, mail: boolean): Promise<number> {
  return db.transaction(async (tx) => {
    await tx
      .insert(notices)
      .values({ id: NOTICE_ID, content, updatedBy: authorId, updatedAt: new Date() })
      .onConflictDoUpdate({ target: notices.id, set: { content, updatedBy: authorId, updatedAt: new Date() } });
    if (!mail) return 0;
    const to = await tx.select({ mailAddr: users.mailAddr }).from(users).where(ne(users.id, authorId));
    await enqueueMail(
      tx,
      'notice',
      to.map((u) => noticeMail(u.mailAddr, content)),
    );
    return to.length;
  });
}
