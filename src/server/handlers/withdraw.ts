// Bank cards and withdrawals (SPEC §7 "Withdraw (under /api/withdraw/user/ and /api/withdraw/admin/)";
// DECISIONS "Money", "Roles"). The rules live in src/server/money/cards.ts, withdraw-service.ts and
// payout-details.ts (the full details the admin pays with, audited); these handlers only turn their
// results into the wire's answers. Roles come from the contract's x-roles: the /api/withdraw/admin/*
// calls are admin only (a lowerAdmin gets A00003). A member reads and changes only their own cards
// and lines; another's id answers A00004 as if it did not exist.
import type { FastifyReply } from 'fastify';
import { cardKey } from '../money/card-crypto.ts';
import { bindCard, cardMessages, listCards, ownCardOut, unbindCard } from '../money/cards.ts';
import { countPaymentLines, paymentLines, paymentSelection, revealLineCard, selectionOf, selectionParams } from '../money/payout-details.ts';
import {
  agreeCancel,
  changeCard,
  inMoneyTransaction,
  listLines,
  markPaid,
  payBatch,
  rejectCancel,
  requestCancel,
  requestWithdraw,
  saveAdminNote,
  withdrawServiceMessages as M,
  type LineWithUser,
  type WithdrawFilters,
} from '../money/withdraw-service.ts';
import { formatTime } from '../dates.ts';
import { lineOut } from '../money/withdraw-shapes.ts';
import { issueDownloadToken, redeemDownloadToken, DOWNLOAD_MESSAGES } from '../files/download-tokens.ts';
import { confirmWithdrawUpload, withdrawConfirmMessages } from '../files/withdraw-confirm-upload.ts';
import { withdrawExportFilters, withdrawExportTimezone, withdrawLinesForExport, withdrawWorkbook } from '../files/withdraw-export.ts';
import { paymentWorkbook } from '../files/withdraw-payment-export.ts';
import { rolesOf } from '../contract.ts';
import { XLSX_TYPE } from '../files/xlsx-write.ts';
import { notFound } from '../errors.ts';
import { attachment, uploadedBytes } from './files.ts';
import { uploadRowMessages } from '../files/upload-rows.ts';
import { me, ok, type Handlers } from './types.ts';

const done = (msg: string) => ok({ status: 'succ' as const, msg }, msg);

const page = (r: { rows: LineWithUser[]; totalPages: number }, withUser: boolean) => ({
  content: r.rows.map((x) => lineOut(x.line, withUser ? x.nickName : undefined)),
  totalPages: r.totalPages,
});

type ListQuery = { page?: number; size?: number; isDesc?: boolean; orderId?: number; status?: WithdrawFilters['status']; cardId?: number; userId?: number };
const filtersOf = (q: ListQuery, userId?: number): WithdrawFilters => ({
  isDesc: q.isDesc ?? true,
  orderId: q.orderId,
  status: q.status,
  cardId: q.cardId,
  userId: userId ?? q.userId,
});

function sendXlsx(reply: FastifyReply, body: Buffer, disposition: string): FastifyReply {
  return reply.status(200).header('content-type', XLSX_TYPE).header('content-disposition', disposition).header('cache-control', 'no-store').send(body);
}

