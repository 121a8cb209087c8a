// Bank cards / payout accounts of /user/bank-card (SPEC §2, §3 "Bank card", §5 "Bank card";
// DECISIONS "Money", "Roles").
//
// Rules (the decisions where SPEC §5 leaves room):
// - Payment types Billpay, Check, Wire, ACH, Paypal, Zelle are recognised without regard to case
//   and stored in that spelling; any other non-empty text is a typed type (SPEC: "new values can be
//   typed"). The account holder name is always required. The fields each known type needs, and the
//   message for each, are CARD_RULES below; a known type's fields outside its list are cleared
//   (SPEC: "switching type clears the other fields"), so what is stored is exactly what the type
//   uses. A typed type requires the holder name only and keeps whatever else was filled in (the
//   server cannot know which fields it uses).
// - Billpay's card type is one of visa, master, amex, all others; Check's one of Personal Checking,
//   Personal Saving, Business Checking, Business Saving (SPEC "Personal/Business Checking/Saving").
// - Texts are trimmed and control characters become spaces (an address pasted with line breaks).
// - Holder name, card / account number and routing number are stored encrypted (card-crypto.ts)
//   and answered masked; bank name, card type and address are stored and answered as typed.
// - Cards are never edited (bind a new one, unbind the old): a withdraw line's card is the card the
//   member chose. Unbinding sets deletedAt and is refused while a waited or requestedCancel
//   withdraw line pays to the card (those may still be paid); an unbound card no longer lists and
//   cannot be chosen for a request or a change of card, and paid or canceled lines keep showing it.
// - Another member's card, or an unbound one, answers A00004 '银行卡不存在' as if it did not exist.
// - Unbind and the calls that choose a card lock the card row (unbind FOR UPDATE, the others FOR
//   SHARE), so a card cannot be unbound while a request that pays to it is being made. Money lock
//   order (withdraw-service.ts): withdraw lines, then cards, then tracking ids, tasks, applications.
// - At most MAX_CARDS live cards per member.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { withdrawMessages } from '../../../machines/withdraw.machine.ts';
import { writeAudit } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { bankCards, KNOWN_PAYMENT_TYPES, withdrawRequests } from '../db/schema/money.ts';
import { badRequest, notFound } from '../errors.ts';
import type { SessionUser } from '../handlers/types.ts';
import { CONTROL_CHARS } from '../receiving/scan-service.ts';
import { masked, sealField } from './card-crypto.ts';

export type BankCardRow = typeof bankCards.$inferSelect;
type BankCardOut = components['schemas']['BankCard'];
type BindCardRequest = components['schemas']['BindCardRequest'];
type KnownPaymentType = (typeof KNOWN_PAYMENT_TYPES)[number];

export const MAX_CARDS = 50;

/** The card type choices of the types that have one (the dialog's select offers the same). */
export const CARD_TYPE_OPTIONS = {
  Billpay: ['visa', 'master', 'amex', 'all others'],
  Check: ['Personal Checking', 'Personal Saving', 'Business Checking', 'Business Saving'],
} as const satisfies Partial<Record<KnownPaymentType, readonly string[]>>;

/** Every message of the card calls, in SPEC §5's words and style. */
export const cardMessages = {
  paymentTypeRequired: '请填写Payment Type',
  accountNameRequired: '请填写Account Holder Name',
  cardNoRequired: '请填写Card Number',
  accountNumberRequired: '请填写Account Number',
  accountInformationRequired: '请填写Account Information',
  bankNameRequired: '请填写Bank Name',
  cardTypeRequired: '请选择Card Type',
  cardTypeInvalid: (options: readonly string[]) => `Card Type只能是${options.join('、')}`,
  routingNumberRequired: '请填写Routing Number',
  bankAddressRequired: '请填写Bank Address',
  mailAddressRequired: '请填写Billing/Mail Address',
  billingAddressRequired: '请填写Billing Address',
  addressRequired: '请填写Address',
  tooMany: `最多绑定${MAX_CARDS}张银行卡`,
  bound: '保存成功',
  unbound: '删除成功',
  inUse: '该银行卡有未完成的提现，不能删除',
  notFound: withdrawMessages.cardNotFound,
} as const;
const M = cardMessages;

