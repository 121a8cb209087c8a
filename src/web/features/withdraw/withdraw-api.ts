// The calls behind the withdraw screens (SPEC §2 /user/withdraw-request, /user/withdraw-orders,
// /admin/withdraw-list; §7 "Withdraw", the balance, the withdrawable applications, the files):
// - the member's lists (requests, orders) are silent and throw their failure (LoadFailure,
//   lib/list-route.ts): the page says it in place of the table; other reads answer an empty result
//   on failure (the client has shown why);
// - changes are silent and return an outcome: each screen words its own toast (SPEC §8). A refusal
//   is an error code (the server refuses what machines/withdraw.machine.ts refuses) or a result
//   whose status is not 'succ'; the card reveal and bulk pay carry what the dialog and page show;
// - files: the Excel export (token kind withdraw, admin only, the filters on the link) and the
//   payment file (a token for the selection) are links the client toasts a refusal of; the confirm
//   upload is multipart through api.upload with byte progress.
import { multipartBody, type ApiClient } from '../../../api/client';
import { anyResult, outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components, operations } from '../../../api/schema';
import { AWAITING_RECEIPT_PAYMENT_STATUS } from '../../../../machines/payment.machine';
import type { UploadExcelOptions, UploadOutcome } from '../../lib/excel-upload';
import { loadedOrThrow } from '../../lib/list-route';

type Schemas = components['schemas'];
export type WithdrawRequest = Schemas['WithdrawRequest'];
export type WithdrawRequestPage = Schemas['WithdrawRequestPage'];
export type WithdrawSubmitRequest = Schemas['WithdrawSubmitRequest'];
export type WithdrawLine = Schemas['WithdrawLine'];
export type BankCard = Schemas['BankCard'];
export type PaymentApply = Schemas['PaymentApply'];
export type AppUser = Schemas['User'];
export type WithdrawCardDetails = Schemas['WithdrawCardDetails'];
export type BatchPayRow = Schemas['BatchPayRow'];
/** What the payment file selects when no line is chosen: the list's filters (only waited lines are written). */
export type PaymentFileFilters = Omit<Schemas['PaymentFileRequest'], 'ids' | 'timezone'>;

type Paged = { page: number; size: number; isDesc: boolean };
export type WithdrawListQuery = NonNullable<operations['listWithdrawRequests']['parameters']['query']> & Paged;
export type WithdrawOrdersQuery = NonNullable<operations['listWithdrawOrders']['parameters']['query']> & Paged;
export type AdminWithdrawListQuery = NonNullable<operations['listAdminWithdrawRequests']['parameters']['query']> & Paged;
/** The admin list's filters without paging: what the export link carries. */
export type WithdrawExportFilters = Omit<AdminWithdrawListQuery, 'page' | 'size'>;

/** What a change came to; `msg` is the server's words ('' when it gave none). */
export type Outcome = ApiOutcome<unknown>;

// ---------------------------------------------------------------- reads

const EMPTY_PAGE: WithdrawRequestPage = { content: [], totalPages: 0 };

export const EMPTY_LINE_PAGE: WithdrawRequestPage = EMPTY_PAGE;

/** GET /api/withdraw/user/requests: the member's withdraw lines with the filters; a failure is thrown. */
export async function loadWithdrawRequests(api: ApiClient, query: WithdrawListQuery): Promise<WithdrawRequestPage> {
  const outcome = await outcomeOf(api.GET('/api/withdraw/user/requests', { params: { query }, silent: true }), { noAnswer: 'fail' });
  return loadedOrThrow(outcome)?.requestPage ?? EMPTY_PAGE;
}

/** GET /api/withdraw/user/request/orders: the member's orders, one row per line (orderId the only filter); a failure is thrown. */
export async function loadWithdrawOrders(api: ApiClient, query: WithdrawOrdersQuery): Promise<WithdrawRequestPage> {
  const outcome = await outcomeOf(api.GET('/api/withdraw/user/request/orders', { params: { query }, silent: true }), { noAnswer: 'fail' });
  return loadedOrThrow(outcome)?.requestOrders ?? EMPTY_PAGE;
}

