// Bank cards of /user/bank-card through the real API on a real database (SPEC §2 /user/bank-card, §3
// "Bank card", §5 "Bank card"; §7 show/cards, bind/card, unbind/card; DECISIONS "Money": encrypted
// at rest, numbers masked in every response while the owner sees the holder name and bank in full
// (decision 052), a card used by an open withdraw line cannot be unbound; "Roles": a member's own
// cards only). The rules are in src/server/money/cards.ts.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { bankCards, withdrawOrders, withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { cardKey, decryptField, encryptField, lastChars, masked } from '../../../src/server/money/card-crypto.ts';
import { CARD_RULES, cardMessages as M, MAX_CARDS } from '../../../src/server/money/cards.ts';
import { KNOWN_PAYMENT_TYPES } from '../../../src/server/db/schema/money.ts';
import { useTestApp } from '../support/harness.ts';
import { signIn } from '../support/board-fixtures.ts';
import { client, notFound, refused } from '../support/task-fixtures.ts';

const t = useTestApp();
const db = () => t().database.db;

interface CardOut {
  id: number;
  paymentType: string;
  accountName: string;
  cardNo: string;
  routingNumber: string;
  bankInfo: string;
  cardType: string;
  address: string;
  createdAt: number;
}

async function world() {
  const { app, database } = t();
  const a = await signIn(app, database, 'a@x.test', { nickName: '小A' });
  const b = await signIn(app, database, 'b@x.test', { nickName: '小B' });
  const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
  return {
    a: { user: a.user, api: client(app, a.token) },
    b: { user: b.user, api: client(app, b.token) },
    admin: client(app, admin.token),
    lower: client(app, lower.token),
  };
}
type Api = ReturnType<typeof client>;

const FULL = {
  accountName: 'John Q Public',
  cardNo: '4111111111111111',
  routingNumber: '021000021',
  bankInfo: 'Chase',
  cardType: 'visa',
  address: '1 Main St, Springfield',
};

const bind = (api: Api, body: Record<string, unknown>) => api.post<{ status: string; msg: string; card: CardOut }>('/api/withdraw/user/bind/card', body);
const cards = async (api: Api) => (await api.get<{ userCardList: CardOut[] }>('/api/withdraw/user/show/cards')).body.data!.userCardList;
const unbind = (api: Api, cardId: number) => api.post<{ status: string; msg: string }>('/api/withdraw/user/unbind/card', { cardId });

async function bound(api: Api, body: Record<string, unknown>) {
  const res = await bind(api, body);
  if (res.body.code !== 'A00000') throw new Error(`bind failed: ${JSON.stringify(res.body)}`);
  return res.body.data!.card;
}

/** A withdraw line paying to `cardId`, written straight into the tables (the withdraw flow itself is withdraw.test.ts's). */
async function lineOn(userId: number, cardId: number, status: 'waited' | 'requestedCancel' | 'paid' | 'canceled') {
  const [order] = await db()
    .insert(withdrawOrders)
    .values({ orderId: `T${cardId}-${status}`, userId })
    .returning();
  const [card] = await db().select().from(bankCards).where(eq(bankCards.id, cardId));
  await db().insert(withdrawRequests).values({
    orderId: order!.orderId,
    userId,
    cardId,
    paymentType: card!.paymentType,
    accountNameEncrypt: card!.accountNameEncrypt,
    accountNameLast4: card!.accountNameLast4,
    withdrawAmount: 100,
    status,
  });
}

