// The site notice (SPEC /me): everyone reads it; admins save it, optionally mass-mailing it to every
// other account through the outbox (never inside the request).
import { ne } from 'drizzle-orm';
import { notices, users } from '../db/schema/accounts.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { noticeMail } from '../mail/templates.ts';
import { me, ok, type Handlers } from './types.ts';

const NOTICE_ID = 1;

export const noticeHandlers: Handlers = {
  async getNotice(_req, ctx) {
    const [row] = await ctx.db.select({ content: notices.content }).from(notices).limit(1);
    return ok({ content: row?.content ?? '' });
  },

  async saveNotice(req, ctx) {
    const user = me(req);
    const content = req.body.content;
    const mailQueued = await ctx.db.transaction(async (tx) => {
      await tx
        .insert(notices)
        .values({ id: NOTICE_ID, content, updatedBy: user.id, updatedAt: new Date() })
        .onConflictDoUpdate({ target: notices.id, set: { content, updatedBy: user.id, updatedAt: new Date() } });
      if (!req.body.isMail) return 0;
      const to = await tx.select({ mailAddr: users.mailAddr }).from(users).where(ne(users.id, user.id));
      await enqueueMail(
        tx,
        'notice',
        to.map((u) => noticeMail(u.mailAddr, content)),
      );
      return to.length;
    });
    if (mailQueued) ctx.outbox.kick();
    return ok({ content, mailQueued }, '保存成功');
  },
};
