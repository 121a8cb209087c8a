// The fuzz test's requests, generated from openapi.yaml: for each operation a valid request built
// from the world's ids, then one field at a time made bad (wrong types, missing and extra fields,
// out-of-range and non-finite numbers, ids written ' 1 ', '+1' or '0x10', 1 MB strings, NUL and
// control characters, lone surrogates, __proto__ keys, malformed JSON, no body, wrong content types, broken
// multipart, path parameters over 100 characters). A write is never sent valid: each case of a write
// carries at least one field the contract or the product's rules refuse, so nothing may change.
// Which cases are sent is drawn with a seeded PRNG, so a failure is reproduced with its seed.
import type { InjectOptions } from 'fastify';
import { contractAjv, parametersOf, requestSchemaOf, resolveSchema, toJsonSchema, type Param } from './contract-answers.ts';
import type { Operation, Role } from '../../../src/server/contract.ts';
import type { ContractWorld, Ids } from './contract-world.ts';
import { TEST_PASSWORD } from './harness.ts';
import { multipart, xlsxOf, XLSX_MIME } from './sheets.ts';
import { UPC } from './task-fixtures.ts';

type Json = Record<string, unknown>;

/** Who sends a case: the four roles, and member a using member b's ids. */
export type FuzzRole = Role | 'crossMember';

export interface Case {
  op: Operation;
  role: FuzzRole;
  /** What was made bad, e.g. "query userId = '0x10'". */
  what: string;
  /** The cause's family, for grouping findings (e.g. 'integer 2147483648', 'NUL', 'multipart without boundary'). */
  kind: string;
  request: InjectOptions;
  /** The contract or the product's rules refuse it: it must not be answered A00000. */
  invalid: boolean;
  /** Statuses allowed for this case beyond the refusals of a role (e.g. two files: 400, not 413). */
  expect?: number[];
  /** Whose session token the request carries (none: anonymous, or its own x-token). */
  caller?: Exclude<Role, 'anonymous'>;
}

// --- A seeded PRNG (mulberry32) ---
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Up to n of the list, order kept. */
    sample<T>(list: T[], n: number): T[] {
      if (list.length <= n) return list;
      const idx = list
        .map((_, i) => ({ i, r: next() }))
        .sort((x, y) => x.r - y.r)
        .slice(0, n)
        .map((x) => x.i)
        .sort((x, y) => x - y);
      return idx.map((i) => list[i]!);
    },
  };
}

// --- Raw values: URL text inserted as given, JSON text inserted as given ---
class RawUrl {
  constructor(readonly text: string) {}
}
class RawJson {
  constructor(readonly text: string) {}
}
type UrlValue = string | RawUrl;

const encodeUrl = (v: UrlValue) => (v instanceof RawUrl ? v.text : encodeURIComponent(v));
/**
 * The text a URL value stands for: undefined when its bytes are not UTF-8; a malformed escape
 * ('%zz') stands for itself, as the query parser reads it.
 */
function decodeUrl(v: UrlValue): string | undefined {
  if (!(v instanceof RawUrl)) return v;
  try {
    return decodeURIComponent(v.text);
  } catch {
    return /%(?![0-9a-fA-F]{2})/.test(v.text) ? v.text : undefined;
  }
}