/** How many of the member's applications are paid and wait for their receipt to be confirmed (0 when it could not be read). */
export async function loadAwaitingReceipt(api: ApiClient): Promise<number> {
  const outcome = await outcomeOf(
    api.GET('/api/apply/list/page', { params: { query: { status: AWAITING_RECEIPT_PAYMENT_STATUS, page: 0, size: 1 } }, silent: true }),
    {
      noAnswer: 'fail',
    },
  );
  return outcome.ok ? (outcome.data?.totalPages ?? 0) : 0;
}

/** GET /api/apply/list/page?orderId=: the applications withdraw order `orderId` pays (the member's own). */
export async function loadOrderApplies(api: ApiClient, orderId: number): Promise<ApiOutcome<PaymentApply[]>> {
  const outcome = await outcomeOf(api.GET('/api/apply/list/page', { params: { query: { orderId, page: 0, size: 1000, isDesc: false } }, silent: true }), {
    noAnswer: 'fail',
  });
  return outcome.ok ? { ...outcome, data: outcome.data?.content ?? [] } : outcome;
}

/** GET /api/withdraw/admin/requests: every member's withdraw lines with the filters. */
export async function loadAdminWithdrawRequests(api: ApiClient, query: AdminWithdrawListQuery): Promise<WithdrawRequestPage> {
  const outcome = await outcomeOf(api.GET('/api/withdraw/admin/requests', { params: { query } }));
  return outcome.ok ? (outcome.data?.requestPage ?? EMPTY_PAGE) : EMPTY_PAGE;
}

/** GET /api/user/balance: what the member may still withdraw; null when it could not be read. */
export async function loadBalance(api: ApiClient): Promise<number | null> {
  const outcome = await outcomeOf(api.GET('/api/user/balance'));
  return outcome.ok ? (outcome.data?.balance ?? null) : null;
}

/** GET /api/withdraw/user/show/cards: the member's own live cards (masked). */
export async function loadOwnCards(api: ApiClient): Promise<BankCard[]> {
  const outcome = await outcomeOf(api.GET('/api/withdraw/user/show/cards'));
  return outcome.ok ? (outcome.data?.userCardList ?? []) : [];
}

/** GET /api/apply/user/withdraw: the member's agreed applications not yet in a withdraw. */
export async function loadWithdrawableApplies(api: ApiClient): Promise<PaymentApply[]> {
  const outcome = await outcomeOf(api.GET('/api/apply/user/withdraw'));
  return outcome.ok ? (outcome.data?.paymentApplies ?? []) : [];
}

// ---------------------------------------------------------------- the member's changes