describe('binding a card: the fields of each payment type (SPEC §5)', () => {
  it('stores what each known type uses, clears the rest, and answers the numbers masked, the holder name and bank in full', async () => {
    const w = await world();
    const billpay = await bound(w.a.api, { paymentType: 'Billpay', ...FULL });
    expect(billpay).toMatchObject({
      paymentType: 'Billpay',
      accountName: 'John Q Public',
      cardNo: '****1111',
      routingNumber: '',
      bankInfo: 'Chase',
      cardType: 'visa',
      address: '1 Main St, Springfield',
    });
    const check = await bound(w.a.api, { paymentType: 'Check', ...FULL, cardType: 'business saving' });
    expect(check).toMatchObject({ paymentType: 'Check', cardNo: '****1111', routingNumber: '', bankInfo: 'Chase', cardType: 'Business Saving' });
    const wire = await bound(w.a.api, { paymentType: 'Wire', ...FULL });
    expect(wire).toMatchObject({ paymentType: 'Wire', cardNo: '****1111', routingNumber: '****0021', bankInfo: 'Chase', cardType: '' });
    const ach = await bound(w.a.api, { paymentType: 'ACH', ...FULL });
    expect(ach).toMatchObject({ paymentType: 'ACH', routingNumber: '****0021', cardType: '' });
    // Known types are recognised whatever their case, and stored in the list's spelling.
    const paypal = await bound(w.a.api, { paymentType: 'paypal', ...FULL, cardNo: 'john@example.com' });
    expect(paypal).toMatchObject({
      paymentType: 'Paypal',
      cardNo: '****.com',
      routingNumber: '',
      bankInfo: '',
      cardType: '',
      address: '1 Main St, Springfield',
    });
    const zelle = await bound(w.a.api, { paymentType: 'ZELLE', accountName: 'John Q Public', cardNo: '+1 555 0100', address: 'NY' });
    expect(zelle).toMatchObject({ paymentType: 'Zelle', cardNo: '****0100', address: 'NY' });

    const list = await cards(w.a.api);
    expect(list.map((c) => c.paymentType)).toEqual(['Billpay', 'Check', 'Wire', 'ACH', 'Paypal', 'Zelle']);
    expect(list[0]).toEqual(billpay);
    // The owner tells the cards apart by holder name and bank; no number is in clear.
    expect(list.map((c) => [c.accountName, c.bankInfo])).toEqual([
      ['John Q Public', 'Chase'],
      ['John Q Public', 'Chase'],
      ['John Q Public', 'Chase'],
      ['John Q Public', 'Chase'],
      ['John Q Public', ''],
      ['John Q Public', ''],
    ]);
    expect(JSON.stringify(list)).not.toMatch(/4111111111111111|021000021|john@example\.com|555 0100/);
  });

  it('a typed payment type needs the holder name and the account, and keeps what was filled in', async () => {
    const w = await world();
    const venmo = await bound(w.a.api, { paymentType: '  Venmo ', accountName: 'Ann', cardNo: '@ann-99' });
    expect(venmo).toMatchObject({ paymentType: 'Venmo', accountName: 'Ann', cardNo: '****-99', routingNumber: '', bankInfo: '', address: '' });
    // Texts are trimmed and control characters become spaces.
    const other = await bound(w.a.api, { paymentType: 'Cash', accountName: 'Bo Li', cardNo: 'desk 3', address: ' Line 1\nLine 2 ' });
    expect(other.address).toBe('Line 1 Line 2');
    // Without the account nobody knows where to send the money.
    expect(await bind(w.a.api, { paymentType: 'Venmo', accountName: 'Ann', address: 'x' })).toMatchObject(refused(M.accountInformationRequired));
  });

  it('refuses a missing field of the type with its own message, the holder name first', async () => {
    const w = await world();
    expect(await bind(w.a.api, { paymentType: 'Billpay', ...FULL, accountName: '   ' })).toMatchObject(refused(M.accountNameRequired));
    expect(await bind(w.a.api, { paymentType: 'Venmo', accountName: ' ' })).toMatchObject(refused(M.accountNameRequired));
    expect(await bind(w.a.api, { paymentType: '  ', ...FULL })).toMatchObject(refused(M.paymentTypeRequired));
    for (const type of KNOWN_PAYMENT_TYPES) {
      for (const rule of CARD_RULES[type]) {
        const res = await bind(w.a.api, { paymentType: type, ...FULL, [rule.field]: ' ' });
        expect(res, `${type} without ${rule.field}`).toMatchObject(refused(rule.message));
      }
    }
    expect(CARD_RULES.Billpay.map((r) => r.message)).toEqual([M.cardNoRequired, M.bankNameRequired, M.cardTypeRequired, M.bankAddressRequired]);
    expect(CARD_RULES.Check.map((r) => r.message)).toEqual([M.accountNumberRequired, M.bankNameRequired, M.cardTypeRequired, M.mailAddressRequired]);
    expect(CARD_RULES.Wire.map((r) => r.message)).toEqual([M.accountNumberRequired, M.bankNameRequired, M.routingNumberRequired, M.billingAddressRequired]);
    expect(CARD_RULES.Zelle.map((r) => r.message)).toEqual([M.accountInformationRequired, M.addressRequired]);
    expect(await bind(w.a.api, { paymentType: 'Billpay', ...FULL, cardType: 'discover' })).toMatchObject(
      refused(M.cardTypeInvalid(['visa', 'master', 'amex', 'all others'])),
    );
    expect(await bind(w.a.api, { paymentType: 'Check', ...FULL, cardType: 'visa' })).toMatchObject(
      refused(M.cardTypeInvalid(['Personal Checking', 'Personal Saving', 'Business Checking', 'Business Saving'])),
    );
    // The contract refuses what it declares (unknown fields, wrong types, a missing holder name).
    expect((await bind(w.a.api, { paymentType: 'Wire', ...FULL, extra: 1 })).status).toBe(400);
    expect((await bind(w.a.api, { paymentType: 'Wire', cardNo: '1' })).body.code).toBe('A00001');
    expect(await cards(w.a.api)).toEqual([]);
  });

  it(`allows at most ${MAX_CARDS} live cards per member`, async () => {
    const w = await world();
    const cipher = encryptField(cardKey(t().config), 'accountName', 'x');
    await db()
      .insert(bankCards)
      .values(Array.from({ length: MAX_CARDS }, () => ({ userId: w.a.user.id, paymentType: 'Cash', accountNameEncrypt: cipher, accountNameLast4: '' })));
    expect(await bind(w.a.api, { paymentType: 'Cash', accountName: 'Ann', cardNo: '1' })).toMatchObject(refused(M.tooMany));
    expect((await bind(w.b.api, { paymentType: 'Cash', accountName: 'Bob', cardNo: '1' })).body.code).toBe('A00000');
  });
});

