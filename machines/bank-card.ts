/**
 * A bank card / payout account of /user/bank-card (SPEC §3 "Bank card", §5 "Bank card"; DECISIONS
 * "Money"). Not a lifecycle (a card is bound, then unbound; never edited), so no machine: the rules
 * are plain data and one check (checkCard), the single place both the web form
 * (features/bank-cards) and the server (src/server/money/cards.ts) read them, so a field is
 * required, and worded, once. The account holder name is always required
 * ('请填写Account Holder Name', SPEC §5's exact words); texts are trimmed and control characters
 * become spaces (cleanCardText). Every other word is Chinese; the stored values (payment and card
 * types) stay as SPEC names them and are shown in words (paymentTypeLabel, cardTypeLabel).
 */

/**
 * Recognised without regard to case and stored in that spelling (knownPaymentType); any other
 * non-empty text is a typed type (SPEC: "new values can be typed"), which needs the holder name and
 * the account (cardNo, TYPED_TYPE_RULE: without it nobody knows where to send the money; decision
 * 055) and keeps whatever else was filled in.
 */
export const KNOWN_PAYMENT_TYPES = ['Billpay', 'Check', 'Wire', 'ACH', 'Paypal', 'Zelle'] as const;
export type KnownPaymentType = (typeof KNOWN_PAYMENT_TYPES)[number];

/** At most this many live cards per member (the server counts them). */
export const MAX_CARDS = 50;

/**
 * The card type choices of the types that have one (the dialog's select offers the same).
 *
 * Billpay's card type is one of visa, master, amex, all others; Check's one of Personal Checking,
 * Personal Saving, Business Checking, Business Saving (SPEC "Personal/Business Checking/Saving"),
 * matched without regard to case and stored in that spelling.
 */
export const CARD_TYPE_OPTIONS = {
  Billpay: ['visa', 'master', 'amex', 'all others'],
  Check: ['Personal Checking', 'Personal Saving', 'Business Checking', 'Business Saving'],
} as const satisfies Partial<Record<KnownPaymentType, readonly string[]>>;

/** A known payment type in words (the dialog's choices, the lists, the exports). */
export const PAYMENT_TYPE_LABELS: Record<KnownPaymentType, string> = {
  Billpay: '账单支付',
  Check: '支票',
  Wire: '电汇',
  ACH: 'ACH转账',
  Paypal: 'PayPal',
  Zelle: 'Zelle',
};

/** A card type choice in words (card networks keep their brand names). */
export const CARD_TYPE_LABELS: Record<string, string> = {
  visa: 'Visa',
  master: 'Mastercard',
  amex: 'American Express',
  'all others': '其他',
  'Personal Checking': '个人支票账户',
  'Personal Saving': '个人储蓄账户',
  'Business Checking': '企业支票账户',
  'Business Saving': '企业储蓄账户',
};

/** A payment type as shown: a known one in words, a typed one as the member typed it. */
export const paymentTypeLabel = (value: string): string => {
  const known = knownPaymentType(value);
  return known ? PAYMENT_TYPE_LABELS[known] : value;
};

/** A card type as shown: a choice in words, free text as typed. */
export const cardTypeLabel = (value: string): string => (Object.hasOwn(CARD_TYPE_LABELS, value) ? CARD_TYPE_LABELS[value]! : value);

/** Every message of the card calls, in SPEC §5's style; the holder name's is SPEC §5's exact text. */
export const cardMessages = {
  paymentTypeRequired: '请填写付款方式',
  accountNameRequired: '请填写Account Holder Name', // SPEC §5, verbatim
  cardNoRequired: '请填写卡号',
  accountNumberRequired: '请填写账号',
  accountInformationRequired: '请填写账户信息',
  bankNameRequired: '请填写银行名称',
  cardTypeRequired: '请选择卡类型',
  cardTypeInvalid: (options: readonly string[]) => `卡类型只能是${options.map(cardTypeLabel).join('、')}`,
  routingNumberRequired: '请填写路由号',
  bankAddressRequired: '请填写银行地址',
  mailAddressRequired: '请填写账单/邮寄地址',
  billingAddressRequired: '请填写账单地址',
  addressRequired: '请填写地址',
  tooMany: `最多绑定${MAX_CARDS}张银行卡`,
  bound: '保存成功',
  unbound: '删除成功',
  inUse: '该银行卡有未完成的提现，不能删除',
  notFound: '银行卡不存在',
  maskedValue: (label: string) => `${label}不能是隐藏后的值（${MASK}…），请填写完整的${label}`,
} as const;
const M = cardMessages;

