// A full disk under a PGlite server (decision 162): its writes answer 503 A00005 '服务器磁盘空间不足，
// 请联系管理员' (not 500), /readyz answers 503 so a balancer drains it, and once space returns it is
// ready and writes again, with nothing half-written: every acknowledged write is kept, no refused one
// is. DATA_DIR is a small tmpfs of the test's own, filled by a file of the test's; mounting needs
// root, so elsewhere the test is skipped and says why. PGlite only (TEST_DB unset).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../../src/server/db/client.ts';
import { migratedTemplate } from '../support/data-template.ts';
import { dbDriver } from '../support/harness.ts';
import { killServers, login, startServer, type Server } from '../support/server-process.ts';

const TEST_MS = 120_000;
const DISK_FULL = { code: 'A00005', msg: '服务器磁盘空间不足，请联系管理员' };

/** A tmpfs of 96 MB (the migrated data folder takes ~40), or why there is none. */
function mountTmpfs(): { dir: string } | { skip: string } {
  if (dbDriver() !== 'pglite') return { skip: 'PGlite only (TEST_DB=pg)' };
  if (process.getuid?.() !== 0) return { skip: 'mounting a tmpfs needs root' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-diskfull-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { skip: `mount -t tmpfs failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}` };
  }
}
const mount = mountTmpfs();

describe.skipIf('skip' in mount)(`a full disk under a PGlite server${'skip' in mount ? ` (skipped: ${mount.skip})` : ''}`, () => {
  const dir = 'dir' in mount ? mount.dir : '';
  const filler = path.join(dir, 'filler');
  let server: Server;
  let token: string;

  beforeAll(async () => {
    fs.cpSync(await migratedTemplate(), dir, { recursive: true });
    server = await startServer({ DATA_DIR: dir, APP_SECRET: 'diskfull-test-secret-0123456789abcdef' });
    token = await login(server);
  }, TEST_MS);

  afterAll(() => {
    killServers();
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const request = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${url}`, {
      method,
      headers: { 'x-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  let next = 0;
  /** An item of ~2 KB (a long url), so a few fill a page and the table soon needs another. */
  const createItem = async () => {
    const productId = `FULL-${next++}`;
    const answer = await request('POST', '/api/item/info', { itemName: 'disk', status: 'open', productId, url: `https://x.test/${'p'.repeat(1900)}` });
    return { productId, answer };
  };

  it(
    'writes answer 503 A00005 with the disk message and /readyz 503 while it is full; once space returns, ready and writing again, nothing half-written',
    async () => {
      const acknowledged: string[] = [];
      const refused: string[] = [];
      const first = await createItem();
      expect(first.answer).toMatchObject({ status: 200, body: { code: 'A00000' } });
      acknowledged.push(first.productId);

      // Every byte of the file system taken.
      const fd = fs.openSync(filler, 'w');
      try {
        for (const size of [1 << 20, 4096]) for (;;) fs.writeSync(fd, Buffer.alloc(size));
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        fs.closeSync(fd);
      }
      // The table's last page may still hold a row or two: writes go on until one needs the disk.
      for (let i = 0; i < 100 && !refused.length; i++) {
        const { productId, answer } = await createItem();
        if (answer.status === 200) acknowledged.push(productId);
        else {
          expect(answer).toEqual({ status: 503, body: DISK_FULL });
          refused.push(productId);
        }
      }
      expect(refused.length).toBe(1);
      const more = await createItem();
      expect(more.answer).toEqual({ status: 503, body: DISK_FULL });
      refused.push(more.productId);
      expect(await request('GET', '/readyz')).toEqual({ status: 503, body: { status: 'unready', reason: 'disk full' } });

      fs.rmSync(filler);
      const freedAt = Date.now();
      let ready = await request('GET', '/readyz');
      while (ready.status !== 200 && Date.now() - freedAt < 10_000) ready = await request('GET', '/readyz');
      expect(ready).toEqual({ status: 200, body: { status: 'ready' } });
      const after = await createItem();
      expect(after.answer).toMatchObject({ status: 200, body: { code: 'A00000' } });
      acknowledged.push(after.productId);

      // What the data folder holds, read once the server has stopped.
      server.proc.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      const database = await openDatabase({ dataDir: dir });
      try {
        const rows = await rowsOf<{ product_id: string }>(database.db.execute(sql`select product_id from items where product_id like 'FULL-%' order by id`));
        expect(rows.map((r) => r.product_id)).toEqual(acknowledged);
      } finally {
        await database.close();
      }
    },
    TEST_MS,
  );
});