describe('encryption at rest (DECISIONS "Money": AES-256-GCM, key from APP_SECRET)', () => {
  it('stores no card number, holder name or routing number in clear, and the stored cipher text decrypts with the key', async () => {
    const w = await world();
    const card = await bound(w.a.api, { paymentType: 'Wire', ...FULL });
    const again = await bound(w.a.api, { paymentType: 'Wire', ...FULL });
    const rows = await db().select().from(bankCards).orderBy(bankCards.id);
    const raw = JSON.stringify(rows);
    for (const secret of [FULL.cardNo, FULL.accountName, FULL.routingNumber, '41111111', 'John Q']) expect(raw).not.toContain(secret);
    const [row, row2] = rows;
    expect(row!.id).toBe(card.id);
    expect(row!.cardNoEncrypt).toMatch(/^v1\./);
    // A fresh IV per value: the same number twice is two different cipher texts.
    expect(row2!.id).toBe(again.id);
    expect(row2!.cardNoEncrypt).not.toBe(row!.cardNoEncrypt);
    const key = cardKey(t().config);
    expect(decryptField(key, 'cardNo', row!.cardNoEncrypt!)).toBe(FULL.cardNo);
    expect(decryptField(key, 'accountName', row!.accountNameEncrypt)).toBe(FULL.accountName);
    expect(decryptField(key, 'routingNumber', row!.routingNumberEncrypt!)).toBe(FULL.routingNumber);
    // Only the masked tail is kept beside the cipher text.
    expect([row!.cardNoLast4, row!.accountNameLast4, row!.routingNumberLast4]).toEqual(['1111', 'blic', '0021']);
    // The audit trail of the bind holds the masked card only.
    const audits = await db().select().from(auditLog).where(eq(auditLog.entity, 'card'));
    expect(audits.map((e) => e.action)).toEqual(['bind', 'bind']);
    expect(JSON.stringify(audits)).not.toMatch(/4111111111111111|John Q Public|021000021|v1\./);
  });

  it('refuses tampered cipher text, a value moved to another field and another key', () => {
    const key = cardKey(t().config);
    const stored = encryptField(key, 'cardNo', '4111111111111111');
    const [v, iv, body, tag] = stored.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptField(key, 'cardNo', [v, iv, flipped.toString('base64url'), tag].join('.'))).toThrow();
    expect(() => decryptField(key, 'routingNumber', stored)).toThrow();
    expect(() => decryptField(Buffer.alloc(32, 7), 'cardNo', stored)).toThrow();
    expect(() => decryptField(key, 'cardNo', 'plain text')).toThrow();
    expect(decryptField(key, 'cardNo', stored)).toBe('4111111111111111');
  });

  it('masks with at most four characters and never more than half of a short value', () => {
    expect(lastChars('4111111111111111')).toBe('1111');
    expect(lastChars('Bob')).toBe('b');
    expect(lastChars('Al')).toBe('l');
    expect(lastChars('X')).toBe('');
    expect(lastChars('王小明')).toBe('明');
    expect(masked('1111')).toBe('****1111');
    expect(masked(null)).toBe('');
  });
});

