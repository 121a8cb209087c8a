// The mail outbox across workers and crashes (src/server/mail/outbox.ts): a row is sent by one worker
// at a time, a crashed worker's rows are sent at once by the next one (not after a lease), a
// stopping worker hands back what it has not sent, and SMTP connections are reused. Two workers on
// one database stand for two server processes; a worker "crashes" when the session holding its
// advisory lock ends (on PostgreSQL its connection is terminated; PGlite has one session, where
// the lock is let go).
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/server/db/client.ts';
import { outbox } from '../../../src/server/db/schema/accounts.ts';
import { createMailer, type Mailer } from '../../../src/server/mail/mailer.ts';
import { enqueueMail, MAX_ATTEMPTS, OUTBOX_LOCK_NAMESPACE, startOutboxWorker, type OutboxWorker } from '../../../src/server/mail/outbox.ts';
import { dbDriver, useTestApp } from '../support/harness.ts';
import { useSmtpSink } from '../support/smtp-sink.ts';

const sink = useSmtpSink();
const t = useTestApp({ smtpUrl: () => sink.url });

const silent = pino({ level: 'silent' });
const mail = (n: number) => ({ to: `m${n}@x.test`, subject: `第${n}封`, text: `内容 ${n}` });

/**
 * A mailer whose sends wait until `finish` (a worker busy with its SMTP server), then go to the sink,
 * or fail (a process that died with the send in the air never records it).
 */
function gatedMailer(): Mailer & { finish(ok: boolean): void; started: Promise<void> } {
  const real = createMailer({ smtpUrl: sink.url, from: 'a@x.test', dataDir: t().mailDir, log: silent });
  let finish!: (ok: boolean) => void;
  const gate = new Promise<boolean>((r) => (finish = r));
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  return {
    async send(msg, transport) {
      started();
      if (!(await gate)) throw new Error('the process died');
      await real.send(msg, transport);
    },
    close: () => real.close(),
    finish,
    started: startedP,
  };
}

/** Ends the session holding `worker`'s lock, as the death of its process does. */
async function crash(worker: OutboxWorker) {
  const { db } = t().database;
  const id = await worker.instanceId();
  if (dbDriver() === 'pg') {
    await db.execute(
      sql`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and classid = ${OUTBOX_LOCK_NAMESPACE}::int8::oid and objid::int8 = ${id} and objsubid = 2`,
    );
  } else {
    await db.execute(sql`select pg_advisory_unlock(${OUTBOX_LOCK_NAMESPACE}, ${id})`);
  }
}

const rows = () => t().database.db.select().from(outbox).orderBy(outbox.id);

