// The persistent mail outbox (DECISIONS "Mail"): mass mail (notice with isMail, board publishing,
// password resets) is written as rows in the same transaction as the change that causes them, and
// sent after the request has returned. A failed send is retried with exponential backoff; after
// MAX_ATTEMPTS the row is marked failed and kept for inspection.
// Each worker claims the rows it sends under its instance id, an advisory lock it holds for its
// lifetime (db/session-lock.ts): a row is sent by one worker at a time, and the claims of a worker
// whose lock is gone (its process crashed) are taken back at once instead of waiting out a lease.
import { and, eq, inArray, isNotNull, isNull, lte, ne, not, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { outbox } from '../db/schema/accounts.ts';
import { holdSessionLock, sessionLockHeld, type SessionLock } from '../db/session-lock.ts';
import type { MailMessage, MailTransportName, Mailer } from './mailer.ts';

export const MAX_ATTEMPTS = 8;
const BATCH = 20;
const POLL_MS = 5_000;
/** The advisory-lock namespace of outbox workers ('outb'). */
export const OUTBOX_LOCK_NAMESPACE = 0x6f757462;

export async function enqueueMail(tx: Tx, kind: string, msgs: MailMessage[], transport: MailTransportName = 'primary') {
  if (msgs.length === 0) return;
  await tx.insert(outbox).values(msgs.map((m) => ({ kind, transport, toAddr: m.to, subject: m.subject, text: m.text, html: m.html })));
}

export interface OutboxWorker {
  /** Ask for a run soon (after the current request has returned). */
  kick(): void;
  /** Send everything due now; resolves when the queue has no due rows. Used by tests and shutdown. */
  drain(): Promise<number>;
  /** Finishes the mail being sent, hands back the rest of its batch, and lets go of its claims. */
  stop(): Promise<void>;
  /** This worker's instance id (what its claims record), once it has one. */
  instanceId(): Promise<number>;
}

type OutboxRow = typeof outbox.$inferSelect;

/**
 * The worker's lock, taken on first use and again if its session was lost. Taking it frees the rows
 * an earlier holder of the same id (a worker now gone) had claimed.
 */
function lockKeeper(db: Db) {
  let lock: Promise<SessionLock> | undefined;
  async function take(): Promise<SessionLock> {
    const taken = await holdSessionLock(db, OUTBOX_LOCK_NAMESPACE);
    await db
      .update(outbox)
      .set({ claimedBy: null })
      .where(and(eq(outbox.status, 'pending'), eq(outbox.claimedBy, taken.key)));
    return taken;
  }
  async function own(): Promise<SessionLock> {
    const pending = (lock ??= take().catch((err: unknown) => {
      lock = undefined;
      throw err;
    }));
    const taken = await pending;
    if (taken.held()) return taken;
    if (lock === pending) lock = undefined;
    return own();
  }
  async function release() {
    const held = lock && (await lock.catch(() => undefined));
    lock = undefined;
    await held?.release();
  }
  return { own, release };
}

/**
 * Claims of workers that are gone: due again now (their send may or may not have happened; a crash
 * between the SMTP answer and the row's update is the one case that mails twice).
 */
const freeLostClaims = (db: Db, me: number) =>
  db
    .update(outbox)
    .set({ claimedBy: null })
    .where(
      and(eq(outbox.status, 'pending'), isNotNull(outbox.claimedBy), ne(outbox.claimedBy, me), not(sessionLockHeld(OUTBOX_LOCK_NAMESPACE, outbox.claimedBy))),
    );

/** Claims up to BATCH due rows for `me` (rows another worker is claiming are skipped, not waited for). */
const claimDue = (db: Db, me: number): Promise<OutboxRow[]> =>
  db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), isNull(outbox.claimedBy), lte(outbox.nextAttemptAt, new Date())))
      .orderBy(outbox.id)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (rows.length)
      await tx
        .update(outbox)
        .set({ claimedBy: me })
        .where(
          inArray(
            outbox.id,
            rows.map((r) => r.id),
          ),
        );
    return rows;
  });

