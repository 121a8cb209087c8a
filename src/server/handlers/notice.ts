// The site notice (SPEC /me): everyone reads it; admins save it, optionally mass-mailing it to every
// other account through the outbox (never inside the request). The row and the mails: home/notice.ts.
import { readNotice, saveNotice } from '../home/notice.ts';
import { me, ok, type Handlers } from './types.ts';

export const noticeHandlers: Handlers = {
  async getNotice(_req, ctx) {
    return ok({ content: await readNotice(ctx.db) });
  },

  async saveNotice(req, ctx) {
    const content = req.body.content;
    const mailQueued = await saveNotice(ctx.db, me(req).id, content, Boolean(req.body.isMail));
    if (mailQueued) ctx.outbox.kick();
    return ok({ content, mailQueued }, '保存成功');
  },
};