describe('outbox workers', () => {
  it('sends at once the rows a crashed worker had claimed', async () => {
    const { database, outbox: next } = t();
    await enqueueMail(database.db, 'test', [mail(1), mail(2)]);
    const mailer = gatedMailer();
    const crashed = startOutboxWorker(database.db, mailer, silent, { pollMs: 3_600_000 });
    const stuck = crashed.drain();
    await mailer.started;
    const claimedBy = await crashed.instanceId();
    expect((await rows()).map((r) => r.claimedBy)).toEqual([claimedBy, claimedBy]);

    await crash(crashed);
    // The next worker (another process after a restart) does not wait for any lease.
    expect(await next.drain()).toBe(2);
    expect(sink.mails.map((m) => m.to).sort()).toEqual(['m1@x.test', 'm2@x.test']);
    expect((await rows()).map((r) => [r.status, r.claimedBy])).toEqual([
      ['sent', null],
      ['sent', null],
    ]);

    // What the crashed worker had in the air is not recorded over the next one's sends.
    mailer.finish(false);
    await stuck;
    await crashed.stop();
    mailer.close();
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('never sends twice a row a live worker has claimed', async () => {
    const { database, outbox: other } = t();
    await enqueueMail(database.db, 'test', [mail(1)]);
    const mailer = gatedMailer();
    const busy = startOutboxWorker(database.db, mailer, silent, { pollMs: 3_600_000 });
    const sending = busy.drain();
    await mailer.started;

    expect(await other.drain()).toBe(0);
    expect(sink.mails).toHaveLength(0);

    mailer.finish(true);
    expect(await sending).toBe(1);
    await busy.stop();
    mailer.close();
    expect(await other.drain()).toBe(0);
    expect(sink.mails.map((m) => m.to)).toEqual(['m1@x.test']);
    expect((await rows()).map((r) => [r.status, r.attempts, r.claimedBy])).toEqual([['sent', 1, null]]);
  });

  it('a stopping worker finishes the mail it is sending and hands back the rest at once', async () => {
    const { database, outbox: next } = t();
    await enqueueMail(database.db, 'test', [mail(1), mail(2), mail(3)]);
    const mailer = gatedMailer();
    const stopping = startOutboxWorker(database.db, mailer, silent, { pollMs: 3_600_000 });
    void stopping.drain();
    await mailer.started;
    const stopped = stopping.stop();
    mailer.finish(true);
    await stopped;
    mailer.close();
    expect((await rows()).map((r) => [r.status, r.claimedBy])).toEqual([
      ['sent', null],
      ['pending', null],
      ['pending', null],
    ]);
    expect(await next.drain()).toBe(2);
    expect(sink.mails.map((m) => m.to).sort()).toEqual(['m1@x.test', 'm2@x.test', 'm3@x.test']);
  });

  it('sends mail after mail over one SMTP connection', async () => {
    const { database } = t();
    await enqueueMail(database.db, 'test', [1, 2, 3, 4, 5, 6].map(mail));
    const mailer = createMailer({ smtpUrl: sink.url, from: 'a@x.test', dataDir: t().mailDir, log: silent });
    const worker = startOutboxWorker(database.db, mailer, silent, { pollMs: 3_600_000 });
    const before = sink.connections();
    expect(await worker.drain()).toBe(6);
    await worker.stop();
    mailer.close();
    expect(sink.mails).toHaveLength(6);
    expect(sink.connections() - before).toBe(1);
    expect(await database.db.select().from(outbox).where(eq(outbox.status, 'sent'))).toHaveLength(6);
  });

  it('sends a mail iff the transaction that enqueued it commits', async () => {
    const { database, outbox: worker } = t();
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueMail(tx, 'test', [mail(1)]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await database.db.transaction((tx) => enqueueMail(tx, 'test', [mail(2)]));
    expect(await worker.drain()).toBe(1);
    expect(sink.mails.map((m) => m.to)).toEqual(['m2@x.test']);
  });

  it('retries a failed send later, and gives up after MAX_ATTEMPTS keeping the row', async () => {
    const { database } = t();
    await enqueueMail(database.db, 'test', [mail(1)]);
    const failing: Mailer = { send: () => Promise.reject(new Error('421 try later')), close: () => undefined };
    const worker = startOutboxWorker(database.db, failing, silent, { pollMs: 3_600_000 });
    expect(await worker.drain()).toBe(0);
    const [first] = await rows();
    expect([first!.status, first!.attempts, first!.lastError, first!.claimedBy]).toEqual(['pending', 1, '421 try later', null]);
    // Not due again at once: the first retry waits 15 s.
    const [due] = await rowsOf<{ wait: number }>(database.db.execute(sql`select extract(epoch from next_attempt_at - now())::float8 as wait from outbox`));
    expect(due!.wait).toBeGreaterThan(10);
    expect(await worker.drain()).toBe(0);
    expect((await rows())[0]!.attempts).toBe(1);

    // The last attempt, once due, fails the row for good.
    await database.db.update(outbox).set({ attempts: MAX_ATTEMPTS - 1, nextAttemptAt: new Date(0) });
    expect(await worker.drain()).toBe(0);
    await worker.stop();
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual([['failed', MAX_ATTEMPTS]]);
  });
});
