// The schema (src/server/db/schema/) and the migrations say the same: drizzle-kit generate, run on a
// copy of the migrations folder, finds nothing to add. A schema change without its migration (or a
// hand-edited migration the snapshot does not know of) fails here, not as a database that lacks an
// index or a column. Extensions are not drizzle's: 0016's CREATE EXTENSION is written by hand above
// the index drizzle-kit generated (docs/decisions/166).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const migrations = path.join(root, 'src/server/db/migrations');

it('drizzle-kit generates no migration from the schema: every change has its migration', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-drift-'));
  try {
    const out = path.join(dir, 'migrations');
    fs.cpSync(migrations, out, { recursive: true });
    const kit = path.join(root, 'node_modules/drizzle-kit/bin.cjs');
    // drizzle-kit takes --out relative to the working directory.
    const args = ['generate', '--dialect', 'postgresql', '--schema', './src/server/db/schema/index.ts', '--out', path.relative(root, out)];
    const run = spawnSync(process.execPath, [kit, ...args], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(fs.readdirSync(migrations).sort());
    expect(run.stdout).toContain('No schema changes');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
