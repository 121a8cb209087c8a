// The persistent mail outbox (DECISIONS "Mail"): mass mail (notice with isMail, board publishing,
// password resets) is written as rows in the same transaction as the change that causes it, and
// sent after the request has returned. A failed send is retried with exponential backoff; after
// MAX_ATTEMPTS the row is marked failed and kept for inspection.
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { outbox } from '../db/schema/accounts.ts';
import type { MailMessage, MailTransportName, Mailer } from './mailer.ts';

export const MAX_ATTEMPTS = 8;
const BATCH = 20;
const POLL_MS = 5_000;

export async function enqueueMail(tx: Tx, kind: string, msgs: MailMessage[], transport: MailTransportName = 'primary') {
  if (msgs.length === 0) return;
  await tx.insert(outbox).values(msgs.map((m) => ({ kind, transport, toAddr: m.to, subject: m.subject, text: m.text, html: m.html })));
}

export interface OutboxWorker {
  /** Ask for a run soon (after the current request has returned). */
  kick(): void;
  /** Send everything due now; resolves when the queue has no due rows. Used by tests and shutdown. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export function startOutboxWorker(db: Db, mailer: Mailer, log: FastifyBaseLogger, opts: { pollMs?: number } = {}): OutboxWorker {
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  async function runOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      // Claim a batch by pushing its next attempt into the future, so a second worker skips it.
      const due = await db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(outbox)
          .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, new Date())))
          .orderBy(outbox.id)
          .limit(BATCH)
          .for('update', { skipLocked: true });
        if (rows.length)
          await tx
            .update(outbox)
            .set({ nextAttemptAt: sql`now() + interval '5 minutes'` })
            .where(inArray(outbox.id, rows.map((r) => r.id)));
        return rows;
      });
      if (due.length === 0) return sent;
      for (const row of due) {
        try {
          await mailer.send({ to: row.toAddr, subject: row.subject, text: row.text, html: row.html ?? undefined }, row.transport);
          await db.update(outbox).set({ status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: null }).where(eq(outbox.id, row.id));
          sent++;
        } catch (err) {
          const attempts = row.attempts + 1;
          const failed = attempts >= MAX_ATTEMPTS;
          const delayS = Math.min(3600, 15 * 2 ** (attempts - 1));
          log.warn({ err, outboxId: row.id, attempts }, 'outbox send failed');
          await db
            .update(outbox)
            .set({
              attempts,
              status: failed ? 'failed' : 'pending',
              lastError: String((err as Error).message ?? err).slice(0, 500),
              nextAttemptAt: sql`now() + make_interval(secs => ${delayS})`,
            })
            .where(eq(outbox.id, row.id));
        }
      }
    }
  }

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

  const timer = setInterval(() => void run(), opts.pollMs ?? POLL_MS);
  timer.unref();

  return {
    kick() {
      if (!stopped) setImmediate(() => void run());
    },
    async drain() {
      // Through run()'s single flight, pass after pass, until a pass finds nothing due and no run
      // is in flight: a kick that arrives while a run is going starts another run after it (again),
      // which would claim the new rows while a pass of drain's own, beside it, found none due.
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
    },
  };
}
