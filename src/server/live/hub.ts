// Live updates, the reading side (docs/decisions/016-live-updates.md): this process's open event
// streams, fed by LISTEN on the database (what publishLive notified, from any process on it). Each
// hint goes to the streams of its audience only: a member's to that member's streams, a claim's to
// the admin side's. A revocation (logout, password reset, role change: auth/sessions.ts, heard from
// any process on the session channel, in commit order with the hints) ends the streams concerned at
// once, before any hint committed after it is dispatched; keep-alive comments hold proxies open and
// re-check the session (expiry); a client that does not read is dropped rather than buffered; a
// user holds at most LIVE_STREAMS_PER_USER streams; stopping the server ends every stream first.
import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { listenerOf, type Db } from '../db/client.ts';
import type { Revoked, SessionCache } from '../auth/sessions.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { tooMany } from '../errors.ts';
import { LIVE_CHANNEL, parsePayload, type LiveEvent } from './publish.ts';

/** Streams one user may hold at once (tabs, devices); one more answers 429. */
export const LIVE_STREAMS_PER_USER = 8;
/** Between keep-alive comments (proxies commonly end a response silent for 60 s). */
export const LIVE_KEEP_ALIVE_MS = 20_000;
/** Bytes a client may leave unread before its stream ends (it reconnects and reads everything again). */
const MAX_UNREAD = 256 * 1024;

export const liveMessages = {
  tooMany: `实时更新的连接过多（每个账户最多${LIVE_STREAMS_PER_USER}个），请关闭其他页面后再试`,
} as const;

const isAdminSide = (user: SessionUser) => user.roleType !== 'user';

interface Stream {
  user: SessionUser;
  token: string;
  out: PassThrough;
}

export interface LiveHubOptions {
  db: Db;
  sessions: SessionCache;
  log: FastifyBaseLogger;
  keepAliveMs?: number;
  perUser?: number;
}

export class LiveHub {
  private readonly streams = new Set<Stream>();
  private readonly byUser = new Map<number, Set<Stream>>();
  private listening: Promise<() => Promise<void>> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly unobserve: () => void;

  constructor(private readonly opts: LiveHubOptions) {
    this.unobserve = opts.sessions.onRevoked((revoked) => this.revoked(revoked));
  }

  /** Streams open in this process (tests, diagnostics). */
  get size(): number {
    return this.streams.size;
  }

  /**
   * A new stream for `user` (signed in with `token`): it says `ready` once this process listens, so
   * nothing committed after the client saw `ready` is missed. Refused with 429 beyond the per-user
   * cap. While the server stops, the stream ends at once (the client reconnects elsewhere later).
   */
  async open(user: SessionUser, token: string): Promise<PassThrough> {
    const out = new PassThrough();
    const perUser = this.opts.perUser ?? LIVE_STREAMS_PER_USER;
    if ((this.byUser.get(user.id)?.size ?? 0) >= perUser) throw tooMany(liveMessages.tooMany);
    if (!this.closing) await this.listen();
    if (this.closing) {
      out.end();
      return out;
    }
    if ((this.byUser.get(user.id)?.size ?? 0) >= perUser) throw tooMany(liveMessages.tooMany);
    const stream: Stream = { user, token, out };
    this.streams.add(stream);
    let mine = this.byUser.get(user.id);
    if (!mine) this.byUser.set(user.id, (mine = new Set()));
    mine.add(stream);
    // The client went away (the response closed) or the stream was ended here.
    out.on('close', () => this.forget(stream));
    out.write(message('ready', {}));
    // A revocation heard between the request's session check and here ended nothing: checked once
    // more now that the stream hears every later one.
    void this.sessionHolds(stream);
    this.timer ??= setInterval(() => void this.keepAlive(), this.opts.keepAliveMs ?? LIVE_KEEP_ALIVE_MS);
    this.timer.unref();
    return out;
  }

  /** Ends every stream and takes no more (the server is stopping: Fastify's preClose). */
  closeStreams(): void {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const s of [...this.streams]) this.end(s);
  }

  /** closeStreams, then stops listening (Fastify's onClose: before the database closes). */
  async stop(): Promise<void> {
    this.closeStreams();
    this.unobserve();
    const listening = this.listening;
    this.listening = null;
    const unlisten = await listening?.catch(() => null);
    await unlisten?.();
  }

  /** LISTEN once, on the first stream; a failure is the stream's error and the next stream tries again. */
  private listen(): Promise<unknown> {
    if (!this.listening) {
      const listen = listenerOf(this.opts.db);
      if (!listen) throw new Error('live updates need a database opened by openDatabase (it knows how to LISTEN)');
      this.listening = listen(LIVE_CHANNEL, {
        onPayload: (payload) => this.dispatch(payload),
        // Notifications may have been lost while the connection was down: every client re-reads.
        onResumed: () => {
          this.opts.log.info('live updates: listening again after the database connection was lost');
          for (const s of this.streams) this.write(s, message('ready', {}));
        },
      });
      this.listening.catch(() => (this.listening = null));
    }
    return this.listening;
  }

  private dispatch(payload: string): void {
    const groups = parsePayload(payload);
    if (!groups) {
      this.opts.log.warn('live updates: a notification that is not a payload was ignored');
      return;
    }
    for (const [to, kind, ids] of groups) {
      const event: LiveEvent = ids ? { kind, ids } : { kind };
      const text = message('change', event);
      if (to === 0) {
        for (const s of this.streams) if (isAdminSide(s.user)) this.write(s, text);
      } else {
        for (const s of this.byUser.get(to) ?? []) this.write(s, text);
      }
    }
  }

  private write(s: Stream, text: string): void {
    if (s.out.destroyed || s.out.writableEnded) return;
    if (s.out.readableLength + s.out.writableLength > MAX_UNREAD) {
      this.end(s);
      return;
    }
    s.out.write(text);
  }

  /**
   * Keep-alive, every LIVE_KEEP_ALIVE_MS: a comment to each stream whose session is still the one it
   * opened with; the others end. Public for the tests, which do not wait 20 s for it.
   */
  async keepAlive(): Promise<void> {
    for (const s of [...this.streams]) if (await this.sessionHolds(s)) this.write(s, ': ping\n\n');
  }

  /** Whether `s`'s session is still the one it opened with; ends it if not. */
  private async sessionHolds(s: Stream): Promise<boolean> {
    let now: SessionUser | null;
    try {
      now = await this.opts.sessions.resolve(s.token);
    } catch {
      return true; // the database did not answer: judge the session at the next tick
    }
    if (now && now.id === s.user.id && now.roleType === s.user.roleType) return true;
    this.end(s);
    return false;
  }

  /**
   * A revocation: the streams of the sessions ended and of the users changed end now (the client
   * reconnects, as whoever it now is). Unknown (null): every session is checked again.
   */
  private revoked(revoked: Revoked | null): void {
    if (!revoked) {
      void this.keepAlive();
      return;
    }
    const sessionIds = new Set(revoked.sessions ?? []);
    for (const userId of revoked.users ?? []) for (const s of [...(this.byUser.get(userId) ?? [])]) this.end(s);
    if (sessionIds.size) for (const s of [...this.streams]) if (sessionIds.has(s.user.sessionId)) this.end(s);
  }

  private end(s: Stream): void {
    this.forget(s);
    if (!s.out.writableEnded) s.out.end();
  }

  private forget(s: Stream): void {
    this.streams.delete(s);
    const mine = this.byUser.get(s.user.id);
    mine?.delete(s);
    if (mine && !mine.size) this.byUser.delete(s.user.id);
  }
}

/** One server-sent event. */
const message = (event: 'ready' | 'change', data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