describe('unbinding and ownership (DECISIONS "Roles", "Money")', () => {
  it('unbinds an own card (kept for history, no longer listed) unless an open withdraw line pays to it', async () => {
    const w = await world();
    const free = await bound(w.a.api, { paymentType: 'Paypal', accountName: 'Ann Lee', cardNo: 'ann@example.com', address: 'x' });
    const waited = await bound(w.a.api, { paymentType: 'Paypal', accountName: 'Ann Lee', cardNo: 'ann2@example.com', address: 'x' });
    const asked = await bound(w.a.api, { paymentType: 'Paypal', accountName: 'Ann Lee', cardNo: 'ann3@example.com', address: 'x' });
    const paid = await bound(w.a.api, { paymentType: 'Paypal', accountName: 'Ann Lee', cardNo: 'ann4@example.com', address: 'x' });
    await lineOn(w.a.user.id, waited.id, 'waited');
    await lineOn(w.a.user.id, asked.id, 'requestedCancel');
    await lineOn(w.a.user.id, paid.id, 'paid');

    expect(await unbind(w.a.api, free.id)).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.unbound, data: { status: 'succ' } } });
    expect(await unbind(w.a.api, waited.id)).toMatchObject(refused(M.inUse));
    expect(await unbind(w.a.api, asked.id)).toMatchObject(refused(M.inUse));
    expect((await unbind(w.a.api, paid.id)).body.code).toBe('A00000');
    expect((await cards(w.a.api)).map((c) => c.id)).toEqual([waited.id, asked.id]);
    const [row] = await db().select().from(bankCards).where(eq(bankCards.id, free.id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    // Unbound: as if it did not exist.
    expect(await unbind(w.a.api, free.id)).toMatchObject({ ...notFound, body: { code: 'A00004', msg: M.notFound } });
  });

  it("a member neither sees nor unbinds another member's card (A00004), and only members have cards", async () => {
    const w = await world();
    const mine = await bound(w.a.api, { paymentType: 'Zelle', accountName: 'Ann Lee', cardNo: '5550100', address: 'x' });
    expect(await cards(w.b.api)).toEqual([]);
    expect(await unbind(w.b.api, mine.id)).toMatchObject({ ...notFound, body: { code: 'A00004', msg: M.notFound } });
    expect(await unbind(w.b.api, 999_999)).toMatchObject(notFound);
    expect((await cards(w.a.api)).map((c) => c.id)).toEqual([mine.id]);
    for (const api of [w.admin, w.lower]) {
      expect((await api.get('/api/withdraw/user/show/cards')).status).toBe(403);
      expect((await bind(api, { paymentType: 'Zelle', accountName: 'A', cardNo: '1', address: 'x' })).body.code).toBe('A00003');
      expect((await unbind(api, mine.id)).body.code).toBe('A00003');
    }
    expect((await t().app.inject({ method: 'GET', url: '/api/withdraw/user/show/cards' })).statusCode).toBe(401);
  });
});
