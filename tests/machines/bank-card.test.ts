// The bank card rules (machines/bank-card.ts, SPEC §5 "Bank card"), asked the way the dialog of
// /user/bank-card and the bind call ask them.
import { describe, expect, it } from 'vitest';
import {
  CARD_RULES,
  CARD_TYPE_OPTIONS,
  cardFieldsFor,
  cardMessages as M,
  cardProblems,
  cardTypeLabel,
  cardTypeOptions,
  checkCard,
  cleanCardText,
  KNOWN_PAYMENT_TYPES,
  knownPaymentType,
  paymentTypeLabel,
  type CardInput,
} from '../../machines/bank-card';
import { withdrawMessages } from '../../machines/withdraw.machine';

const FULL = {
  accountName: 'John Q Public',
  cardNo: '4111111111111111',
  routingNumber: '021000021',
  bankInfo: 'Chase',
  address: '1 Main St',
};
const CARD_TYPE: Record<string, string> = { Billpay: 'visa', Check: 'Personal Checking' };
const full = (paymentType: string): CardInput => ({ paymentType, ...FULL, cardType: CARD_TYPE[paymentType] ?? 'debit' });

describe('bank card rules (SPEC §5)', () => {
  it('knows the six payment types of SPEC §5, in any case', () => {
    expect(KNOWN_PAYMENT_TYPES).toEqual(['Billpay', 'Check', 'Wire', 'ACH', 'Paypal', 'Zelle']);
    expect(knownPaymentType(' paypal ')).toBe('Paypal');
    expect(knownPaymentType('ach')).toBe('ACH');
    expect(knownPaymentType('Venmo')).toBeNull();
    expect(knownPaymentType('')).toBeNull();
  });

  it('asks each type for the fields SPEC §5 lists, with their own messages', () => {
    const fields = (type: keyof typeof CARD_RULES) => CARD_RULES[type].map((r) => [r.field, r.label, r.message]);
    expect(fields('Billpay')).toEqual([
      ['cardNo', '卡号', '请填写卡号'],
      ['bankInfo', '银行名称', '请填写银行名称'],
      ['cardType', '卡类型', '请选择卡类型'],
      ['address', '银行地址', '请填写银行地址'],
    ]);
    expect(fields('Check')).toEqual([
      ['cardNo', '账号', '请填写账号'],
      ['bankInfo', '银行名称', '请填写银行名称'],
      ['cardType', '卡类型', '请选择卡类型'],
      ['address', '账单/邮寄地址', '请填写账单/邮寄地址'],
    ]);
    for (const type of ['Wire', 'ACH'] as const) {
      expect(fields(type)).toEqual([
        ['cardNo', '账号', '请填写账号'],
        ['bankInfo', '银行名称', '请填写银行名称'],
        ['routingNumber', '路由号', '请填写路由号'],
        ['address', '账单地址', '请填写账单地址'],
      ]);
    }
    for (const type of ['Paypal', 'Zelle'] as const) {
      expect(fields(type)).toEqual([
        ['cardNo', '账户信息', '请填写账户信息'],
        ['address', '地址', '请填写地址'],
      ]);
    }
    expect(CARD_TYPE_OPTIONS.Billpay).toEqual(['visa', 'master', 'amex', 'all others']);
    expect(CARD_TYPE_OPTIONS.Check).toEqual(['Personal Checking', 'Personal Saving', 'Business Checking', 'Business Saving']);
  });

  it('always requires the holder name, first, with SPEC §5 words', () => {
    expect(M.accountNameRequired).toBe('请填写Account Holder Name');
    expect(checkCard({ ...full('Billpay'), accountName: '  ' })).toEqual({ ok: false, field: 'accountName', msg: '请填写Account Holder Name' });
    expect(checkCard({ paymentType: 'Venmo', accountName: '' })).toEqual({ ok: false, field: 'accountName', msg: '请填写Account Holder Name' });
    expect(checkCard({ ...full('Wire'), paymentType: ' ' })).toEqual({ ok: false, field: 'paymentType', msg: '请填写付款方式' });
  });

  it('shows a known payment type or card type in words, anything typed as it was typed', () => {
    expect(KNOWN_PAYMENT_TYPES.map(paymentTypeLabel)).toEqual(['账单支付', '支票', '电汇', 'ACH转账', 'PayPal', 'Zelle']);
    expect(paymentTypeLabel('wire')).toBe('电汇');
    expect(paymentTypeLabel('Venmo')).toBe('Venmo');
    expect(CARD_TYPE_OPTIONS.Billpay.map(cardTypeLabel)).toEqual(['Visa', 'Mastercard', 'American Express', '其他']);
    expect(CARD_TYPE_OPTIONS.Check.map(cardTypeLabel)).toEqual(['个人支票账户', '个人储蓄账户', '企业支票账户', '企业储蓄账户']);
    expect(cardTypeLabel('Gold')).toBe('Gold');
    expect(cardTypeLabel('')).toBe('');
  });

  it('refuses each missing field of each type with that field and message', () => {
    for (const type of KNOWN_PAYMENT_TYPES) {
      for (const rule of CARD_RULES[type]) {
        expect(checkCard({ ...full(type), [rule.field]: ' ' }), `${type} without ${rule.field}`).toEqual({ ok: false, field: rule.field, msg: rule.message });
      }
      expect(checkCard(full(type)).ok, type).toBe(true);
    }
  });

  it('lists every problem at once, in the order of the dialog', () => {
    expect(cardProblems({ paymentType: 'Wire', accountName: '' })).toEqual([
      { field: 'accountName', msg: M.accountNameRequired },
      { field: 'cardNo', msg: M.accountNumberRequired },
      { field: 'bankInfo', msg: M.bankNameRequired },
      { field: 'routingNumber', msg: M.routingNumberRequired },
      { field: 'address', msg: M.billingAddressRequired },
    ]);
    expect(cardProblems({ paymentType: '', accountName: '' }).map((p) => p.field)).toEqual(['paymentType', 'accountName']);
    expect(cardProblems(full('Zelle'))).toEqual([]);
  });

  it('refuses a masked holder name, number or routing number as posted back from a list, whatever the type', () => {
    const listed = { ...full('Wire'), accountName: '****Wang', cardNo: '****6789', routingNumber: '****0021' };
    expect(cardProblems(listed)).toEqual([
      { field: 'accountName', msg: M.maskedValue('户名') },
      { field: 'cardNo', msg: M.maskedValue('卡号/账号') },
      { field: 'routingNumber', msg: M.maskedValue('路由号') },
    ]);
    expect(cardProblems({ paymentType: 'MyBank', accountName: '****Wang', cardNo: '12' })).toEqual([{ field: 'accountName', msg: M.maskedValue('户名') }]);
    expect(cardProblems({ ...full('Wire'), cardNo: '12**34' })).toEqual([]);
  });

  it('takes the card type of Billpay and Check from their choices only, in any case', () => {
    expect(checkCard({ ...full('Billpay'), cardType: 'discover' })).toEqual({
      ok: false,
      field: 'cardType',
      msg: M.cardTypeInvalid(CARD_TYPE_OPTIONS.Billpay),
    });
    expect(M.cardTypeInvalid(CARD_TYPE_OPTIONS.Check)).toBe('卡类型只能是个人支票账户、个人储蓄账户、企业支票账户、企业储蓄账户');
    const ok = checkCard({ ...full('Check'), cardType: 'business saving' });
    expect(ok.ok && ok.card.cardType).toBe('Business Saving');
    expect(cardTypeOptions('billpay')).toEqual(CARD_TYPE_OPTIONS.Billpay);
    expect(cardTypeOptions('Wire')).toBeNull();
    expect(cardTypeOptions('Venmo')).toBeNull();
  });

  it("clears a known type's other fields, so what is stored is what the type uses", () => {
    expect(checkCard(full('Paypal'))).toEqual({
      ok: true,
      card: {
        paymentType: 'Paypal',
        accountName: 'John Q Public',
        cardNo: '4111111111111111',
        routingNumber: '',
        bankInfo: '',
        cardType: '',
        address: '1 Main St',
      },
    });
    const wire = checkCard({ ...full('wire') });
    expect(wire.ok && wire.card).toMatchObject({ paymentType: 'Wire', routingNumber: '021000021', cardType: '' });
  });

  it('keeps everything of a typed type, which needs the holder name and the account; texts are trimmed, control characters become spaces', () => {
    expect(checkCard({ paymentType: '  Venmo ', accountName: 'Ann', cardNo: '@ann-99' })).toEqual({
      ok: true,
      card: { paymentType: 'Venmo', accountName: 'Ann', cardNo: '@ann-99', routingNumber: '', bankInfo: '', cardType: '', address: '' },
    });
    // Without the account nobody knows where to send the money.
    expect(checkCard({ paymentType: 'Venmo', accountName: 'Ann', cardNo: '  ', bankInfo: 'x' })).toEqual({
      ok: false,
      field: 'cardNo',
      msg: M.accountInformationRequired,
    });
    expect(cleanCardText(' Line 1\nLine 2\t ')).toBe('Line 1 Line 2');
  });

  it('tells the dialog which fields to show for a type', () => {
    expect(cardFieldsFor('')).toEqual([]);
    expect(cardFieldsFor('Zelle')).toEqual([
      { field: 'cardNo', label: '账户信息', required: true },
      { field: 'address', label: '地址', required: true },
    ]);
    expect(cardFieldsFor('Venmo').map((f) => [f.field, f.required])).toEqual([
      ['cardNo', true],
      ['routingNumber', false],
      ['bankInfo', false],
      ['cardType', false],
      ['address', false],
    ]);
  });

  it('keeps the messages the server answers with', () => {
    expect(M.notFound).toBe(withdrawMessages.cardNotFound);
    expect(M.bound).toBe('保存成功');
    expect(M.unbound).toBe('删除成功');
  });
});
