// Where uploads run (docs/decisions/065-uploads-run-in-a-worker-on-postgresql.md): on PostgreSQL in
// one worker thread with its own connections, which answers what the server's thread would have; a
// worker that runs out of memory answers the file too big and is replaced; on PGlite, in the
// server's thread.
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../../src/server/auth/session-user.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { AppError } from '../../../src/server/errors.ts';
import { SHEET_MESSAGES } from '../../../src/server/files/parse-sheet.ts';
import { uploadRunner, type UploadRunner } from '../../../src/server/files/upload-jobs.ts';
import { dbDriver, useTestApp } from '../support/harness.ts';
import { signIn } from '../support/board-fixtures.ts';
import { actorOf, UPC } from '../support/task-fixtures.ts';
import { xlsxOf } from '../support/sheets.ts';

const t = useTestApp();
const runners: UploadRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

const importFile = (prefix: string, rows: number) =>
  xlsxOf([['tracking', 'upc', '数量'], ...Array.from({ length: rows }, (_, i) => [`${prefix}${i}`, UPC, 1])]);

async function admin(): Promise<SessionUser> {
  return actorOf((await signIn(t().app, t().database, 'admin@x.test', { roleType: 'admin' })).user);
}

const stored = async () => {
  const [row] = await t()
    .database.db.select({ n: sql<number>`count(*)::int` })
    .from(scanTrackings);
  return Number(row!.n);
};

describe.runIf(dbDriver() === 'pg')('uploads on PostgreSQL', () => {
  it('run in a worker that answers the upload, and are answered again once it was stopped', async () => {
    const runner = uploadRunner(t().database.db);
    runners.push(runner);
    const actor = await admin();
    const first = JSON.parse((await runner.run({ kind: 'tracking', mode: 'import', actor, bytes: importFile('W1-', 3) })).toString()) as {
      code: string;
      msg: string;
      data: { succ: number; rows: { line: number; opStatus: string }[] };
    };
    expect(first).toMatchObject({ code: 'A00000', msg: '上传完成：成功3条，跳过0条，失败0条', data: { succ: 3 } });
    expect(first.data.rows.map((r) => [r.line, r.opStatus])).toEqual([
      [2, 'succ'],
      [3, 'succ'],
      [4, 'succ'],
    ]);
    expect(await stored()).toBe(3);
    // A refusal crosses as the AppError it is: code, status and message (binary bytes: text would be read as CSV).
    await expect(runner.run({ kind: 'tracking', mode: 'import', actor, bytes: Buffer.from('\u0000not a workbook') })).rejects.toMatchObject({
      code: 'A00001',
      httpStatus: 400,
      message: SHEET_MESSAGES.notXlsx,
    });
    await runner.close();
    const again = JSON.parse((await runner.run({ kind: 'tracking', mode: 'import', actor, bytes: importFile('W1-', 4) })).toString()) as {
      data: { succ: number; skip: number };
    };
    expect(again.data).toMatchObject({ succ: 1, skip: 3 });
  });

  it('answer a file too big to process when the worker runs out of memory, and the server goes on', async () => {
    const actor = await admin();
    const starved = uploadRunner(t().database.db, { heapMb: 8 });
    runners.push(starved);
    const refused = await starved.run({ kind: 'tracking', mode: 'import', actor, bytes: importFile('OOM-', 2000) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'A00001', httpStatus: 400, message: SHEET_MESSAGES.tooBig });
    // The server's own runner was not touched by it.
    const answer = JSON.parse((await t().app.appCtx.uploads.run({ kind: 'tracking', mode: 'import', actor, bytes: importFile('OK-', 2) })).toString()) as {
      data: { succ: number };
    };
    expect(answer.data.succ).toBe(2);
  });
});
