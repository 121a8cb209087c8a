// One status list per entity (docs/decisions/070-scan-record-rules.md for scan records; issue 34:
// derived, never copied): each machine's list (machines/*.statuses.ts, *.machine.ts) is the list;
// the database enum (the Drizzle pgEnum AND the enum the migrations' SQL creates and alters) and the
// contract's enum must name exactly the same values, in the same order where order is kept (the
// pgEnum and the SQL enum order rows by it). A value added in one place only fails here before it
// fails a request; the schema files take the machines' lists, so only the migrations can drift.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOARD_STATUSES } from '../../machines/board.machine.ts';
import { BOARD_TASK_STATUSES } from '../../machines/claim.machine.ts';
import { PAYMENT_STATUSES } from '../../machines/payment.statuses.ts';
import { SCAN_STATUSES, UNMATCH_REASONS } from '../../machines/scan-record.machine.ts';
import { PURCHASED_STATUSES, TASK_STATUSES } from '../../machines/task.machine.ts';
import { WITHDRAW_STATUSES } from '../../machines/withdraw.statuses.ts';
import { boardStatus, boardTaskStatus } from '../../src/server/db/schema/boards.ts';
import { paymentApplyStatus, withdrawStatus } from '../../src/server/db/schema/money.ts';
import { scanStatus } from '../../src/server/db/schema/receiving.ts';
import { purchasedStatus, taskStatus } from '../../src/server/db/schema/tasks.ts';
import { specUrl } from '../../scripts/gen-api.ts';

const migrations = new URL('../../src/server/db/migrations/', import.meta.url);

/** The values of a PostgreSQL enum type as the migrations leave it: CREATE TYPE ... AS ENUM(...), then every ALTER TYPE ... ADD VALUE / RENAME VALUE, in file order. */
function sqlEnumValues(sqlFiles: string[], type: string): string[] | null {
  const quoted = (s: string) => [...s.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
  const name = `(?:"public"\\.)?"${type}"`;
  let values: string[] | null = null;
  for (const text of sqlFiles) {
    for (const statement of text.split(/;\s*(?:--> statement-breakpoint)?/)) {
      const create = new RegExp(`CREATE TYPE ${name} AS ENUM\\s*\\(([^)]*)\\)`, 'i').exec(statement);
      if (create) values = quoted(create[1]!);
      const add = new RegExp(`ALTER TYPE ${name} ADD VALUE (?:IF NOT EXISTS )?('(?:[^']|'')*')(?: (BEFORE|AFTER) ('(?:[^']|'')*'))?`, 'i').exec(statement);
      if (add && values) {
        const [value] = quoted(add[1]!);
        const at = add[3] ? values.indexOf(quoted(add[3])[0]!) : -1;
        if (at === -1) values.push(value!);
        else values.splice(add[2]!.toUpperCase() === 'BEFORE' ? at : at + 1, 0, value!);
      }
      const rename = new RegExp(`ALTER TYPE ${name} RENAME VALUE ('(?:[^']|'')*') TO ('(?:[^']|'')*')`, 'i').exec(statement);
      if (rename && values) {
        const [from] = quoted(rename[1]!);
        const [to] = quoted(rename[2]!);
        values = values.map((v) => (v === from ? to! : v));
      }
      if (new RegExp(`DROP TYPE (?:IF EXISTS )?${name}`, 'i').test(statement)) values = null;
    }
  }
  return values;
}

const migrationSql = () =>
  readdirSync(migrations)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => readFileSync(new URL(f, migrations), 'utf8'));

type Schema = { enum?: string[]; properties?: Record<string, Schema> };
const spec = parse(readFileSync(specUrl, 'utf8')) as { components: { schemas: Record<string, Schema> } };

/** Every entity's status: the machine's list, the Drizzle enum, the SQL type and the contract's schema of that name. */
const ENTITIES = [
  { entity: 'task', machine: TASK_STATUSES, pgEnum: taskStatus, contract: 'TaskStatus' },
  { entity: 'purchased record', machine: PURCHASED_STATUSES, pgEnum: purchasedStatus, contract: 'PurchasedStatus' },
  { entity: 'scan record', machine: SCAN_STATUSES, pgEnum: scanStatus, contract: 'ScanStatus' },
  { entity: 'board', machine: BOARD_STATUSES, pgEnum: boardStatus, contract: 'BoardStatus' },
  { entity: 'board task', machine: BOARD_TASK_STATUSES, pgEnum: boardTaskStatus, contract: 'BoardTaskStatus' },
  { entity: 'payment application', machine: PAYMENT_STATUSES, pgEnum: paymentApplyStatus, contract: 'PaymentApplyStatus' },
  { entity: 'withdrawal line', machine: WITHDRAW_STATUSES, pgEnum: withdrawStatus, contract: 'WithdrawStatus' },
] as const;

describe.each(ENTITIES)('$entity statuses: one list', ({ machine, pgEnum, contract }) => {
  it('the Drizzle pgEnum is the machine’s list', () => {
    expect(pgEnum.enumValues).toEqual([...machine]);
  });

  it('the enum the migrations create is the machine’s list', () => {
    expect(sqlEnumValues(migrationSql(), pgEnum.enumName)).toEqual([...machine]);
  });

  it(`the contract’s ${contract} is the machine’s list`, () => {
    expect(spec.components.schemas[contract]?.enum).toEqual([...machine]);
  });
});

describe('scan record reasons and the audit log', () => {
  it('the contract’s unmatchReason is the machine’s list of reasons', () => {
    expect(spec.components.schemas.ScanTracking?.properties?.unmatchReason?.enum).toEqual([...UNMATCH_REASONS]);
  });

  it('the audit entry’s status (task statuses in the task log, scan statuses in the tracking log) holds both lists and nothing else', () => {
    const audit = spec.components.schemas.AuditEntry?.properties?.status?.enum ?? [];
    expect(new Set(audit)).toEqual(new Set([...TASK_STATUSES, ...SCAN_STATUSES]));
  });

  it('reads the migrations as PostgreSQL would: added, placed and renamed values count', () => {
    const files = [
      'CREATE TYPE "public"."s" AS ENUM(\'a\', \'b\');--> statement-breakpoint',
      'ALTER TYPE "public"."s" ADD VALUE \'c\' BEFORE \'b\';',
      "ALTER TYPE \"s\" RENAME VALUE 'a' TO 'z';",
    ];
    expect(sqlEnumValues(files, 's')).toEqual(['z', 'c', 'b']);
    expect(sqlEnumValues(files, 'other')).toBeNull();
  });
});
