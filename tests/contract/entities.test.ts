// One lifecycle store (issue 34; src/server/entities/store.ts): every entity with a machine is
// declared once in src/server/entities/, and no other server file writes its status, except the
// set-based writers listed below, which ask the same declarations (planEvent) for each row and
// write thousands of rows a statement. So for any status of any entity, the one file that decides
// it is the machine its declaration names, and a stray status write fails here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { AnyEntity } from '../../src/server/entities/store.ts';
import * as boardsSchema from '../../src/server/db/schema/boards.ts';
import * as moneySchema from '../../src/server/db/schema/money.ts';
import * as receivingSchema from '../../src/server/db/schema/receiving.ts';
import * as tasksSchema from '../../src/server/db/schema/tasks.ts';

const root = path.resolve(import.meta.dirname, '../..');
const entitiesDir = path.join(root, 'src/server/entities');

async function declaredEntities(): Promise<{ file: string; entity: AnyEntity }[]> {
  const out: { file: string; entity: AnyEntity }[] = [];
  for (const file of readdirSync(entitiesDir).filter((f) => f.endsWith('.ts') && f !== 'store.ts')) {
    const mod = (await import(path.join(entitiesDir, file))) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      const e = value as Partial<AnyEntity> | null;
      if (e && typeof e === 'object' && is(e.table, PgTable) && typeof e.decide === 'function' && typeof e.describe === 'function')
        out.push({ file, entity: e as AnyEntity });
    }
  }
  return out;
}

/** The tables whose status column is an enum built from a machine's list (tests/contract/status-lists.test.ts holds them equal). */
const LIFECYCLE_TABLES = [
  tasksSchema.tasks,
  tasksSchema.purchasedRecords,
  receivingSchema.scanTrackings,
  moneySchema.paymentApplies,
  moneySchema.withdrawRequests,
  boardsSchema.boards,
].map((t) => getTableName(t));

/** Tables with a machine's status that are edited as a field, not moved through a lifecycle. */
const FIELD_STATUS_TABLES: Record<string, string> = {
  board_tasks: "a board task's normal/close is a field the admin sets on the board task form (claim.machine reads it)",
};

/** Files outside entities/ that may write a lifecycle table's status, and why. */
const SET_BASED_WRITERS: Record<string, string> = {
  'src/server/db/matching-store.ts': "matching's plan (planMatchEvents, the scan-record and purchased declarations) written set-based",
  'src/server/tasks/purchased-service.ts': 'the purchased upload: planEvent per record, one statement per 1,000 rows',
  'src/server/files/tracking-upload.ts': "the tracking upload's count changes (status kept as it is), one statement per chunk",
};

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : [],
  );

/** Files of src/server that write a status column of a lifecycle table (drizzle `.update(t).set({ ... status` or SQL `update t ... set ... status =`). */
function statusWriters(): string[] {
  const drizzleNames = ['tasks', 'purchasedRecords', 'scanTrackings', 'paymentApplies', 'withdrawRequests', 'boards'];
  const drizzle = new RegExp(`\\.update\\((?:${drizzleNames.join('|')})\\)\\s*\\.set\\(\\{[^}]*\\bstatus\\b`, 's');
  const raw = new RegExp(`update\\s+(?:${LIFECYCLE_TABLES.join('|')})\\b[^;\`]*?\\bset\\b[^;\`]*?\\bstatus\\s*=`, 'is');
  return walk(path.join(root, 'src/server'))
    .filter((f) => !f.startsWith(entitiesDir))
    .filter((f) => {
      const text = readFileSync(f, 'utf8');
      return drizzle.test(text) || raw.test(text);
    })
    .map((f) => path.relative(root, f));
}

describe('the lifecycle store', () => {
  it('declares every entity with a machine once, in src/server/entities/', async () => {
    const declared = await declaredEntities();
    const byTable = new Map<string, string[]>();
    for (const { file, entity } of declared) byTable.set(getTableName(entity.table), [...(byTable.get(getTableName(entity.table)) ?? []), file]);
    for (const table of LIFECYCLE_TABLES) expect(byTable.get(table), table).toHaveLength(1);
    for (const table of byTable.keys()) expect(LIFECYCLE_TABLES, `${table} is declared but has no machine's status`).toContain(table);
    expect(Object.keys(FIELD_STATUS_TABLES).filter((t) => byTable.has(t))).toEqual([]);
  });

  it('is the only writer of a status, besides the set-based writers that ask its declarations', () => {
    const writers = statusWriters();
    expect(writers.filter((f) => !(f in SET_BASED_WRITERS))).toEqual([]);
    // An allowed writer that no longer writes a status leaves the list.
    expect(Object.keys(SET_BASED_WRITERS).filter((f) => !writers.includes(f))).toEqual([]);
  });

  it('finds a stray status write (the check can fail)', () => {
    const drizzle = /\.update\((?:tasks)\)\s*\.set\(\{[^}]*\bstatus\b/s;
    expect(drizzle.test('await tx.update(tasks).set({ count: 2, status: next }).where(eq(tasks.id, id))')).toBe(true);
    expect(drizzle.test('await tx.update(tasks).set({ count: 2 }).where(eq(tasks.id, id))')).toBe(false);
  });
});