type CardTextField = 'cardNo' | 'routingNumber' | 'bankInfo' | 'cardType' | 'address';
const TEXT_FIELDS: CardTextField[] = ['cardNo', 'routingNumber', 'bankInfo', 'cardType', 'address'];

/** The fields each known payment type needs (beyond the holder name), in the dialog's order, with the message when one is empty. */
export const CARD_RULES: Record<KnownPaymentType, { field: CardTextField; message: string }[]> = {
  Billpay: [
    { field: 'cardNo', message: M.cardNoRequired },
    { field: 'bankInfo', message: M.bankNameRequired },
    { field: 'cardType', message: M.cardTypeRequired },
    { field: 'address', message: M.bankAddressRequired },
  ],
  Check: [
    { field: 'cardNo', message: M.accountNumberRequired },
    { field: 'bankInfo', message: M.bankNameRequired },
    { field: 'cardType', message: M.cardTypeRequired },
    { field: 'address', message: M.mailAddressRequired },
  ],
  Wire: [
    { field: 'cardNo', message: M.accountNumberRequired },
    { field: 'bankInfo', message: M.bankNameRequired },
    { field: 'routingNumber', message: M.routingNumberRequired },
    { field: 'address', message: M.billingAddressRequired },
  ],
  ACH: [
    { field: 'cardNo', message: M.accountNumberRequired },
    { field: 'bankInfo', message: M.bankNameRequired },
    { field: 'routingNumber', message: M.routingNumberRequired },
    { field: 'address', message: M.billingAddressRequired },
  ],
  Paypal: [
    { field: 'cardNo', message: M.accountInformationRequired },
    { field: 'address', message: M.addressRequired },
  ],
  Zelle: [
    { field: 'cardNo', message: M.accountInformationRequired },
    { field: 'address', message: M.addressRequired },
  ],
};

const clean = (v: string | undefined) => (v ?? '').replace(CONTROL_CHARS, ' ').trim();

export interface CheckedCard {
  paymentType: string;
  accountName: string;
  cardNo: string;
  routingNumber: string;
  bankInfo: string;
  cardType: string;
  address: string;
}

/** A bind request made canonical (see the header), or the message of its first problem. */
export function checkCard(body: BindCardRequest): { ok: true; card: CheckedCard } | { ok: false; msg: string } {
  const typed = clean(body.paymentType);
  if (!typed) return { ok: false, msg: M.paymentTypeRequired };
  const known = KNOWN_PAYMENT_TYPES.find((t) => t.toLowerCase() === typed.toLowerCase());
  const card: CheckedCard = {
    paymentType: known ?? typed,
    accountName: clean(body.accountName),
    cardNo: clean(body.cardNo),
    routingNumber: clean(body.routingNumber),
    bankInfo: clean(body.bankInfo),
    cardType: clean(body.cardType),
    address: clean(body.address),
  };
  if (!card.accountName) return { ok: false, msg: M.accountNameRequired };
  if (!known) return { ok: true, card };
  const rules = CARD_RULES[known];
  for (const f of TEXT_FIELDS) if (!rules.some((r) => r.field === f)) card[f] = '';
  for (const r of rules) if (!card[r.field]) return { ok: false, msg: r.message };
  const options: readonly string[] | undefined = CARD_TYPE_OPTIONS[known as keyof typeof CARD_TYPE_OPTIONS];
  if (options) {
    const option = options.find((o) => o.toLowerCase() === card.cardType.toLowerCase());
    if (!option) return { ok: false, msg: M.cardTypeInvalid(options) };
    card.cardType = option;
  }
  return { ok: true, card };
}

/** The card as every response shows it: sensitive fields masked. */
export function cardOut(r: BankCardRow): BankCardOut {
  return {
    id: r.id,
    paymentType: r.paymentType,
    accountName: masked(r.accountNameLast4),
    cardNo: r.cardNoEncrypt ? masked(r.cardNoLast4) : '',
    routingNumber: r.routingNumberEncrypt ? masked(r.routingNumberLast4) : '',
    bankInfo: r.bankInfo,
    cardType: r.cardType,
    address: r.address,
    createdAt: r.createdAt.getTime(),
  };
}

