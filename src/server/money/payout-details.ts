// The full payout details of withdraw lines, for the admin who pays them (DECISIONS "Money";
// decision 052): a payment cannot be made with '****1111'. Stored encrypted, masked everywhere
// else; here decrypted only for one line's reveal or the lines of one payment file, and every such
// read writes an audit entry per line (entity 'withdraw', who, which line, action 'reveal' or
// 'paymentExport'; the entry keeps the masked line only) in the same transaction, so no detail
// leaves without its entry. The payment file holds waited lines only, re-read when it is made.
// The line snapshots type, holder name, number and address; routing number, bank and card type
// are its card's (cards are never edited, a change of card replaces the snapshot).
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { AWAITING_PAY_WITHDRAW_STATUS, withdrawMessages } from '../../../machines/withdraw.machine.ts';
import { writeAudit } from '../audit.ts';
import { rowsOf, type Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { bankCards, withdrawRequests } from '../db/schema/money.ts';
import { AppError, badRequest, Code, notFound } from '../errors.ts';
import { isDbId, parseIdList } from '../ids.ts';
import { decryptField, type CardField } from './card-crypto.ts';
import { anyInt } from './payment-transitions.ts';
import { lineAudit, withdrawWhere } from './withdraw-service.ts';
import type { LineRow } from './withdraw-shapes.ts';

type WithdrawCardDetails = components['schemas']['WithdrawCardDetails'];
type PaymentFileRequest = components['schemas']['PaymentFileRequest'];

/** The lines of one payment file at most: one page of the withdraw list at its largest (SPEC §9). */
export const MAX_PAYMENT_FILE_LINES = 1000;

export const payoutMessages = {
  nothingToPay: '所选记录中没有待付款的提现',
  tooMany: `待付款的提现超过${MAX_PAYMENT_FILE_LINES}条，请缩小筛选范围或选择记录后再导出`,
  undecryptable: '银行卡信息无法解密，请检查服务器密钥（APP_SECRET）',
} as const;

/** The card columns a line's details need beside its own snapshot. */
const cardColumns = { routingNumberEncrypt: bankCards.routingNumberEncrypt, bankInfo: bankCards.bankInfo, cardType: bankCards.cardType };
type CardPart = { routingNumberEncrypt: string | null; bankInfo: string; cardType: string };

/** A stored field in clear; a value that does not decrypt (another key) is a system error, never a guess. */
function clear(key: Buffer, field: CardField, stored: string | null): string {
  if (stored === null) return '';
  try {
    return decryptField(key, field, stored);
  } catch {
    throw new AppError(Code.system, 500, payoutMessages.undecryptable);
  }
}

function detailsOf(key: Buffer, line: LineRow, card: CardPart): WithdrawCardDetails {
  return {
    requestId: line.id,
    cardId: line.cardId,
    paymentType: line.paymentType,
    accountName: clear(key, 'accountName', line.accountNameEncrypt),
    cardNo: clear(key, 'cardNo', line.cardNoEncrypt),
    routingNumber: clear(key, 'routingNumber', card.routingNumberEncrypt),
    bankInfo: card.bankInfo,
    cardType: card.cardType,
    address: line.address,
  };
}

/** One line's card in full (revealWithdrawCard), audited 'reveal'; A00004 for a line that does not exist. */
export async function revealLineCard(tx: Tx, key: Buffer, actor: { id: number }, lineId: number): Promise<WithdrawCardDetails> {
  const [row] = await tx
    .select({ line: withdrawRequests, card: cardColumns })
    .from(withdrawRequests)
    .innerJoin(bankCards, eq(bankCards.id, withdrawRequests.cardId))
    .where(eq(withdrawRequests.id, lineId));
  if (!row) throw notFound(withdrawMessages.notFound);
  const details = detailsOf(key, row.line, row.card);
  await writeAudit(tx, lineAudit(actor, 'reveal', null, row.line));
  return details;
}

// ---------------------------------------------------------------------------------------------
// The payment file's selection: the chosen ids, or the admin list's filters (status is always waited).

export type PaymentSelection = { ids: number[]; timezone: number } | { orderId?: number; userId?: number; cardId?: number; isDesc: boolean; timezone: number };
type TokenParams = Record<string, string | number | boolean>;

export function paymentSelection(body: PaymentFileRequest): PaymentSelection {
  const timezone = body.timezone ?? 0;
  if (body.ids?.length) return { ids: [...new Set(body.ids)], timezone };
  return { orderId: body.orderId, userId: body.userId, cardId: body.cardId, isDesc: body.isDesc ?? true, timezone };
}

/** The selection as the download token keeps it: ids comma-joined, or the filters given. */
export function selectionParams(s: PaymentSelection): TokenParams {
  if ('ids' in s) return { ids: s.ids.join(','), timezone: s.timezone };
  const params: TokenParams = { isDesc: s.isDesc, timezone: s.timezone };
  for (const k of ['orderId', 'userId', 'cardId'] as const) if (s[k] !== undefined) params[k] = s[k];
  return params;
}

/** The selection a token keeps (written by selectionParams; anything else reads as no filter). */
export function selectionOf(params: TokenParams): PaymentSelection {
  const tz = Number(params.timezone);
  const timezone = tz >= -12 && tz <= 14 ? tz : 0;
  if (typeof params.ids === 'string') return { ids: parseIdList(params.ids, 'ids'), timezone };
  const id = (v: unknown) => (typeof v === 'number' && isDbId(v) ? v : undefined);
  return { orderId: id(params.orderId), userId: id(params.userId), cardId: id(params.cardId), isDesc: params.isDesc !== false, timezone };
}

function selectionWhere(s: PaymentSelection): SQL {
  const waited = eq(withdrawRequests.status, AWAITING_PAY_WITHDRAW_STATUS);
  if ('ids' in s) return and(waited, anyInt(withdrawRequests.id, s.ids))!;
  return and(waited, withdrawWhere({ orderId: s.orderId, userId: s.userId, cardId: s.cardId, isDesc: s.isDesc }))!;
}

/** How many waited lines the selection holds now; A00001 when none or more than one file takes. */
export async function countPaymentLines(tx: Tx, s: PaymentSelection): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    tx.execute(sql`select count(*)::int as n from (select 1 from ${withdrawRequests} where ${selectionWhere(s)} limit ${MAX_PAYMENT_FILE_LINES + 1}) chosen`),
  );
  const n = Number(row?.n ?? 0);
  if (n === 0) throw badRequest(payoutMessages.nothingToPay);
  if (n > MAX_PAYMENT_FILE_LINES) throw badRequest(payoutMessages.tooMany);
  return n;
}

