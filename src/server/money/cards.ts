// Bank cards / payout accounts of /user/bank-card (SPEC §2, §3 "Bank card", §5 "Bank card";
// DECISIONS "Money", "Roles"). The rules of a card's fields (payment types, required and cleared
// fields, card types, texts; the decisions where SPEC §5 leaves room) are machines/bank-card.ts's,
// shared with the web form (CARD_RULES). Holder name, card / account number and routing number are
// stored encrypted (card-crypto.ts) and answered masked, but the owner sees the holder name (decision
// 052); bank name, card type and address are stored and answered as typed. Cards are never edited
// (bind a new one, unbind the old): a withdraw line's card is the card the member chose. Another
// member's card, or an unbound one, answers A00004 '银行卡不存在' as if it did not exist. At most
// MAX_CARDS live cards per member.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { CARD_RULES, cardMessages, checkCard, MAX_CARDS } from '../../../machines/bank-card.ts';
import { OPEN_WITHDRAW_STATUSES } from '../../../machines/withdraw.machine.ts';
import { writeAudit } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { bankCards, withdrawRequests } from '../db/schema/money.ts';
import { badRequest, notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { decryptField, masked, sealField } from './card-crypto.ts';

export type BankCardRow = typeof bankCards.$inferSelect;
type BankCardOut = components['schemas']['BankCard'];
type BindCardRequest = components['schemas']['BindCardRequest'];

// The card rules (types, required fields and their messages, card type choices, canonical form)
// are machines/bank-card.ts's, which the /user/bank-card dialog follows too: one place.
export { CARD_RULES, cardMessages, MAX_CARDS };
const M = cardMessages;

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

/**
 * The card as its owner sees it (listBankCards, bindBankCard): the holder name in full, so the member
 * can tell their cards apart; numbers stay masked. A name that does not decrypt (the key changed)
 * shows masked rather than failing the whole list.
 */
export function ownCardOut(r: BankCardRow, key: Buffer): BankCardOut {
  let accountName: string;
  try {
    accountName = decryptField(key, 'accountName', r.accountNameEncrypt);
  } catch {
    accountName = masked(r.accountNameLast4);
  }
  return { ...cardOut(r), accountName };
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
 *
 * Unbind and the calls that choose a card lock the card row (unbind FOR UPDATE, the others FOR
 * SHARE), so a card cannot be unbound while a request that pays to it is being made. Money lock
 * order (withdraw-service.ts, payment-transitions.ts): withdraw lines, then cards, then
 * tracking ids, tasks, applications.
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

/**
 * Sets deletedAt of an own card no open withdraw line pays to.
 *
 * Refused while a waited or requestedCancel withdraw line pays to the card (those may still be
 * paid); an unbound card no longer lists and cannot be chosen for a request or a change of card, and
 * paid or canceled lines keep showing it.
 */
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
    .where(and(eq(withdrawRequests.cardId, cardId), inArray(withdrawRequests.status, [...OPEN_WITHDRAW_STATUSES])))
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
