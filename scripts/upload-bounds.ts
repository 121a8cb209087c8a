// The figures of issue 36 (docs/decisions/172-uploads-bounded-by-their-caps.md), in docs/performance.md's
// Host figures: `node --import tsx scripts/upload-bounds.ts`.
// - over the cap: a 100,000-row tracking file (twice TRACKING_LIMITS.maxRows) parsed in a fresh
//   process (the file written by this one first): its refusal, the wall time and the process's peak
//   RSS (VmHWM: the sheet worker is a thread of it), with the sheet rows the worker read.
// - at the cap: the same for a 50,000-row file (accepted). Each parse also gives the share of the
//   parsing thread's busy time its garbage collector took (a CPU profile of the parse alone).
// `parse-only`: the two files, not the answer.
// - the answer: a member's 10,000-row purchase import (bench's upload group) on PGlite in a
//   temporary folder: the bytes of its answer's body.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const mode = process.argv[2] ?? 'all';
const here = fileURLToPath(import.meta.url);
const peakMb = () => Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024);

async function trackingFile(rows: number): Promise<string> {
  const { writeWorkbook } = await import('../src/server/files/xlsx-write.ts');
  const { TRACKING_COLUMNS } = await import('../src/server/files/tracking-upload.ts');
  const file = path.join(os.tmpdir(), `upload-bounds-${rows}.xlsx`);
  if (fs.existsSync(file)) return file;
  const bytes = writeWorkbook([
    {
      name: 'tracking',
      header: TRACKING_COLUMNS.map((c) => c.headers[0]!),
      rows: Array.from({ length: rows }, (_, i) => [`1Z${String(i).padStart(16, '0')}`, '194253397168', null, `商品 ${i % 97}`, 'UPS', 1 + (i % 3)]),
      textColumns: [0, 1],
    },
  ]);
  fs.writeFileSync(file, bytes);
  return file;
}

/** In a fresh process: parse one file as the tracking import does. */
async function parseOne(file: string) {
  const { parseSheet, sheetReadStats } = (await import('../src/server/files/parse-sheet.ts')) as typeof import('../src/server/files/parse-sheet.ts') & {
    sheetReadStats?: { rowsRead: number };
  };
  const { TRACKING_COLUMNS, TRACKING_LIMITS } = await import('../src/server/files/tracking-upload.ts');
  const bytes = fs.readFileSync(file);
  const before = peakMb();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  let outcome: string;
  try {
    const { rows } = await parseSheet(bytes, TRACKING_COLUMNS, { ...TRACKING_LIMITS, timeoutMs: 60_000 }, { adminSide: true });
    outcome = `accepted ${rows.length} rows`;
  } catch (err) {
    outcome = `refused: ${(err as Error).message}`;
  }
  const ms = performance.now() - t0;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const read = sheetReadStats ? `, sheet rows read ${sheetReadStats.rowsRead}` : '';
  console.log(
    `${path.basename(file)} (${(bytes.length / 1024 / 1024).toFixed(1)} MB): ${outcome}; ${(ms / 1000).toFixed(2)} s, peak RSS ${peakMb()} MB (${before} MB before)${read}; ${gcShare(profile)}`,
  );
}

/** The thread's busy time in a CPU profile and the garbage collector's share of it. */
function gcShare(profile: { nodes: { id: number; callFrame: { functionName: string } }[]; samples?: number[]; timeDeltas?: number[] }) {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let busy = 0;
  let gc = 0;
  (profile.samples ?? []).forEach((id, i) => {
    const name = names.get(id);
    const dt = profile.timeDeltas?.[i] ?? 0;
    if (name === '(idle)' || name === '(program)') return;
    busy += dt;
    if (name === '(garbage collector)') gc += dt;
  });
  return `thread busy ${(busy / 1000).toFixed(0)} ms, GC ${((100 * gc) / Math.max(1, busy)).toFixed(0)}%`;
}

async function answerBytes() {
  const { openDatabase } = await import('../src/server/db/client.ts');
  const { users } = await import('../src/server/db/schema/accounts.ts');
  const { seedOpenTasks } = await import('./bench-seed.ts');
  const { writeWorkbook } = await import('../src/server/files/xlsx-write.ts');
  const { PURCHASED_COLUMNS, PURCHASED_LIMITS } = await import('../src/server/files/purchased-upload.ts');
  const { runUploadJob } = await import('../src/server/files/upload-jobs.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-bounds-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    const [member] = await database.db.insert(users).values({ mailAddr: 'm@bounds.test', nickName: 'm', roleType: 'user', passwordHash: 'x' }).returning();
    const rows = PURCHASED_LIMITS.maxRows;
    const perTask = Math.ceil(rows / 50);
    const seeded = await seedOpenTasks(database.db, { userId: member!.id, count: 50, units: perTask * 2, upc: '194253397168' });
    const file = writeWorkbook([
      {
        name: '采购记录',
        header: PURCHASED_COLUMNS.map((c) => c.headers[0]),
        rows: Array.from({ length: rows }, (_, i) => [
          seeded.taskIds[Math.floor(i / perTask)]!,
          null,
          null,
          `BENCH${String(i).padStart(8, '0')}`,
          null,
          1 + (i % 2),
        ]),
        textColumns: [0, 3],
      },
    ]);
    const actor = { id: member!.id, mailAddr: 'm@bounds.test', nickName: 'm', roleType: 'user' as const, sessionId: 0 };
    const t0 = performance.now();
    const body = await runUploadJob(database.db, { kind: 'purchased', mode: 'import', actor, bytes: file });
    const parsed = JSON.parse(body.toString('utf8')) as { msg: string; data: { rows: unknown[] } };
    console.log(
      `purchase import, ${rows} rows: answer ${body.length} bytes (${parsed.data.rows.length} rows in it; ${parsed.msg}); ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (mode === 'parse') await parseOne(process.argv[3]!);
else if (mode === 'answer') await answerBytes();
else {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const rows of [100_000, 50_000]) {
    const file = await trackingFile(rows);
    spawnSync(process.execPath, ['--max-old-space-size=384', '--import', 'tsx', here, 'parse', file], { stdio: 'inherit' });
  }
  if (mode !== 'parse-only') spawnSync(process.execPath, ['--max-old-space-size=384', '--import', 'tsx', here, 'answer'], { stdio: 'inherit' });
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