/** What an audit entry keeps of a card: nothing sensitive beyond the mask. */
const cardAudit = (r: BankCardRow) => ({ ...cardOut(r), deletedAt: r.deletedAt?.getTime() ?? null });

export async function listCards(tx: Tx, userId: number): Promise<BankCardRow[]> {
  return tx
    .select()
    .from(bankCards)
    .where(and(eq(bankCards.userId, userId), isNull(bankCards.deletedAt)))
    .orderBy(asc(bankCards.createdAt), asc(bankCards.id));
}

export async function bindCard(tx: Tx, key: Buffer, user: SessionUser, body: BindCardRequest): Promise<BankCardRow> {
  const checked = checkCard(body);
  if (!checked.ok) throw badRequest(checked.msg);
  const c = checked.card;
  // Serialises this member's binds, so the limit holds under concurrent binds.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`cards:${user.id}`}, 0))`);
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(bankCards)
    .where(and(eq(bankCards.userId, user.id), isNull(bankCards.deletedAt)));
  if (Number(count?.n ?? 0) >= MAX_CARDS) throw badRequest(M.tooMany);
  const name = sealField(key, 'accountName', c.accountName);
  const no = c.cardNo ? sealField(key, 'cardNo', c.cardNo) : null;
  const routing = c.routingNumber ? sealField(key, 'routingNumber', c.routingNumber) : null;
  const [row] = await tx
    .insert(bankCards)
    .values({
      userId: user.id,
      paymentType: c.paymentType,
      accountNameEncrypt: name.encrypt,
      accountNameLast4: name.last4,
      cardNoEncrypt: no?.encrypt ?? null,
      cardNoLast4: no?.last4 ?? null,
      routingNumberEncrypt: routing?.encrypt ?? null,
      routingNumberLast4: routing?.last4 ?? null,
      bankInfo: c.bankInfo,
      cardType: c.cardType,
      address: c.address,
    })
    .returning();
  if (!row) throw new Error('card not stored');
  await writeAudit(tx, { entity: 'card', entityId: row.id, action: 'bind', opUid: user.id, userId: user.id, before: null, after: cardAudit(row) });
  return row;
}

/**
 * Locks the member's live cards of these ids (FOR SHARE, in id order) and returns them by id;
 * A00004 when one is not theirs, does not exist or is unbound.
 */
export async function lockOwnCards(tx: Tx, userId: number, cardIds: number[]): Promise<Map<number, BankCardRow>> {
  const ids = [...new Set(cardIds)].sort((a, b) => a - b);
  if (!ids.length) return new Map();
  const rows = await tx
    .select()
    .from(bankCards)
    .where(and(inArray(bankCards.id, ids), eq(bankCards.userId, userId), isNull(bankCards.deletedAt)))
    .orderBy(asc(bankCards.id))
    .for('share');
  if (rows.length !== ids.length) throw notFound(M.notFound);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Sets deletedAt of an own card no open withdraw line pays to. */
export async function unbindCard(tx: Tx, user: SessionUser, cardId: number): Promise<void> {
  const [card] = await tx
    .select()
    .from(bankCards)
    .where(and(eq(bankCards.id, cardId), eq(bankCards.userId, user.id), isNull(bankCards.deletedAt)))
    .for('update');
  if (!card) throw notFound(M.notFound);
  const [open] = await tx
    .select({ id: withdrawRequests.id })
    .from(withdrawRequests)
    .where(and(eq(withdrawRequests.cardId, cardId), inArray(withdrawRequests.status, ['waited', 'requestedCancel'])))
    .limit(1);
  if (open) throw badRequest(M.inUse);
  const [after] = await tx.update(bankCards).set({ deletedAt: new Date() }).where(eq(bankCards.id, cardId)).returning();
  await writeAudit(tx, {
    entity: 'card',
    entityId: cardId,
    action: 'unbind',
    opUid: user.id,
    userId: user.id,
    before: cardAudit(card),
    after: after ? cardAudit(after) : null,
  });
}