function jsonText(v: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(v, (_k, x: unknown) => {
    if (x instanceof RawJson) {
      raws.push(x.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return x;
  });
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

// --- Is a value refused? The contract (Ajv as the server is told to run it, with strictNumbers) or the product's rules ---
const ajvUrl = contractAjv({ coerceTypes: 'array', strictNumbers: true, allErrors: false });
const ajvJson = contractAjv({ coerceTypes: false, strictNumbers: true, allErrors: false });
const compiled = new Map<string, (v: unknown) => boolean>();
function schemaAccepts(schema: Json, value: unknown, coerce: boolean): boolean {
  const key = `${coerce}${JSON.stringify(schema)}`;
  let v = compiled.get(key);
  if (!v) {
    const fn = (coerce ? ajvUrl : ajvJson).compile({ type: 'object', properties: { v: toJsonSchema(schema) as Json }, required: ['v'] });
    v = (x: unknown) => fn({ v: x });
    compiled.set(key, v);
  }
  return v(value);
}

// Control characters other than tab, line feed and carriage return, and UTF-16 halves alone.
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const BAD_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const INT32_MAX = 2_147_483_647;
const ID_LIST = '^[1-9][0-9]*(,[1-9][0-9]*)*$';
const DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

const realDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** Refused by the product's rules although the contract's schema may let it through. */
function ruleRefuses(schema: Json, text: unknown): boolean {
  const walk = (x: unknown): boolean => {
    if (typeof x === 'string') return BAD_TEXT.test(x);
    if (Array.isArray(x)) return x.some(walk);
    if (x && typeof x === 'object') return Object.entries(x).some(([k, v]) => BAD_TEXT.test(k) || walk(v));
    if (typeof x === 'number') return !Number.isFinite(x);
    return false;
  };
  if (walk(text)) return true;
  const type = schema.type;
  if (type === 'integer' || type === 'number') {
    const n =
      typeof text === 'string'
        ? type === 'integer'
          ? /^-?[0-9]+$/.test(text)
            ? Number(text)
            : NaN
          : /^-?[0-9]+(\.[0-9]+)?$/.test(text)
            ? Number(text)
            : NaN
        : (text as number);
    if (typeof text === 'string' && Number.isNaN(n)) return true;
    if (typeof n === 'number' && !Number.isFinite(n)) return true;
    if (type === 'integer' && typeof n === 'number') {
      if (schema.format === 'int64' ? !Number.isSafeInteger(n) : Math.abs(n) > INT32_MAX) return true;
      // Counts and ids without a declared minimum are still whole numbers from 1 (DECISIONS "Boards, claims and tasks").
      if (schema.minimum === undefined && n <= 0) return true;
    }
  }
  if (type === 'string' && typeof text === 'string') {
    if (schema.pattern === DATE && /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text) && !realDate(text)) return true;
    if (schema.pattern === ID_LIST && text.split(',').some((id) => Number(id) > INT32_MAX)) return true;
  }
  if (type === 'array' && Array.isArray(text) && schema.items) return text.some((x) => ruleRefuses(resolveSchema(schema.items as Json), x));
  if (type === 'object' && text && typeof text === 'object' && !Array.isArray(text) && schema.properties) {
    const props = schema.properties as Record<string, Json>;
    return Object.entries(text).some(([k, v]) => props[k] !== undefined && ruleRefuses(resolveSchema(props[k]), v));
  }
  return false;
}

function urlInvalid(schema: Json, v: UrlValue): boolean {
  const text = decodeUrl(v);
  if (text === undefined) return true;
  return !schemaAccepts(schema, text, true) || ruleRefuses(schema, text);
}

function jsonInvalid(schema: Json, v: unknown): boolean {
  if (v instanceof RawJson) return true; // 1e400 (Infinity) and the like: never a value the server may take
  if (containsRaw(v)) return true;
  return !schemaAccepts(schema, v, false) || ruleRefuses(schema, v);
}
const containsRaw = (v: unknown): boolean =>
  v instanceof RawJson || (Array.isArray(v) ? v.some(containsRaw) : v && typeof v === 'object' ? Object.values(v).some(containsRaw) : false);

// --- Bad values ---
const MB = 'x'.repeat(1_000_000);
const LONG_PATH = 120;

function badUrlValues(schema: Json): { v: UrlValue; kind: string }[] {
  const common: { v: UrlValue; kind: string }[] = [
    { v: new RawUrl('%00'), kind: 'NUL' },
    { v: new RawUrl('a%00b'), kind: 'NUL' },
    { v: new RawUrl('a%1Bb'), kind: 'control character' },
    { v: new RawUrl('%ED%A0%80'), kind: 'lone surrogate (invalid UTF-8)' },
    { v: new RawUrl('%FF'), kind: 'invalid UTF-8' },
    { v: new RawUrl('%zz'), kind: 'malformed percent-encoding' },
    { v: '__proto__', kind: '__proto__ as a value' },
    { v: '', kind: 'empty' },
  ];
  switch (schema.type) {
    case 'integer':
      return [
        ...['2147483648', '-2147483649', '9007199254740993', '1e308', '1' + '0'.repeat(400)].map((v) => ({
          v,
          kind: `integer ${v.length > 20 ? '10^400' : v}`,
        })),
        ...['-1', '0', '1.5', 'Infinity', '-Infinity', 'NaN', ' 1 ', '+1', '0x10', '1e3', 'abc', '1,2', '١'].map((v) => ({ v, kind: `integer '${v}'` })),
        ...common,
      ];
    case 'number':
      return [...['1e308', 'Infinity', 'NaN', '-13', '14.5', ' 8 ', '0x8', '1e400', 'abc'].map((v) => ({ v, kind: `number '${v}'` })), ...common];
    case 'boolean':
      return [...['maybe', '2', 'TRUE', 'yes', '1,0'].map((v) => ({ v, kind: `boolean '${v}'` })), ...common];
    default: {
      const out = [...common];
      if (Array.isArray(schema.enum)) out.push({ v: 'nope', kind: 'enum outside the list' }, { v: `${String(schema.enum[0])}\u0000`, kind: 'NUL' });
      if (schema.pattern === DATE) out.push(...['2026-13-45', '2026-02-30', '99999-01-01', '2026-1-1'].map((v) => ({ v, kind: `date '${v}'` })));
      if (schema.pattern === ID_LIST)
        out.push(...['1,,2', '0', '1,0', ',', '1, 2', '2147483648', ' 1', '+1', '0x10'].map((v) => ({ v, kind: `id list '${v}'` })));
      if (typeof schema.maxLength === 'number') out.push({ v: 'x'.repeat(Number(schema.maxLength) + 1), kind: 'string over maxLength' });
      out.push({ v: '\u202e\ud83d\ude00\u4e2d', kind: 'unicode (valid)' }, { v: "' or 1=1 --", kind: 'quote (valid)' }, { v: '   ', kind: 'blank' });
      return out;
    }
  }
}

function badJsonValues(schema: Json): { v: unknown; kind: string }[] {
  const wrong: { v: unknown; kind: string }[] = [
    { v: null, kind: 'null' },
    { v: [], kind: 'wrong type (array)' },
    { v: { a: 1 }, kind: 'wrong type (object)' },
  ];
  switch (schema.type) {
    case 'integer':
      return [
        ...[2147483648, -2147483649, -1, 0, 1.5].map((v) => ({ v, kind: `integer ${v}` })),
        { v: new RawJson('9007199254740993'), kind: 'integer 9007199254740993' },
        { v: new RawJson('1e308'), kind: 'integer 1e308' },
        { v: new RawJson('1e400'), kind: 'integer 1e400 (Infinity)' },
        ...['1', ' 1 ', '+1', '0x10'].map((v) => ({ v, kind: `integer as string '${v}'` })),
        { v: true, kind: 'wrong type (boolean)' },
        ...wrong,
      ];
    case 'number':
      return [
        ...[-1, 0.001, 100000000, 21474836.48, -0.01].map((v) => ({ v, kind: `money ${v}` })),
        { v: new RawJson('1e308'), kind: 'number 1e308' },
        { v: new RawJson('1e400'), kind: 'number 1e400 (Infinity)' },
        { v: '1', kind: 'number as string' },
        { v: 'Infinity', kind: 'number as string' },
        { v: true, kind: 'wrong type (boolean)' },
        ...wrong,
      ];
    case 'boolean':
      return [{ v: 'true', kind: 'boolean as string' }, { v: 1, kind: 'boolean as number' }, ...wrong];
    case 'array':
      return [
        { v: [], kind: 'empty array' },
        { v: 'x', kind: 'wrong type (string)' },
        { v: [null], kind: 'null item' },
        { v: [new RawJson('1e400')], kind: 'item 1e400 (Infinity)' },
        { v: [2147483648], kind: 'item 2147483648' },
        { v: ['\u0000'], kind: 'NUL' },
        ...(schema.uniqueItems ? [{ v: 'dup', kind: 'duplicate items' }] : []),
        ...(typeof schema.maxItems === 'number' ? [{ v: 'toolong', kind: 'too many items' }] : []),
        { v: null, kind: 'null' },
        { v: { a: 1 }, kind: 'wrong type (object)' },
      ];
    case 'object':
      return [
        { v: 'x', kind: 'wrong type (string)' },
        { v: null, kind: 'null' },
      ];
    default: {
      const out: { v: unknown; kind: string }[] = [
        { v: 'a\u0000b', kind: 'NUL' },
        { v: '\u0000', kind: 'NUL' },
        { v: 'a\u001bb', kind: 'control character' },
        { v: 'a\u0008b', kind: 'control character' },
        { v: '\ud800', kind: 'lone surrogate' },
        { v: 'a\udc00b', kind: 'lone surrogate' },
        { v: 123, kind: 'wrong type (number)' },
        { v: true, kind: 'wrong type (boolean)' },
        { v: '', kind: 'empty' },
        { v: '   ', kind: 'blank' },
        { v: '__proto__', kind: '__proto__ as a value' },
        ...wrong,
      ];
      if (typeof schema.maxLength === 'number') out.push({ v: 'x'.repeat(Number(schema.maxLength) + 1), kind: 'string over maxLength' });
      if (Array.isArray(schema.enum)) out.push({ v: 'nope', kind: 'enum outside the list' });
      out.push({ v: MB, kind: '1 MB string' });
      return out;
    }
  }
}

// --- The valid request of an operation, from the world ---
interface Base {
  path: Record<string, UrlValue>;
  query: Record<string, UrlValue>;
  media?: string;
  body?: Json;
}

/** Entities of members: for crossMember they are b's, the caller being a. */
const MEMBER_OWNED_PATH = new Set([
  'deleteUserTask',
  'getTask',
  'updateUserTaskQuantity',
  'updateUserTaskQuantityWithLabel',
  'listTaskPurchasedItems',
  'getPdfDownloadToken',
  'createPurchasedItem',
  'createPurchasedItemsBulk',
]);
const MEMBER_OWNED_BODY: Record<string, string[]> = {
  applyPayment: ['taskId'],
  applyPaymentForArrived: ['taskId'],
  matchUserTask: ['taskId'],
  updatePurchasedItem: ['id'],
  removePurchasedItem: ['id'],
  reportMissingParcel: ['id'],
  markWithdrawPaid: ['id'],
  confirmCollect: ['paymentApplyId'],
  unbindBankCard: ['cardId'],
  requestWithdraw: ['requests', 'taskIds'],
  cancelWithdrawOrder: ['orderId'],
  changeWithdrawCard: ['requestId', 'cardId'],
};
const MEMBER_OWNED_QUERY: Record<string, string[]> = { splitUserTask: ['taskId'], checkTaskApplyExists: ['taskIds'], getTaskPartMatch: ['taskIds'] };

export function memberOwned(op: Operation): boolean {
  return MEMBER_OWNED_PATH.has(op.operationId) || op.operationId in MEMBER_OWNED_BODY || op.operationId in MEMBER_OWNED_QUERY;
}

function pathValue(op: Operation, name: string, w: ContractWorld, own: Ids, role: FuzzRole): UrlValue {
  const id = op.operationId;
  if (name === 'id') {
    if (/UserGroup$|GroupUsers$/.test(id) || id === 'getUserGroup') return String(w.groupId);
    if (
      [
        'getBoard',
        'listBoardGroups',
        'addBoardGroups',
        'removeBoardGroups',
        'publishBoard',
        'publishBoardToUsers',
        'publishBoardBackup',
        'listBoardTasks',
      ].includes(id)
    )
      return String(w.board.id);
    if (['listBoardTaskUsers', 'getBoardTaskProgress', 'listBoardTaskTasks', 'claimBoardTask', 'claimBoardTaskWithLabel'].includes(id))
      return String(w.boardTask.id);
    if (id === 'acceptTask' || id === 'rejectTask') return String(w.pending.id);
    if (id === 'deleteUserTask') return String(own.bareTask);
    if (id === 'getItem') return String(w.item.id);
    if (id === 'getScanTracking') return w.scanned.trackingId;
    if (id === 'createScanTrackings') return 'FUZZ-NEW-1';
    if (id === 'addScanTracking') return 'FUZZ-NEW-2';
    if (id === 'modifyScanTracking') return String(w.scanned.id);
    return String(own.openTask);
  }
  if (name === 'taskId') return String(id === 'getBoardTask' ? w.boardTask.id : own.openTask);
  if (name === 'boardId') return String(w.board.id);
  if (name === 'count') return '1';
  if (name === 'labelCount' || name === 'm') return '1';
  if (name === 'n') return '4';
  if (name === 'q') return 'Air';
  if (name === 'uuid') return w.board.uuid;
  if (name === 'token') return 'T'.repeat(43);
  // A large upload's kept rows (decision 172): none under this id, whoever asks.
  if (name === 'resultId') return 'no-such-result';
  if (name === 'kind') return role === 'user' || role === 'crossMember' ? 'user-task' : 'tracking';
  throw new Error(`fuzz: no value for path parameter ${name} of ${id}`);
}

function queryValue(op: Operation, p: Param, w: ContractWorld, own: Ids): UrlValue | undefined {
  const id = op.operationId;
  switch (p.name) {
    case 'mailAddr':
      return id === 'login' ? 'a@x.test' : 'fresh@x.test';
    case 'pwd':
      return TEST_PASSWORD;
    case 'token':
      return w.inviteToken;
    case 'uids':
      return String(w.b.user.id);
    case 'groupIds':
      return String(w.groupId);
    case 'taskIds':
      return String(own.openTask);
    case 'taskId':
      return String(own.openTask);
    case 'boardUuid':
      return w.board.uuid;
    case 'boardId':
      return String(w.board.id);
  }
  if (!p.required) return undefined;
  throw new Error(`fuzz: no value for required query parameter ${p.name} of ${id}`);
}

/** Valid values of body fields by name (an operation's own meaning of id first). */
function bodyValue(op: Operation, name: string, w: ContractWorld, own: Ids): unknown {
  const id = op.operationId;
  const now = Date.now();
  if (name === 'id') {
    const ids: Record<string, number> = {
      updateAdminUser: w.b.user.id,
      saveUserGroup: w.groupId,
      saveBoard: w.board.id,
      saveBoardTask: w.boardTask.id,
      updateTask: own.openTask,
      saveItem: w.item.id,
      updatePurchasedItem: own.record,
      removePurchasedItem: own.record,
      reportMissingParcel: own.record,
      undoParcelClaim: own.record,
      markWithdrawPaid: own.line,
      payWithdrawRequest: own.line,
      revealWithdrawCard: own.line,
    };
    return ids[id];
  }
  const byOp: Record<string, Record<string, unknown>> = {
    register: { mailAddr: 'invited@x.test', pwd: 'new-pass-1', nickName: '新人', phoneNo: '13900000000', qq: '1', token: w.inviteToken },
    resetPassword: { pwd: 'brand-new-1', token: w.resetToken, mailAddr: 'm@x.test' },
    forgotPassword: { mail: 'm@x.test' },
    inviteUsers: { mails: 'fuzz@x.test' },
    saveNotice: { content: '公告', isMail: false },
    updateAdminUser: { roleType: 'user', groupIds: [w.groupId] },
    saveUserGroup: { groupName: 'bound', remark: '' },
    saveBoard: { boardName: '四月采购', remark: '本周截止', publishAt: now - 86_400_000, expireAt: now + 7 * 86_400_000 },
    saveBoardTask: { itemId: w.item.id, buyIn: 12.5, show: 100 },
    publishBoardToUsers: { userIds: [w.a.user.id] },
    claimBoardTaskWithLabel: { isHome: false },
    updateTask: { count: 3 },
    saveItem: { itemName: 'AirPods Pro', status: 'open', productId: 'P-1' },
    createScanTrackings: { items: [{ upc: UPC, count: 1, itemId: w.item.id }] },
    addScanTracking: { itemId: w.item.id, count: 1 },
    modifyScanTracking: { count: 1 },
    createPurchasedItem: { trackingId: 'FUZZ-REC', productCount: 1 },
    createPurchasedItemsBulk: { text: 'FUZZ-BULK-1\t1\nFUZZ-BULK-2' },
    updatePurchasedItem: { trackingId: own.recordTracking, productCount: 1 },
    reportMissingParcel: { note: '卖家已补发', lost: true },
    claimUnknownParcel: { taskId: own.openTask, trackingId: own.recordTracking },
    matchUserTracking: { trackingId: own.recordTracking },
    matchAdminTracking: { trackingId: own.recordTracking },
    matchUserTask: { taskId: own.openTask },
    matchAdminTask: { taskId: own.openTask },
    assignContestedParcel: { trackingId: own.recordTracking, upc: UPC, records: [{ recordId: own.record, count: 1 }] },
    applyPayment: { taskId: own.lockedTask, bonus: 0, note: 'n' },
    applyPaymentForArrived: { taskId: own.openTask, bonus: 0, note: 'n' },
    agreePayment: { paymentApplyId: own.applied, bonus: 0 },
    confirmPayment: { paymentApplyId: own.withdrawing },
    confirmCollect: { paymentApplyId: own.withdrawing },
    bindBankCard: { paymentType: 'Zelle', accountName: 'Ann Lee', cardNo: '5550003333' },
    unbindBankCard: { cardId: own.spareCard },
    requestWithdraw: { requests: [{ cardId: own.card, withdrawAmount: 3 }], taskIds: [own.agreedTask] },
    cancelWithdrawOrder: { orderId: own.order },
    agreeWithdrawCancel: { orderId: own.order },
    rejectWithdrawCancel: { orderId: own.order },
    changeWithdrawCard: { requestId: own.line, cardId: own.spareCard },
    saveWithdrawAdminNote: { requestId: own.line, adminNote: 'n' },
    payWithdrawRequests: { ids: [own.line] },
    getWithdrawPaymentFileToken: { ids: [own.line], timezone: 8 },
  };
  return byOp[id]?.[name];
}

const XLSX_ROWS: Record<string, unknown[][]> = {
  tracking: [
    ['tracking', 'upc', '商品ID', '商品名称', '快递公司', '数量'],
    ['FUZZ-UP-1', UPC, null, null, 'UPS', 1],
  ],
  purchased: [
    ['任务ID', '商品ID', '商品名称', 'tracking', '快递公司', '数量'],
    [1, null, null, 'FUZZ-UP-2', 'UPS', 1],
  ],
  withdraw: [
    ['提现ID', '订单号', '金额'],
    [1, 1, 4],
  ],
};
const workbooks = new Map<string, Buffer>();
const workbookFor = (op: Operation) => {
  const kind = op.operationId === 'confirmWithdrawExcel' ? 'withdraw' : op.path.includes('/purchased/') ? 'purchased' : 'tracking';
  let book = workbooks.get(kind);
  if (!book) workbooks.set(kind, (book = xlsxOf(XLSX_ROWS[kind]!)));
  return book;
};

function baseOf(op: Operation, w: ContractWorld, own: Ids, role: FuzzRole): Base {
  const params = parametersOf(op);
  const base: Base = { path: {}, query: {} };
  for (const p of params.filter((x) => x.in === 'path')) base.path[p.name] = pathValue(op, p.name, w, own, role);
  for (const p of params.filter((x) => x.in === 'query')) {
    const v = queryValue(op, p, w, own);
    if (v !== undefined) base.query[p.name] = v;
  }
  const media = op.requestTypes[0];
  if (media) {
    base.media = media;
    const schema = requestSchemaOf(op, media)!;
    const props = (schema.properties ?? {}) as Record<string, Json>;
    const body: Json = {};
    for (const name of Object.keys(props)) {
      if (media === 'multipart/form-data') continue;
      const v = bodyValue(op, name, w, own);
      if (v !== undefined) body[name] = v;
      else if (((schema.required ?? []) as string[]).includes(name)) throw new Error(`fuzz: no value for required body field ${name} of ${op.operationId}`);
    }
    base.body = body;
  }
  return base;
}

// --- Requests ---
const urlOf = (op: Operation, path: Record<string, UrlValue>, query: Record<string, UrlValue>, extraQuery = '') => {
  const p = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeUrl(path[name]!));
  const q = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeUrl(v)}`);
  if (extraQuery) q.push(extraQuery);
  return q.length ? `${p}?${q.join('&')}` : p;
};

function formText(body: Json, raw: Record<string, string> = {}) {
  return Object.entries(body)
    .map(([k, v]) => `${encodeURIComponent(k)}=${k in raw ? raw[k] : encodeURIComponent(String(v))}`)
    .join('&');
}

function multipartOf(parts: { name: string; filename?: string; data: Buffer | string; type?: string }[], boundary = '----ph-fuzz-boundary') {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export interface Generated {
  cases: Case[];
  /** Operations with at least one case. */
  operations: number;
}

export interface GenerateOptions {
  seed: number;
  /** Bad values drawn per field and role. */
  perField: number;
  /** Body- and request-level cases drawn per operation and role. */
  perRequest: number;
  /** Cases per role that x-roles leaves out (answered 401 or 403 before anything is read). */
  perOutsider: number;
}

export function generateCases(operations: Operation[], w: ContractWorld, opts: GenerateOptions): Generated {
  const rnd = prng(opts.seed);
  const cases: Case[] = [];
  const roles: FuzzRole[] = ['anonymous', 'user', 'lowerAdmin', 'admin', 'crossMember'];
  const done = new Set<string>();
  let parsedOnce = false;
  const tokenTried = new Set<string>();
  for (const op of operations) {
    const writes = op.method !== 'GET' || op.operationId === 'getPdfDownloadToken' || op.operationId === 'getExcelDownloadToken';
    // The live stream answers a request it accepts with a response that does not end: only
    // requests it refuses are sent (tests/server/live cover the rest).
    const endless = op.operationId === 'streamEvents';
    let mbSent = false;
    for (const role of roles) {
      if (role === 'crossMember' && !(op.roles.includes('user') && memberOwned(op))) continue;
      const allowed = role === 'crossMember' || op.roles.includes(role);
      const caller = role === 'crossMember' ? 'user' : role;
      const base = baseOf(op, w, w.ids.a, role);
      const list: Case[] = [];
      const push = (c: Omit<Case, 'op' | 'role'>) => {
        // A write is only sent when something in it is refused.
        if ((writes || endless) && !c.invalid && role !== 'crossMember') return;
        list.push({ ...c, op, role });
      };
      const jsonReq = (body: unknown, extra: Partial<InjectOptions> = {}, path = base.path, query = base.query): InjectOptions => ({
        method: op.method as 'POST',
        url: urlOf(op, path, query),
        headers: { 'content-type': 'application/json' },
        payload: jsonText(body),
        ...extra,
      });
      const plain = (path = base.path, query = base.query, extraQuery = ''): InjectOptions => ({
        method: op.method as 'GET',
        url: urlOf(op, path, query, extraQuery),
      });
      /** The operation's request with its valid body (whatever its media type). */
      const withBody = (path = base.path, query = base.query): InjectOptions => {
        if (!base.media) return plain(path, query);
        if (base.media === 'application/json') return jsonReq(base.body, {}, path, query);
        if (base.media === 'application/x-www-form-urlencoded')
          return { method: op.method as 'POST', url: urlOf(op, path, query), headers: { 'content-type': base.media }, payload: formText(base.body!) };
        const m = multipart(workbookFor(op));
        return { method: op.method as 'POST', url: urlOf(op, path, query), headers: m.headers, payload: m.payload };
      };

      if (role === 'crossMember') {
        // Member a names member b's entities (and only those are b's): refused as if they did not exist.
        const bBase = baseOf(op, w, w.ids.b, 'user');
        const owned = [...(MEMBER_OWNED_BODY[op.operationId] ?? []), ...(MEMBER_OWNED_QUERY[op.operationId] ?? [])];
        const body = { ...base.body };
        for (const k of owned) if (bBase.body && k in bBase.body) body[k] = bBase.body[k];
        const query = { ...base.query };
        for (const k of owned) if (k in bBase.query) query[k] = bBase.query[k]!;
        const path = MEMBER_OWNED_PATH.has(op.operationId) ? bBase.path : base.path;
        const req = base.media === 'application/json' ? jsonReq(body, {}, path, query) : withBody(path, query);
        list.push({
          op,
          role,
          what: "member b's ids, sent by member a",
          kind: "another member's ids",
          request: req,
          invalid: op.method !== 'GET' || MEMBER_OWNED_PATH.has(op.operationId),
        });
        // One owned field at a time, where there are several.
        if (owned.length > 1 && base.media === 'application/json')
          for (const k of owned)
            list.push({
              op,
              role,
              what: `member b's ${k}, sent by member a`,
              kind: "another member's ids",
              request: jsonReq({ ...base.body, [k]: bBase.body![k] }),
              invalid: true,
            });
        cases.push(...tokenFor(list, caller));
        continue;
      }

      // Path parameters.
      for (const p of parametersOf(op).filter((x) => x.in === 'path')) {
        const values = rnd.sample(badUrlValues(p.schema), opts.perField);
        values.push({ v: (p.schema.type === 'integer' ? '1' : 'x').repeat(LONG_PATH), kind: 'path parameter over 100 characters' });
        for (const { v, kind } of values) {
          if (v === '' && op.path.endsWith(`{${p.name}}`)) continue; // an empty last segment is another URL, not this operation
          const bad = urlInvalid(p.schema, v);
          push({ what: `path ${p.name} = ${show(v)}`, kind, request: withBody({ ...base.path, [p.name]: v }), invalid: bad });
        }
      }
      // Query parameters.
      for (const p of parametersOf(op).filter((x) => x.in === 'query')) {
        const values = rnd.sample(badUrlValues(p.schema), opts.perField);
        if (!mbSent && p.schema.type === 'string' && !writes) {
          values.push({ v: MB, kind: '1 MB string' });
          mbSent = true;
        }
        for (const { v, kind } of values)
          push({ what: `query ${p.name} = ${show(v)}`, kind, request: withBody(base.path, { ...base.query, [p.name]: v }), invalid: urlInvalid(p.schema, v) });
        if (p.required) {
          const { [p.name]: _gone, ...rest } = base.query;
          push({ what: `query ${p.name} missing`, kind: 'missing required field', request: withBody(base.path, rest), invalid: true });
        }
      }
      // The stream with a token that is no session: refused before it opens.
      if (endless && allowed)
        push({
          what: 'x-token that is no session',
          kind: 'bad session token',
          request: { ...plain(), headers: { 'x-token': 'no-such-session' } },
          invalid: true,
        });
      // Query keys that are not parameters (ignored, never a crash).
      if (!writes)
        push({
          what: 'query __proto__ and constructor keys',
          kind: '__proto__ key (query)',
          request: plain(base.path, base.query, '__proto__=1&constructor%5Bprototype%5D%5Bx%5D=1&__proto__%5Bx%5D=1'),
          invalid: false,
        });

      // The body.
      if (base.media === 'application/json') {
        const schema = requestSchemaOf(op, base.media)!;
        const props = (schema.properties ?? {}) as Record<string, Json>;
        const required = (schema.required ?? []) as string[];
        for (const [name, raw] of Object.entries(props)) {
          const ps = resolveSchema(raw);
          for (const { v, kind } of rnd.sample(badJsonValues(ps), opts.perField)) {
            if (kind === '1 MB string' && mbSent) continue;
            if (kind === '1 MB string') mbSent = true;
            const value =
              v === 'dup'
                ? [...((base.body![name] as unknown[] | undefined) ?? [1]), ...((base.body![name] as unknown[] | undefined) ?? [1])]
                : v === 'toolong'
                  ? Array.from({ length: Number(ps.maxItems) + 1 }, (_, i) => i + 1)
                  : v;
            const body = { ...base.body, [name]: value };
            push({ what: `body ${name} = ${show(value)}`, kind, request: jsonReq(body), invalid: jsonInvalid(schema, body) });
          }
          if (required.includes(name)) {
            const { [name]: _gone, ...rest } = base.body!;
            push({ what: `body ${name} missing`, kind: 'missing required field', request: jsonReq(rest), invalid: true });
          }
          // Objects inside arrays (scan lines, withdraw lines): their fields too.
          const items = ps.type === 'array' && ps.items ? resolveSchema(ps.items as Json) : undefined;
          const first = (base.body![name] as Json[] | undefined)?.[0];
          if (items?.type === 'object' && first) {
            for (const [sub, subRaw] of Object.entries((items.properties ?? {}) as Record<string, Json>)) {
              for (const { v, kind } of rnd.sample(badJsonValues(resolveSchema(subRaw)), Math.ceil(opts.perField / 2))) {
                if (kind === '1 MB string') continue;
                const body = { ...base.body, [name]: [{ ...first, [sub]: v }] };
                push({ what: `body ${name}[0].${sub} = ${show(v)}`, kind, request: jsonReq(body), invalid: jsonInvalid(schema, body) });
              }
            }
            push({
              what: `body ${name}[0] with an extra field`,
              kind: 'extra field',
              request: jsonReq({ ...base.body, [name]: [{ ...first, zzz: 1 }] }),
              invalid: true,
            });
            const poisoned = new RawJson(`{"__proto__":{"x":1},${jsonText(first).slice(1)}`);
            push({
              what: `body ${name}[0] with a __proto__ key`,
              kind: '__proto__ key (JSON)',
              request: jsonReq({ ...base.body, [name]: [poisoned] }),
              invalid: true,
            });
          }
        }
        const whole: { what: string; kind: string; payload: string | Buffer; type?: string; expect?: number[] }[] = [
          { what: 'an extra field', kind: 'extra field', payload: jsonText({ ...base.body, zzz: 1 }) },
          { what: 'a __proto__ key', kind: '__proto__ key (JSON)', payload: `{"__proto__":{"x":1},${jsonText(base.body).slice(1)}`.replace(',}', '}') },
          {
            what: 'a constructor.prototype key',
            kind: '__proto__ key (JSON)',
            payload: `{"constructor":{"prototype":{"x":1}},${jsonText(base.body).slice(1)}`.replace(',}', '}'),
          },
          { what: 'truncated JSON', kind: 'malformed JSON', payload: jsonText(base.body).slice(0, -1) },
          { what: 'a trailing comma', kind: 'malformed JSON', payload: `${jsonText(base.body).slice(0, -1)},}` },
          { what: 'an empty body', kind: 'malformed JSON', payload: '' },
          { what: 'null', kind: 'malformed JSON', payload: 'null' },
          { what: 'an array', kind: 'malformed JSON', payload: '[]' },
          { what: 'a string', kind: 'malformed JSON', payload: '"x"' },
          { what: 'bytes that are not UTF-8', kind: 'malformed JSON', payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
          { what: '10,000 nested arrays', kind: 'malformed JSON', payload: `${'['.repeat(10_000)}${']'.repeat(10_000)}` },
          { what: 'text/plain', kind: 'wrong content type', payload: jsonText(base.body), type: 'text/plain' },
          { what: 'application/xml', kind: 'wrong content type', payload: '<a/>', type: 'application/xml' },
          {
            what: 'a form body',
            kind: 'wrong content type',
            payload: formText(Object.fromEntries(Object.entries(base.body!).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]))),
            type: 'application/x-www-form-urlencoded',
          },
          {
            what: 'multipart',
            kind: 'wrong content type',
            payload: multipartOf([{ name: 'x', data: '1' }]),
            type: 'multipart/form-data; boundary=----ph-fuzz-boundary',
          },
          {
            what: 'JSON in UTF-16',
            kind: 'wrong content type',
            payload: Buffer.from(`\ufeff${jsonText(base.body)}`, 'utf16le'),
            type: 'application/json; charset=utf-16',
          },
          { what: 'no content type', kind: 'wrong content type', payload: jsonText(base.body), type: '' },
        ];
        for (const c of rnd.sample(whole, opts.perRequest))
          push({
            what: `body: ${c.what}`,
            kind: c.kind,
            request: {
              method: op.method as 'POST',
              url: urlOf(op, base.path, base.query),
              headers: c.type === '' ? {} : { 'content-type': c.type ?? 'application/json' },
              payload: c.payload,
            },
            invalid: true,
          });
      } else if (base.media === 'application/x-www-form-urlencoded') {
        const schema = requestSchemaOf(op, base.media)!;
        const url = urlOf(op, base.path, base.query);
        const form = (payload: string, type = base.media!): InjectOptions => ({ method: op.method as 'POST', url, headers: { 'content-type': type }, payload });
        for (const name of Object.keys((schema.properties ?? {}) as Json)) {
          const values: { v: string; kind: string }[] = [
            { v: '%00', kind: 'NUL' },
            { v: 'a%00b%40x.test', kind: 'NUL' },
            { v: 'a%1Bb', kind: 'control character' },
            { v: '%ED%A0%80', kind: 'lone surrogate (invalid UTF-8)' },
            { v: '%FF', kind: 'invalid UTF-8' },
            { v: '', kind: 'empty' },
            { v: 'x'.repeat(20_001), kind: 'string over maxLength' },
            { v: MB, kind: '1 MB string' },
          ];
          for (const { v, kind } of rnd.sample(values, opts.perField)) {
            let text: string | undefined;
            try {
              text = decodeURIComponent(v);
            } catch {
              text = undefined;
            }
            const body = { ...base.body, [name]: text };
            push({
              what: `form ${name} = ${show(new RawUrl(v))}`,
              kind,
              request: form(formText(base.body!, { [name]: v })),
              invalid: text === undefined || jsonInvalid(schema, body),
            });
          }
          push({ what: `form ${name} missing`, kind: 'missing required field', request: form(''), invalid: true });
        }
        push({ what: 'form with an extra field', kind: 'extra field', request: form(`${formText(base.body!)}&zzz=1`), invalid: true });
        push({ what: 'form with a __proto__ key', kind: '__proto__ key (form)', request: form(`__proto__=1&${formText(base.body!)}`), invalid: true });
        push({ what: 'form with a constructor key', kind: '__proto__ key (form)', request: form(`constructor=1&${formText(base.body!)}`), invalid: true });
        push({ what: 'form as JSON', kind: 'wrong content type', request: form(jsonText(base.body), 'application/json'), invalid: true });
        push({ what: 'form as text/plain', kind: 'wrong content type', request: form(formText(base.body!), 'text/plain'), invalid: true });
      } else if (base.media === 'multipart/form-data') {
        const url = urlOf(op, base.path, base.query);
        const xlsx = workbookFor(op);
        const file = { name: 'file', filename: 'upload.xlsx', data: xlsx, type: XLSX_MIME };
        const B = '----ph-fuzz-boundary';
        const mp = (payload: Buffer, type = `multipart/form-data; boundary=${B}`): InjectOptions => ({
          method: op.method as 'POST',
          url,
          headers: { 'content-type': type },
          payload,
        });
        const all: { what: string; kind: string; req: InjectOptions; expect?: number[] }[] = [
          { what: 'multipart without a boundary', kind: 'multipart without boundary', req: mp(multipartOf([file]), 'multipart/form-data'), expect: [400] },
          {
            what: 'multipart whose boundary is not in the body',
            kind: 'multipart without boundary',
            req: mp(multipartOf([file]), 'multipart/form-data; boundary=other'),
          },
          { what: 'two files', kind: 'two files', req: mp(multipartOf([file, { ...file, name: 'file2' }])), expect: [400] },
          { what: 'the file twice', kind: 'two files', req: mp(multipartOf([file, file])), expect: [400] },
          { what: 'a __proto__ field', kind: '__proto__ key (multipart)', req: mp(multipartOf([{ name: '__proto__', data: '1' }, file])), expect: [400] },
          { what: 'the file under __proto__', kind: '__proto__ key (multipart)', req: mp(multipartOf([{ ...file, name: '__proto__' }])), expect: [400] },
          { what: 'a constructor field', kind: '__proto__ key (multipart)', req: mp(multipartOf([{ name: 'constructor', data: '1' }, file])), expect: [400] },
          { what: 'file as a text field', kind: 'no file', req: mp(multipartOf([{ name: 'file', data: 'upload.xlsx' }])) },
          { what: 'no parts', kind: 'no file', req: mp(multipartOf([])) },
          { what: 'an extra field beside the file', kind: 'extra field', req: mp(multipartOf([{ name: 'note', data: '1' }, file])) },
          {
            what: '25 fields',
            kind: 'too many fields',
            req: mp(multipartOf([...Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, data: '1' })), file])),
            expect: [400, 413],
          },
          {
            what: 'a file that is not a workbook',
            kind: 'not a workbook',
            req: mp(multipartOf([{ ...file, data: Buffer.from('PK\u0003\u0004 not really a zip') }])),
          },
          { what: 'an empty file', kind: 'not a workbook', req: mp(multipartOf([{ ...file, data: Buffer.alloc(0) }])) },
          { what: 'a truncated body', kind: 'malformed multipart', req: mp(multipartOf([file]).subarray(0, 200)) },
          { what: 'NUL in the field name', kind: 'NUL', req: mp(multipartOf([{ ...file, name: 'fi\u0000le' }])) },
          {
            what: 'JSON instead of multipart',
            kind: 'wrong content type',
            req: { method: op.method as 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"file":"x"}' },
          },
          {
            what: 'the file as the raw body',
            kind: 'wrong content type',
            req: { method: op.method as 'POST', url, headers: { 'content-type': XLSX_MIME }, payload: xlsx },
          },
        ];
        // A file that reaches the sheet parser costs a worker thread (0.2-2.5 s on a busy machine):
        // one such case in the whole run (the upload tests try hostile files).
        const parsed = (k: string) => k === 'not a workbook';
        const pool = all.filter((c) => !parsed(c.kind) || (allowed && !parsedOnce));
        for (const c of rnd.sample(pool, opts.perRequest)) {
          if (parsed(c.kind) && allowed) {
            if (parsedOnce) continue;
            parsedOnce = true;
          }
          push({ what: c.what, kind: c.kind, request: c.req, invalid: true, ...(c.expect ? { expect: c.expect } : {}) });
        }
      } else if (op.method !== 'GET') {
        // No body is declared: a body that cannot be read is refused before anything runs (one
        // that can be read, even with a __proto__ key, is ignored, so it is not sent: the write would run).
        const url = urlOf(op, base.path, base.query);
        push({
          what: 'malformed JSON body',
          kind: 'malformed JSON',
          request: { method: op.method as 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"a":' },
          invalid: true,
        });
        push({
          what: 'application/xml body',
          kind: 'wrong content type',
          request: { method: op.method as 'POST', url, headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
          invalid: true,
        });
      }

      // No body at all (no Content-Type either, as `curl -X POST` sends) where the contract requires
      // one, whatever its media type: every such operation and role, 400 A00001 (not drawn: the
      // Content-Type cases above all carry a body, and this one once reached handlers as undefined).
      if (op.bodyRequired)
        push({
          what: 'no body',
          kind: 'no body',
          request: { method: op.method as 'POST', url: urlOf(op, base.path, base.query) },
          invalid: true,
          expect: [400],
        });

      // Headers: a session token that is not one, on a request that is refused anyway (once per operation).
      const anyBad = list.find((c) => c.invalid);
      if (anyBad && allowed && !tokenTried.has(op.operationId)) {
        tokenTried.add(op.operationId);
        for (const [what, token] of [
          ['x-token of 8 KB', 'x'.repeat(8192)],
          ['x-token with spaces and Latin-1', ' é\u00ff token '],
        ] as const)
          list.push({
            ...anyBad,
            what: `${anyBad.what}; ${what}`,
            kind: 'bad session token',
            request: { ...anyBad.request, headers: { ...anyBad.request.headers, 'x-token': token } },
          });
      }

      let chosen = list;
      if (!allowed)
        chosen = rnd.sample(
          list.filter((c) => c.invalid),
          opts.perOutsider,
        );
      cases.push(...tokenFor(chosen, caller));
      if (chosen.length) done.add(op.operationId);
    }
  }
  return { cases, operations: done.size };

  /** Who signs the cases (the session is added when the case is sent); a case with its own x-token keeps it. */
  function tokenFor(list: Case[], caller: Role): Case[] {
    if (caller === 'anonymous') return list;
    return list.map((c) => (c.request.headers && 'x-token' in c.request.headers ? c : { ...c, caller }));
  }
}

/** A short form of a value for the report (long strings and arrays cut before they are serialized). */
function show(v: unknown): string {
  if (v instanceof RawUrl) return v.text.length > 40 ? `${v.text.slice(0, 20)}...(${v.text.length} chars)` : v.text;
  if (v instanceof RawJson) return v.text;
  if (typeof v === 'string') return v.length > 40 ? `${JSON.stringify(v.slice(0, 20))}...(${v.length} chars)` : JSON.stringify(v);
  if (Array.isArray(v) && v.length > 10) return `${jsonText(v.slice(0, 3)).slice(0, -1)},...(${v.length} items)]`;
  const text = jsonText(v);
  return text.length > 60 ? `${text.slice(0, 30)}...(${text.length} chars)` : text;
}
