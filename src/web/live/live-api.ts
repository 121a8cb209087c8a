// The call behind live updates: GET /api/events read as a stream. Through the one API client, so
// the session token travels in its x-token header as on every call (EventSource cannot send a
// header, and the token never goes into a URL) and a 401 still signals the session. Silent: the
// stream comes and goes on its own, and a page says nothing about it.
import type { ApiClient } from '../../api/client';
import type { components } from '../../api/schema';

export type LiveEvent = components['schemas']['LiveEvent'];
export type LiveKind = LiveEvent['kind'];
/** Every kind the contract names (LiveEvent.kind): a Record, so the compiler fails here when the contract gains one. */
const KNOWN_KINDS: Record<LiveKind, true> = { task: true, apply: true, withdraw: true, claim: true };
export const LIVE_KINDS = Object.keys(KNOWN_KINDS) as readonly LiveKind[];

/** The stream's body, or the HTTP status it was refused with (0: no answer). */
export type LiveOpening = { ok: true; body: ReadableStream<Uint8Array> } | { ok: false; status: number };

export async function openLiveStream(api: ApiClient, signal: AbortSignal): Promise<LiveOpening> {
  try {
    const { data, response } = await api.GET('/api/events', { parseAs: 'stream', signal, silent: true });
    return response.ok && data ? { ok: true, body: data } : { ok: false, status: response.status };
  } catch {
    return { ok: false, status: 0 };
  }
}
