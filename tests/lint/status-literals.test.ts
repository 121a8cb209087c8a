// No status word is spelled in src/server: every status and status group the server reads or writes
// comes from a machine's exported list, constant or question (issue 34 "Derived, never copied";
// docs/decisions/054-money-through-its-machines.md), so the one file that decides a status is the
// machine's. This test reads every source file of src/server (comments left out) and fails with
// the places where a status word of any entity - the machines' own lists, so a new status is
// covered the day it is added - is written as a quoted string. The words that are also the name of
// something else (an audit action 'match', an item's 'open') are allowed one line at a time, each
// with its reason.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOARD_STATUSES } from '../../machines/board.machine';
import { BOARD_TASK_STATUSES } from '../../machines/claim.machine';
import { PAYMENT_STATUSES } from '../../machines/payment.machine';
import { SCAN_STATUSES } from '../../machines/scan-record.machine';
import { PURCHASED_STATUSES, TASK_STATUSES } from '../../machines/task.machine';
import { WITHDRAW_ORDER_STATES } from '../../machines/withdraw-order.machine';
import { WITHDRAW_STATUSES } from '../../machines/withdraw.machine';

const root = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(root, 'src/server');

/** Every status word of every entity, from the machines' lists. */
const WORDS = new Set<string>([
  ...TASK_STATUSES,
  ...PAYMENT_STATUSES,
  ...WITHDRAW_STATUSES,
  ...WITHDRAW_ORDER_STATES,
  ...SCAN_STATUSES,
  ...PURCHASED_STATUSES,
  ...BOARD_STATUSES,
  ...BOARD_TASK_STATUSES,
]);

/** A line allowed to spell a status word: the file, a piece of the line, and why it is not a status of ours. */
interface Allowed {
  file: string;
  line: string;
  reason: string;
}

const ALLOWED: Allowed[] = [
  {
    file: 'src/server/db/schema/accounts.ts',
    line: "pgEnum('outbox_status', ['pending', 'sent', 'failed'])",
    reason: "the mail outbox's own states, not an entity with a machine",
  },
  { file: 'src/server/db/schema/accounts.ts', line: "default('pending')", reason: "the mail outbox's first state" },
  { file: 'src/server/db/schema/accounts.ts', line: "sql`status = 'pending'`", reason: "the mail outbox's index of pending mails" },
  { file: 'src/server/mail/outbox.ts', line: "eq(outbox.status, 'pending')", reason: "the mail outbox's own states" },
  { file: 'src/server/mail/outbox.ts', line: "? 'failed' : 'pending'", reason: "the mail outbox's own states" },
  {
    file: 'src/server/db/schema/catalog.ts',
    line: "pgEnum('item_status', ['open', 'close'])",
    reason: "an item's availability (SPEC §3 item), not a lifecycle with a machine",
  },
  { file: 'src/server/db/schema/catalog.ts', line: "default('open')", reason: "an item's availability" },
  { file: 'src/server/files/tracking-upload.ts', line: "r.status === 'open'", reason: "an item's availability (an open item is preferred for a upc)" },
  { file: 'src/server/demo.ts', line: "DEMO_ITEMS.map((i) => ({ ...i, status: 'open' as const }))", reason: "demo items' availability" },
  { file: 'src/server/db/data-dir-lock.ts', line: "write('open')", reason: "the data directory lock's own states" },
  { file: 'src/server/db/data-dir-lock.ts', line: "state: r.state ?? 'open'", reason: "the data directory lock's own states" },
  { file: 'src/server/db/data-dir-lock.ts', line: "state: 'open', host", reason: "the data directory lock's own states" },
  { file: 'src/server/db/data-dir-lock.ts', line: "type LockState = 'starting' | 'open' | 'stopping'", reason: "the data directory lock's own states" },
  { file: 'src/server/db/data-dir-lock.ts', line: "h.state !== 'open'", reason: "the data directory lock's own states" },
  {
    file: 'src/server/boards/board-tasks.ts',
    line: "item.status === 'close'",
    reason: "an item's availability (SPEC §3 item), not a lifecycle with a machine",
  },
  {
    file: 'src/server/demo.ts',
    line: "'urgent', '限购每单2件'",
    reason: "demo data: a board task an admin marked urgent (an admin's choice, no machine event)",
  },
  {
    file: 'src/server/demo.ts',
    line: "'closed', '已截止，认领需审核'",
    reason: "demo data: a board task an admin closed (an admin's choice, no machine event)",
  },
  { file: 'src/server/handlers/live.ts', line: "header('connection', 'close')", reason: 'the HTTP Connection header' },
  { file: 'src/server/lifecycle.ts', line: "header('connection', 'close')", reason: 'the HTTP Connection header' },
  { file: 'src/server/live/hub.ts', line: "out.on('close'", reason: "a Node stream's close event" },
  { file: 'src/server/receiving/scan-service.ts', line: "job.kind === 'create' ? 'scan' : 'add'", reason: 'audit actions of the scan calls' },
  { file: 'src/server/matching/plan.ts', line: "scanAudit(actor, 'match', before, after)", reason: 'the audit action of a matching run' },
  { file: 'src/server/matching/plan.ts', line: "auditOf(purchasedEntity, actor, 'match',", reason: 'the audit action of a matching run' },
  { file: 'src/server/tasks/apply-event.ts', line: "auditOf(taskEntity, c.actor, 'match', c.row, after)", reason: 'the audit action of a matching run' },
];

/** The file without its comments (// to the end of a line, /* ... *\/), so prose may name a status. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((line) => line.replace(/(^|[\s;,{}()])\/\/.*$/, '$1'))
    .join('\n');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

const QUOTED = /(['"`])([A-Za-z0-9]+)\1/g;

/** Every quoted status word of src/server that no allowed line explains: `file:line  text`. */
function findings(): { found: string[]; unused: Allowed[] } {
  const found: string[] = [];
  const used = new Set<Allowed>();
  for (const file of sourceFiles(SERVER)) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    code(readFileSync(file, 'utf8'))
      .split('\n')
      .forEach((line, i) => {
        const words = [...line.matchAll(QUOTED)].map((m) => m[2]!).filter((w) => WORDS.has(w));
        if (!words.length) return;
        const allowed = ALLOWED.find((a) => a.file === rel && line.includes(a.line));
        if (allowed) used.add(allowed);
        else found.push(`${rel}:${i + 1}  ${line.trim()}`);
      });
  }
  return { found, unused: ALLOWED.filter((a) => !used.has(a)) };
}

describe('status words in src/server', () => {
  const { found, unused } = findings();

  it('are read from the machines, never spelled (the allowed lines say why)', () => {
    expect(found).toEqual([]);
  });

  it('allows only lines that still exist', () => {
    expect(unused.map((a) => `${a.file}: ${a.line}`)).toEqual([]);
  });

  it('finds a status word spelled in server code (the probe)', () => {
    const probe = code(`const x = 1; // 'paid' in a comment\nif (row.status === 'wait2pay') x;\n`);
    expect([...probe.matchAll(QUOTED)].map((m) => m[2])).toEqual(['wait2pay']);
  });
});