/** POST /api/withdraw/user/request {requests, taskIds}. */
export function requestWithdraw(api: ApiClient, body: WithdrawSubmitRequest): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/user/request', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/withdraw/user/cancel/order {orderId}: the whole order asks to be cancelled. */
export function cancelWithdrawOrder(api: ApiClient, orderId: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/user/cancel/order', { body: { orderId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/withdraw/user/paid/request {id}. */
export function markWithdrawPaid(api: ApiClient, id: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/user/paid/request', { body: { id }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/withdraw/user/change/card {requestId, cardId}. */
export function changeWithdrawCard(api: ApiClient, requestId: number, cardId: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/user/change/card', { body: { requestId, cardId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

// ---------------------------------------------------------------- the admin's changes

/** POST /api/withdraw/admin/agree/cancel {orderId}. */
export function agreeWithdrawCancel(api: ApiClient, orderId: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/admin/agree/cancel', { body: { orderId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/withdraw/admin/reject/cancel {orderId}. */
export function rejectWithdrawCancel(api: ApiClient, orderId: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/admin/reject/cancel', { body: { orderId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/withdraw/admin/paid {id}. */
export function payWithdrawRequest(api: ApiClient, id: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/admin/paid', { body: { id }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/**
 * POST /api/withdraw/admin/card/reveal {id}: the full payout details of the line's card (written to
 * the admin log by the server). A failure carries its code and words for the dialog to show.
 */
export function revealWithdrawCard(api: ApiClient, id: number): Promise<ApiOutcome<WithdrawCardDetails>> {
  return outcomeOf(api.POST('/api/withdraw/admin/card/reveal', { body: { id }, silent: true }), { succeeded: anyResult, noAnswer: 'fail' });
}

/** What a bulk pay came to: all paid, or none (then `refused` says which lines and why). */
export interface BatchPayOutcome {
  ok: boolean;
  /** The server's words ('' when it gave none). */
  msg: string;
  refused: BatchPayRow[];
}

/** POST /api/withdraw/admin/paid/batch {ids}: every line through the machine's pay, all or nothing. */
export async function payWithdrawRequests(api: ApiClient, ids: number[]): Promise<BatchPayOutcome> {
  const outcome = await outcomeOf(api.POST('/api/withdraw/admin/paid/batch', { body: { ids }, silent: true }), { succeeded: anyResult, noAnswer: 'fail' });
  if (!outcome.ok) return { ok: false, msg: outcome.msg, refused: [] };
  const result = outcome.data;
  return { ok: saysSucc(result), msg: result.msg || outcome.msg, refused: (result.rows ?? []).filter((row) => !row.ok) };
}

/** POST /api/withdraw/admin/adminnote/save {requestId, adminNote, adminNote2}: answers the line. */
export function saveWithdrawAdminNote(api: ApiClient, requestId: number, notes: { adminNote: string; adminNote2: string }): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/admin/adminnote/save', { body: { requestId, ...notes }, silent: true }), { noAnswer: 'fail' });
}

// ---------------------------------------------------------------- files

/**
 * The Excel export of the withdraw lines the admin list's filters select: a download token for kind
 * withdraw (its timezone sets the file's times), then /ext/excel/withdraw/{token} with the filters
 * on the link. Null when no token came (the client has shown why).
 */
export async function withdrawExcelUrl(api: ApiClient, filters: WithdrawExportFilters, timezone: number): Promise<string | null> {
  const outcome = await outcomeOf(api.GET('/api/download/excel/{kind}/token', { params: { path: { kind: 'withdraw' }, query: { timezone } } }));
  const token = outcome.ok ? outcome.data?.token : undefined;
  if (!token) return null;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined) query.set(key, String(value));
  const search = query.toString();
  return `/ext/excel/withdraw/${encodeURIComponent(token)}${search ? `?${search}` : ''}`;
}

/** A payment file ready to download: its link and how many waited lines it holds. */
export interface PaymentFile {
  url: string;
  count: number;
}

/**
 * The payment file (full payout details) of the chosen lines, or of every waited line the filters
 * select: a token for that selection, then /ext/excel/withdraw-payment/{token}. The contract takes
 * whole hours, so a half-hour offset is rounded. Null when no token came (the client has said why).
 */
export async function withdrawPaymentFile(api: ApiClient, selection: { ids: number[] } | PaymentFileFilters, timezone: number): Promise<PaymentFile | null> {
  const body = { ...selection, timezone: Math.round(timezone) };
  const outcome = await outcomeOf(api.POST('/api/withdraw/admin/payment-file/token', { body }));
  const token = outcome.ok ? outcome.data?.token : undefined;
  if (!outcome.ok || !token) return null;
  return { url: `/ext/excel/withdraw-payment/${encodeURIComponent(token)}`, count: outcome.data?.count ?? 0 };
}

/**
 * POST /api/withdraw/admin/confirm (multipart, field `file`): the lines of the file are marked paid,
 * all or nothing; the answer reports every row (error > 0: nothing was changed). Rejects only on no
 * answer or abort.
 */
export async function confirmWithdrawUpload(api: ApiClient, file: File, options: UploadExcelOptions = {}): Promise<UploadOutcome> {
  return outcomeOf(api.upload('/api/withdraw/admin/confirm', multipartBody({ file }), { silent: true, ...options }), { succeeded: anyResult });
}