/** Hands back claimed rows unsent. */
const release = (db: Db, me: number, ids: number[]) =>
  db
    .update(outbox)
    .set({ claimedBy: null })
    .where(and(inArray(outbox.id, ids), eq(outbox.claimedBy, me)));

/**
 * Sends one claimed row and records the outcome (only while `me` still claims it): sent, or due
 * again after an exponential backoff, or failed after MAX_ATTEMPTS. Answers whether it was sent.
 */
async function sendRow(db: Db, mailer: Mailer, log: FastifyBaseLogger, row: OutboxRow, me: number): Promise<boolean> {
  const mine = and(eq(outbox.id, row.id), eq(outbox.claimedBy, me));
  try {
    await mailer.send({ to: row.toAddr, subject: row.subject, text: row.text, html: row.html ?? undefined }, row.transport);
    await db
      .update(outbox)
      .set({ status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: null, claimedBy: null })
      .where(mine);
    return true;
  } catch (err) {
    const attempts = row.attempts + 1;
    const delayS = Math.min(3600, 15 * 2 ** (attempts - 1));
    log.warn({ err, outboxId: row.id, attempts }, 'outbox send failed');
    await db
      .update(outbox)
      .set({
        attempts,
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        lastError: String((err as Error).message ?? err).slice(0, 500),
        nextAttemptAt: sql`now() + make_interval(secs => ${delayS})`,
        claimedBy: null,
      })
      .where(mine);
    return false;
  }
}

export function startOutboxWorker(db: Db, mailer: Mailer, log: FastifyBaseLogger, opts: { pollMs?: number } = {}): OutboxWorker {
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  const lock = lockKeeper(db);

  /** Batch after batch until none is due; no more sends once stopping or once the lock is lost. */
  async function runOnce(): Promise<number> {
    if (stopped) return 0;
    const own = await lock.own();
    await freeLostClaims(db, own.key);
    let sent = 0;
    while (!stopped) {
      const due = await claimDue(db, own.key);
      if (due.length === 0) return sent;
      for (const [i, row] of due.entries()) {
        // (When the lock's session is lost others may take these rows at once.)
        if (stopped || !own.held()) {
          await release(
            db,
            own.key,
            due.slice(i).map((r) => r.id),
          );
          return sent;
        }
        if (await sendRow(db, mailer, log, row, own.key)) sent++;
      }
    }
    return sent;
  }

  /** One run at a time; a run asked for while one goes starts after it. */
  function run(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = runOnce()
      .catch((err) => {
        log.error({ err }, 'outbox run failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  }

  const timer = setInterval(() => void run(), opts.pollMs ?? POLL_MS).unref();

  return {
    kick() {
      if (!stopped) setImmediate(() => void run());
    },
    async drain() {
      // Through run()'s single flight until a pass finds nothing due and no run is in flight: a kick
      // during a run starts another after it (again), which may claim rows a pass of drain's missed.
      let sent = 0;
      for (;;) {
        while (running) await running;
        const n = await run();
        sent += n;
        if (n === 0 && !running) return sent;
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
      await lock.release();
    },
    async instanceId() {
      return (await lock.own()).key;
    },
  };
}

/** The mails waiting to be sent (first tries and retries) and the age of the oldest, in seconds (null when none waits). */
export async function outboxBacklog(db: Db): Promise<{ pending: number; oldestSeconds: number | null }> {
  const [row] = await db
    .select({ pending: sql<number>`count(*)::int`, oldestSeconds: sql<number | null>`extract(epoch from now() - min(${outbox.createdAt}))::float8` })
    .from(outbox)
    .where(eq(outbox.status, 'pending'));
  return {
    pending: Number(row?.pending ?? 0),
    oldestSeconds: row?.oldestSeconds === null || row?.oldestSeconds === undefined ? null : Number(row.oldestSeconds),
  };
}