/**
 * What a masked field (card number, holder name, routing number) starts with where the server shows
 * it; such a value posted back, as a client re-sending a card it read would, is not a card number.
 */
export const MASK = '****';
/** The fields shown masked, never whole, to anyone but their owner's reveal. */
const MASKED_FIELDS = ['accountName', 'cardNo', 'routingNumber'] as const;

/** The fields of a card beyond its type and holder name. */
export type CardTextField = 'cardNo' | 'routingNumber' | 'bankInfo' | 'cardType' | 'address';
export const CARD_TEXT_FIELDS: readonly CardTextField[] = ['cardNo', 'routingNumber', 'bankInfo', 'cardType', 'address'];

/** Every field a problem can be about. */
export type CardField = 'paymentType' | 'accountName' | CardTextField;

/** The fields' names (SPEC §5 Payment Type, Account Holder Name, ...), one word each on every screen and file. */
export const CARD_LABELS = {
  paymentType: '付款方式',
  accountName: '户名',
  cardNo: '卡号/账号',
  routingNumber: '路由号',
  bankInfo: '银行名称',
  cardType: '卡类型',
  address: '地址',
} as const satisfies Record<CardField, string>;

export interface CardRule {
  field: CardTextField;
  /** What the field is for this type (SPEC §5: card number for Billpay, account number for Check...). */
  label: string;
  /** The message when it is empty. */
  message: string;
}

/**
 * The fields each known payment type needs (beyond the holder name), in the dialog's order, with
 * their label and message. A known type's fields outside its list are cleared (SPEC: "switching
 * type clears the other fields"), so what is stored is exactly what the type uses.
 */
export const CARD_RULES: Record<KnownPaymentType, readonly CardRule[]> = {
  Billpay: [
    { field: 'cardNo', label: '卡号', message: M.cardNoRequired },
    { field: 'bankInfo', label: CARD_LABELS.bankInfo, message: M.bankNameRequired },
    { field: 'cardType', label: CARD_LABELS.cardType, message: M.cardTypeRequired },
    { field: 'address', label: '银行地址', message: M.bankAddressRequired },
  ],
  Check: [
    { field: 'cardNo', label: '账号', message: M.accountNumberRequired },
    { field: 'bankInfo', label: CARD_LABELS.bankInfo, message: M.bankNameRequired },
    { field: 'cardType', label: CARD_LABELS.cardType, message: M.cardTypeRequired },
    { field: 'address', label: '账单/邮寄地址', message: M.mailAddressRequired },
  ],
  Wire: [
    { field: 'cardNo', label: '账号', message: M.accountNumberRequired },
    { field: 'bankInfo', label: CARD_LABELS.bankInfo, message: M.bankNameRequired },
    { field: 'routingNumber', label: CARD_LABELS.routingNumber, message: M.routingNumberRequired },
    { field: 'address', label: '账单地址', message: M.billingAddressRequired },
  ],
  ACH: [
    { field: 'cardNo', label: '账号', message: M.accountNumberRequired },
    { field: 'bankInfo', label: CARD_LABELS.bankInfo, message: M.bankNameRequired },
    { field: 'routingNumber', label: CARD_LABELS.routingNumber, message: M.routingNumberRequired },
    { field: 'address', label: '账单地址', message: M.billingAddressRequired },
  ],
  Paypal: [
    { field: 'cardNo', label: '账户信息', message: M.accountInformationRequired },
    { field: 'address', label: CARD_LABELS.address, message: M.addressRequired },
  ],
  Zelle: [
    { field: 'cardNo', label: '账户信息', message: M.accountInformationRequired },
    { field: 'address', label: CARD_LABELS.address, message: M.addressRequired },
  ],
};

/** The one field a typed payment type needs beyond the holder name: the account the money goes to. */
export const TYPED_TYPE_RULE: CardRule = { field: 'cardNo', label: '账户信息', message: M.accountInformationRequired };

/** A card as typed (the bind call's body: the contract's BindCardRequest). */
export interface CardInput {
  paymentType: string;
  accountName: string;
  cardNo?: string;
  routingNumber?: string;
  bankInfo?: string;
  cardType?: string;
  address?: string;
}

/** A card made canonical: every text trimmed, a known type in its spelling, fields it does not use empty. */
export interface CheckedCard {
  paymentType: string;
  accountName: string;
  cardNo: string;
  routingNumber: string;
  bankInfo: string;
  cardType: string;
  address: string;
}

