// The one way a feature reads what a call came to: `outcomeOf(api.GET(...))` (or api.POST, api.DELETE,
// api.upload) is the envelope's `data`, typed from the generated `paths`, with the server's words; or
// the SPEC §8 error {code, msg} with the HTTP status. The client has already done the rest of SPEC §8
// for the answer (its toasts unless the call was silent, the session signals); this only tells the
// caller what came back, so a feature never parses an envelope or casts its data.
// A state-changing call passes `succeeded` (SPEC §5: its result must say status succ, see saysSucc):
// an A00000 answer without a result, or whose result does not say so, is a failure with its words.
import { SUCCESS_CODE, serverWords } from './client';

/** An answer as openapi-fetch (and api.upload) resolve it. */
export interface ApiAnswer<D> {
  data?: D;
  error?: unknown;
  response?: Response;
  status?: number;
}

/** The `data` of a success envelope as the contract declares it (undefined where it is optional). */
export type EnvelopeData<D> = D extends { data: infer X } ? X : D extends { data?: infer X } ? X | undefined : undefined;

/** SPEC §8: what a failed call came to. */
export interface ApiError {
  /** The response code (A0000x); null when the answer had no envelope (a proxy's page) or never came. */
  code: string | null;
  /** The server's words; '' when it gave none. */
  msg: string;
  /** The HTTP status; 0 when no answer came. */
  status: number;
}

export type ApiOutcome<T> = { ok: true; data: T; msg: string; status: number } | ({ ok: false } & ApiError);

export interface OutcomeOptions {
  /**
   * A call that got no answer (offline, reset) rejects, as the client does, unless this is 'fail':
   * then it is a failure with code null, no words and status 0.
   */
  noAnswer?: 'reject' | 'fail';
}

export interface ChangeOptions<R> extends OutcomeOptions {
  /** A state-changing call: whether its result (present: a missing one is a failure) says it happened. */
  succeeded: (result: R) => boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function codeOf(body: unknown): string | null {
  const code = isRecord(body) ? body.code : undefined;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : null;
}

export function outcomeOf<D>(
  request: Promise<ApiAnswer<D>>,
  options: ChangeOptions<NonNullable<EnvelopeData<D>>>,
): Promise<ApiOutcome<NonNullable<EnvelopeData<D>>>>;
export function outcomeOf<D>(request: Promise<ApiAnswer<D>>, options?: OutcomeOptions): Promise<ApiOutcome<EnvelopeData<D>>>;
export async function outcomeOf<D>(
  request: Promise<ApiAnswer<D>>,
  options: OutcomeOptions & Partial<ChangeOptions<NonNullable<EnvelopeData<D>>>> = {},
): Promise<ApiOutcome<EnvelopeData<D>>> {
  let answer: ApiAnswer<D>;
  try {
    answer = await request;
  } catch (error) {
    if (options.noAnswer !== 'fail') throw error;
    return { ok: false, code: null, msg: '', status: 0 };
  }
  const status = answer.response?.status ?? answer.status ?? 0;
  const envelope = answer.data;
  if (answer.error !== undefined || !isRecord(envelope)) return { ok: false, code: codeOf(answer.error), msg: serverWords(answer.error), status };
  const code = codeOf(envelope);
  if (code !== null && code !== SUCCESS_CODE) return { ok: false, code, msg: serverWords(envelope), status };
  // The one place an envelope's data meets its type: openapi-fetch typed `envelope` from `paths`.
  const data = envelope.data as EnvelopeData<D>;
  const msg = serverWords(data) || serverWords(envelope);
  if (options.succeeded && (data === undefined || data === null || !options.succeeded(data))) return { ok: false, code, msg, status };
  return { ok: true, data, msg, status };
}

/** SPEC §5: a state-changing call happened when its result says status (a match: opStatus) 'succ'. */
export function saysSucc(result: { status?: unknown; opStatus?: unknown }): boolean {
  return (result.status ?? result.opStatus) === 'succ';
}

/** For a call whose result is its success (an upload's report, a saved record): any result will do. */
export function anyResult(): boolean {
  return true;
}
