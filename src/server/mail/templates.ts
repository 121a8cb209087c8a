// The text of every mail the product sends, in one place.
import type { MailMessage } from './mailer.ts';

const sign = '\n\n—— 采购任务平台';

export function invitationMail(appUrl: string, to: string, token: string, inviter: string): MailMessage {
  const link = `${appUrl}/signup?mailAddr=${encodeURIComponent(to)}&token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: '采购任务平台注册邀请',
    text: `您好，\n\n${inviter} 邀请您加入采购任务平台。请在 7 天内打开以下链接完成注册（链接仅可使用一次）：\n\n${link}${sign}`,
  };
}

export function resetMail(appUrl: string, to: string, token: string): MailMessage {
  const link = `${appUrl}/reset?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: '采购任务平台重置密码',
    text: `您好，\n\n我们收到了重置您账户密码的请求。请在 1 小时内打开以下链接设置新密码（链接仅可使用一次）：\n\n${link}\n\n如果这不是您本人的操作，请忽略本邮件，您的密码不会改变。${sign}`,
  };
}

export function noticeMail(to: string, content: string): MailMessage {
  return { to, subject: '采购任务平台公告', text: `${content}${sign}` };
}

/** Board publishing (DECISIONS "Boards, claims and tasks"): one per targeted member, through the outbox. */
export function boardPublishedMail(appUrl: string, to: string, board: { boardName: string; uuid: string; remark: string; expireAt: Date }): MailMessage {
  const link = `${appUrl}/user/board/${encodeURIComponent(board.uuid)}`;
  const expire = board.expireAt.toISOString().slice(0, 16).replace('T', ' ');
  const remark = board.remark.trim() ? `\n\n${board.remark.trim()}` : '';
  return {
    to,
    subject: `新的采购任务：${board.boardName}`,
    text: `您好，\n\n看板「${board.boardName}」已发布，请打开以下链接查看并认领任务（截止时间 ${expire} UTC）：\n\n${link}${remark}${sign}`,
  };
}