export const withdrawHandlers: Handlers = {
  // ---- cards (member)

  async listBankCards(req, ctx) {
    const key = cardKey(ctx.config);
    return ok({ userCardList: (await listCards(ctx.db, me(req).id)).map((c) => ownCardOut(c, key)) });
  },

  async bindBankCard(req, ctx) {
    const user = me(req);
    const key = cardKey(ctx.config);
    const row = await inMoneyTransaction(ctx.db, (tx) => bindCard(tx, key, user, req.body));
    return ok({ status: 'succ' as const, msg: cardMessages.bound, card: ownCardOut(row, key) }, cardMessages.bound);
  },

  async unbindBankCard(req, ctx) {
    const user = me(req);
    await inMoneyTransaction(ctx.db, (tx) => unbindCard(tx, user, req.body.cardId));
    return done(cardMessages.unbound);
  },

  // ---- withdrawals (member)

  async requestWithdraw(req, ctx) {
    const user = me(req);
    const orderId = await inMoneyTransaction(ctx.db, (tx) => requestWithdraw(tx, user, req.body));
    return ok({ status: 'succ' as const, msg: M.requested, orderId }, M.requested);
  },

  async cancelWithdrawOrder(req, ctx) {
    const user = me(req);
    await inMoneyTransaction(ctx.db, (tx) => requestCancel(tx, user, req.body.orderId));
    return done(M.canceledOk);
  },

  async markWithdrawPaid(req, ctx) {
    const user = me(req);
    await inMoneyTransaction(ctx.db, (tx) => markPaid(tx, user, req.body.id));
    return done(M.paidOk);
  },

  async changeWithdrawCard(req, ctx) {
    const user = me(req);
    await inMoneyTransaction(ctx.db, (tx) => changeCard(tx, user, req.body.requestId, req.body.cardId));
    return done(M.changedOk);
  },

  async listWithdrawRequests(req, ctx) {
    const q = req.query;
    const r = await listLines(ctx.db, filtersOf({ ...q, userId: undefined }, me(req).id), q);
    return ok({ requestPage: page(r, false) });
  },

  /** SPEC §2: the orders screen filters by orderId only (its status filter is not sent). */
  async listWithdrawOrders(req, ctx) {
    const q = req.query;
    const r = await listLines(ctx.db, { isDesc: q.isDesc ?? true, orderId: q.orderId, userId: me(req).id }, q, { byOrder: true });
    return ok({ requestOrders: page(r, false) });
  },

  // ---- admin

  async agreeWithdrawCancel(req, ctx) {
    const user = me(req);
    await inMoneyTransaction(ctx.db, (tx) => agreeCancel(tx, user, req.body.orderId));
    return done(M.agreedOk);
  },

  async rejectWithdrawCancel(req, ctx) {
    const user = me(req);
    await inMoneyTransaction(ctx.db, (tx) => rejectCancel(tx, user, req.body.orderId));
    return done(M.rejectedOk);
  },

  async payWithdrawRequest(req, ctx) {
    const user = me(req);
    await inMoneyTransaction(ctx.db, (tx) => markPaid(tx, user, req.body.id));
    return done(M.paidOk);
  },

  /** Several waited lines paid together, all or nothing: a refusal is an A00000 answer with status failed and its rows. */
  async payWithdrawRequests(req, ctx) {
    const user = me(req);
    const r = await inMoneyTransaction(ctx.db, (tx) => payBatch(tx, user, req.body.ids));
    const refused = r.rows.filter((row) => !row.ok).length;
    const msg = r.paid ? M.batchPaid(r.rows.length) : M.batchRefused(refused);
    return ok({ status: r.paid ? ('succ' as const) : ('failed' as const), msg, rows: r.rows }, msg);
  },

  /** The full details of one line's card, audited; never kept by a cache. */
  async revealWithdrawCard(req, ctx, reply) {
    const user = me(req);
    const key = cardKey(ctx.config);
    const details = await ctx.db.transaction((tx) => revealLineCard(tx, key, user, req.body.id));
    reply.header('cache-control', 'no-store');
    return ok(details);
  },

  /** A token for the payment file of the chosen (or filtered) waited lines; the selection is fixed in it. */
  async getWithdrawPaymentFileToken(req, ctx) {
    const user = me(req);
    const selection = paymentSelection(req.body);
    const count = await countPaymentLines(ctx.db, selection);
    const token = await issueDownloadToken(ctx.db, { actor: user, kind: 'excel.withdrawPayment', params: selectionParams(selection) });
    return ok({ ...token, count });
  },

  async saveWithdrawAdminNote(req, ctx) {
    const user = me(req);
    const b = req.body;
    const line = await inMoneyTransaction(ctx.db, (tx) => saveAdminNote(tx, user, b.requestId, { adminNote: b.adminNote, adminNote2: b.adminNote2 }));
    return ok(lineOut(line), M.savedOk);
  },

  async listAdminWithdrawRequests(req, ctx) {
    const q = req.query;
    const r = await listLines(ctx.db, filtersOf(q), q);
    return ok({ requestPage: page(r, true) });
  },

  async confirmWithdrawExcel(req, ctx) {
    const result = await confirmWithdrawUpload(ctx.db, me(req), uploadedBytes(req));
    return ok(result, result.error ? withdrawConfirmMessages.rejected(result.error) : uploadRowMessages.uploaded(result));
  },

  async exportWithdrawExcel(req, ctx, reply) {
    const { user, params } = await redeemDownloadToken(ctx.db, req.params.token, 'excel.withdraw');
    // x-kind-roles: a member (their own lines only, /user/withdraw-orders) or an admin; a lowerAdmin
    // (an admin demoted since the token) gets nothing.
    if (user.roleType === 'lowerAdmin') throw notFound(DOWNLOAD_MESSAGES.invalid);
    const timezone = withdrawExportTimezone(params);
    const filters = withdrawExportFilters(req.query);
    if (user.roleType === 'user') filters.userId = user.id;
    const rows = await withdrawLinesForExport(ctx.db, filters);
    const stamp = formatTime(Date.now(), timezone).replace(/[-: ]/g, '');
    return sendXlsx(reply, withdrawWorkbook(rows, timezone), attachment(`withdrawals-${stamp}.xlsx`, `提现记录-${stamp}.xlsx`));
  },

  /**
   * The payment file: the token's waited lines, re-read now, each exported line audited; the token
   * opens it once. Only who may still ask for such a token (its x-roles: admin) opens it.
   */
  async exportWithdrawPayments(req, ctx, reply) {
    const key = cardKey(ctx.config);
    // Single use (decision 067): the token is consumed in the transaction that reads the lines, so a
    // failure leaves it usable and of two racing requests one gets the file.
    const { rows, selection } = await ctx.db.transaction(async (tx) => {
      const { user, params } = await redeemDownloadToken(tx, req.params.token, 'excel.withdrawPayment', undefined, { consume: true });
      if (!rolesOf('getWithdrawPaymentFileToken').includes(user.roleType)) throw notFound(DOWNLOAD_MESSAGES.invalid);
      const selection = selectionOf(params);
      return { rows: await paymentLines(tx, key, user, selection), selection };
    });
    const stamp = formatTime(Date.now(), selection.timezone).replace(/[-: ]/g, '');
    return sendXlsx(reply, paymentWorkbook(rows), attachment(`withdraw-payments-${stamp}.xlsx`, `提现付款-${stamp}.xlsx`));
  },
};