export interface PaymentLine {
  line: LineRow;
  nickName: string;
  mailAddr: string;
  details: WithdrawCardDetails;
}

/**
 * The waited lines of the selection with their full details, audited 'paymentExport' one entry
 * per line; the chosen ids in id order, the filters in the admin list's order (creation time).
 */
export async function paymentLines(tx: Tx, key: Buffer, actor: { id: number }, s: PaymentSelection): Promise<PaymentLine[]> {
  const dir = 'ids' in s || !s.isDesc ? asc : desc;
  const rows = await tx
    .select({ line: withdrawRequests, nickName: users.nickName, mailAddr: users.mailAddr, card: cardColumns })
    .from(withdrawRequests)
    .innerJoin(users, eq(users.id, withdrawRequests.userId))
    .innerJoin(bankCards, eq(bankCards.id, withdrawRequests.cardId))
    .where(selectionWhere(s))
    .orderBy(...('ids' in s ? [asc(withdrawRequests.id)] : [dir(withdrawRequests.createdAt), dir(withdrawRequests.id)]))
    .limit(MAX_PAYMENT_FILE_LINES + 1);
  if (rows.length > MAX_PAYMENT_FILE_LINES) throw badRequest(payoutMessages.tooMany);
  const out = rows.map((r) => ({ line: r.line, nickName: r.nickName, mailAddr: r.mailAddr, details: detailsOf(key, r.line, r.card) }));
  await writeAudit(
    tx,
    out.map((r) => lineAudit(actor, 'paymentExport', null, r.line)),
  );
  return out;
}