export interface CardProblem {
  field: CardField;
  msg: string;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** A typed text as stored: control characters become spaces (an address pasted with line breaks), then trimmed. */
export const cleanCardText = (value: string | undefined | null): string => (value ?? '').replace(CONTROL_CHARS, ' ').trim();

/** The known type `typed` names (any case, surrounding blanks ignored), or null for a typed type. */
export function knownPaymentType(typed: string | undefined | null): KnownPaymentType | null {
  const text = cleanCardText(typed).toLowerCase();
  return KNOWN_PAYMENT_TYPES.find((t) => t.toLowerCase() === text) ?? null;
}

/** A typed type's fields: the account first (required), then every other field (optional). */
export const TYPED_TYPE_FIELDS: readonly { field: CardTextField; label: string; required: boolean }[] = [
  { field: TYPED_TYPE_RULE.field, label: TYPED_TYPE_RULE.label, required: true },
  ...CARD_TEXT_FIELDS.filter((field) => field !== TYPED_TYPE_RULE.field).map((field) => ({ field, label: CARD_LABELS[field], required: false })),
];

/**
 * What the dialog shows for a type: a known type's rules (all required), a typed type's fields
 * (TYPED_TYPE_FIELDS), nothing before a type is given.
 */
export function cardFieldsFor(paymentType: string): readonly { field: CardTextField; label: string; required: boolean }[] {
  if (cleanCardText(paymentType) === '') return [];
  const known = knownPaymentType(paymentType);
  if (known) return CARD_RULES[known].map((r) => ({ field: r.field, label: r.label, required: true }));
  return TYPED_TYPE_FIELDS;
}

/** The card type choices of a type, or null when its card type is free text (or it has none). */
export function cardTypeOptions(paymentType: string): readonly string[] | null {
  const known = knownPaymentType(paymentType);
  return known && known in CARD_TYPE_OPTIONS ? CARD_TYPE_OPTIONS[known as keyof typeof CARD_TYPE_OPTIONS] : null;
}

function canonical(input: CardInput): { card: CheckedCard; known: KnownPaymentType | null } {
  const typed = cleanCardText(input.paymentType);
  const known = knownPaymentType(typed);
  const card: CheckedCard = {
    paymentType: known ?? typed,
    accountName: cleanCardText(input.accountName),
    cardNo: cleanCardText(input.cardNo),
    routingNumber: cleanCardText(input.routingNumber),
    bankInfo: cleanCardText(input.bankInfo),
    cardType: cleanCardText(input.cardType),
    address: cleanCardText(input.address),
  };
  if (known) {
    const rules = CARD_RULES[known];
    for (const f of CARD_TEXT_FIELDS) if (!rules.some((r) => r.field === f)) card[f] = '';
  }
  return { card, known };
}

/**
 * Every problem of a card as typed, in the order a member fixes them (the dialog marks each field
 * at once): the type, the holder name, then the type's fields in its order, then the card type's
 * choice. Empty when the card can be bound.
 */
export function cardProblems(input: CardInput): CardProblem[] {
  const { card, known } = canonical(input);
  const problems: CardProblem[] = [];
  if (!card.paymentType) problems.push({ field: 'paymentType', msg: M.paymentTypeRequired });
  if (!card.accountName) problems.push({ field: 'accountName', msg: M.accountNameRequired });
  for (const field of MASKED_FIELDS) if (card[field].startsWith(MASK)) problems.push({ field, msg: M.maskedValue(CARD_LABELS[field]) });
  if (!known) {
    if (card.paymentType && !card.cardNo) problems.push({ field: TYPED_TYPE_RULE.field, msg: TYPED_TYPE_RULE.message });
    return problems;
  }
  for (const r of CARD_RULES[known]) if (!card[r.field]) problems.push({ field: r.field, msg: r.message });
  const options = cardTypeOptions(known);
  if (options && card.cardType && !options.some((o) => o.toLowerCase() === card.cardType.toLowerCase())) {
    problems.push({ field: 'cardType', msg: M.cardTypeInvalid(options) });
  }
  return problems;
}

/** A bind request made canonical (see the header), or its first problem: what the server stores or refuses. */
export function checkCard(input: CardInput): { ok: true; card: CheckedCard } | ({ ok: false } & CardProblem) {
  const [first] = cardProblems(input);
  if (first) return { ok: false, ...first };
  const { card } = canonical(input);
  const options = cardTypeOptions(card.paymentType);
  if (options) card.cardType = options.find((o) => o.toLowerCase() === card.cardType.toLowerCase()) ?? card.cardType;
  return { ok: true, card };
}
