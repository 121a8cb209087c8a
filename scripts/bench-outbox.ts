// The outbox part of `npm run bench` (BENCH_ONLY=outbox): what mail costs the server beside the
// request that causes it. Mails are enqueued in transactions (BENCH_OUTBOX_PER_TX a transaction, one
// transaction after the other, as a notice to a group enqueues them) and then drained to a real SMTP
// server (smtp-server, as the tests use) run in a child process, so that this process's CPU
// (process.cpuUsage: every thread) is the queue's and the mailer's alone. Printed for each step: wall
// time, this process's CPU, the PostgreSQL backends' CPU (PG on this machine) and the statements sent.
// The queue is an interface so that another queue can be measured doing the same work the same way
// (decision 019 measured pg-boss through it).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { Database, Tx } from '../src/server/db/client.ts';
import { outbox } from '../src/server/db/schema/accounts.ts';
import { createMailer, type MailMessage, type Mailer } from '../src/server/mail/mailer.ts';
import { enqueueMail, startOutboxWorker } from '../src/server/mail/outbox.ts';
import { backendsCpu } from './bench-cpu.ts';

/** BENCH_OUTBOX_MAILS: mails per round (2000). */
const MAILS = Number(process.env.BENCH_OUTBOX_MAILS ?? 2000);
/** BENCH_OUTBOX_PER_TX: mails enqueued per transaction (10). */
const PER_TX = Number(process.env.BENCH_OUTBOX_PER_TX ?? 10);
/** BENCH_OUTBOX_ROUNDS: rounds, each queue once per round, in turn (3). */
const ROUNDS = Number(process.env.BENCH_OUTBOX_ROUNDS ?? 3);

/** A queue of mails as the bench drives it. */
export interface BenchQueue {
  name: string;
  /** Writes `msgs` in the caller's transaction. */
  enqueue(tx: Tx, msgs: MailMessage[]): Promise<void>;
  /** Ready to drain (worker started, lock taken): not measured. */
  prepare(mailer: Mailer): Promise<void>;
  /** Sends every due mail through the mailer; answers how many. */
  drain(): Promise<number>;
  /** Stops the worker and empties the queue's tables for the next round. */
  finish(): Promise<void>;
}

/** The project's outbox (src/server/mail/outbox.ts). */
export function ourOutbox(database: Database): BenchQueue {
  let worker: ReturnType<typeof startOutboxWorker> | undefined;
  return {
    name: 'outbox (ours)',
    enqueue: (tx, msgs) => enqueueMail(tx, 'bench', msgs),
    async prepare(mailer) {
      worker = startOutboxWorker(database.db, mailer, pino({ level: 'silent' }), { pollMs: 3_600_000 });
      await worker.instanceId();
    },
    drain: () => worker!.drain(),
    async finish() {
      await worker?.stop();
      await database.db.delete(outbox);
    },
  };
}

let statements = 0;
{
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    statements++;
    return query.apply(this, args);
  };
}

interface Step {
  wallMs: number;
  cpuMs: number;
  pgCpuMs: number;
  statements: number;
}

async function measured(database: Database, work: () => Promise<unknown>): Promise<Step> {
  const pgCpu = await backendsCpu(database);
  const sent = statements;
  const cpu = process.cpuUsage();
  const t = performance.now();
  await work();
  const wallMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, statements: statements - sent, pgCpuMs: await pgCpu() };
}

/** An SMTP server in a child process that counts the mails it accepts ("count" on stdin answers it). */
async function startSink(): Promise<{ url: string; count(): Promise<number>; stop(): void }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '-e',
      `const { SMTPServer } = require('smtp-server');
let n = 0;
const s = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
  onData(stream, session, done) { stream.on('data', () => {}); stream.on('end', () => { n += session.envelope.rcptTo.length; done(); }); } });
s.listen(0, '127.0.0.1', () => console.log('port ' + s.server.address().port));
process.stdin.on('data', () => console.log('count ' + n));`,
    ],
    { cwd: path.join(import.meta.dirname, '..'), stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines: ((line: string) => void)[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.shift()?.(line);
    }
  });
  const next = () => new Promise<string>((resolve) => lines.push(resolve));
  const port = Number((await next()).split(' ')[1]);
  return {
    url: `smtp://127.0.0.1:${port}`,
    async count() {
      const answer = next();
      child.stdin!.write('count\n');
      return Number((await answer).split(' ')[1]);
    },
    stop: () => child.kill(),
  };
}

const perMail = (ms: number) => `${((ms * 1000) / MAILS).toFixed(0).padStart(5)} µs`;
/** One step's figures per mail (on PGlite, which runs in this process, there are no PG figures). */
const line = (name: string, step: Step, pg: boolean) =>
  `  ${name.padEnd(26)} wall ${perMail(step.wallMs)}/mail, CPU ${perMail(step.cpuMs)}` +
  (pg ? ` + PG ${perMail(step.pgCpuMs)}, ${(step.statements / MAILS).toFixed(2)} statements/mail` : '');

/**
 * Rounds of: each queue enqueues MAILS mails, PER_TX a transaction, then drains them to the sink over
 * one pooled SMTP connection (the app's mailer). Queues take turns within a round.
 */
export async function benchOutbox(database: Database, queues: BenchQueue[]) {
  const sink = await startSink();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-bench-outbox-'));
  const mailer = createMailer({ smtpUrl: sink.url, from: 'bench@x.test', dataDir, log: pino({ level: 'silent' }) });
  console.log(`outbox (${database.driver}): ${MAILS} mails, ${PER_TX} a transaction, ${ROUNDS} rounds; per mail:`);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const q of queues) {
        const before = await sink.count();
        const enqueue = await measured(database, async () => {
          for (let i = 0; i < MAILS; i += PER_TX) {
            const msgs = Array.from({ length: Math.min(PER_TX, MAILS - i) }, (_, k) => ({
              to: `m${i + k}@bench.test`,
              subject: `第${i + k}封`,
              text: `内容 ${i + k} https://bench.test/reset?token=${round}-${i + k}`,
            }));
            await database.db.transaction((tx) => q.enqueue(tx, msgs));
          }
        });
        await q.prepare(mailer);
        let sent = 0;
        const drain = await measured(database, async () => (sent = await q.drain()));
        await q.finish();
        const arrived = (await sink.count()) - before;
        if (sent !== MAILS || arrived !== MAILS) throw new Error(`${q.name}: ${sent} sent, ${arrived} arrived, ${MAILS} enqueued`);
        console.log(`${line(`${q.name} enqueue`, enqueue, database.driver === 'pg')}\n${line(`${q.name} drain`, drain, database.driver === 'pg')}`);
      }
    }
  } finally {
    mailer.close();
    sink.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
