// `npm start` as a newcomer runs it (decision 018): scripts/start.mjs builds the server to
// JavaScript when the build is missing or older than its sources, then runs the build, which
// answers, its upload and sheet workers included, and logs no warning of its own at start. Then,
// where the test runs as root and nobody can reach the tree, the same start as user nobody, for whom
// the install is read-only: a built server writes nothing outside DATA_DIR. The web app is not
// built here (SKIP_WEB_BUILD=1): the browser tests build and serve it. Every spawned server of the
// tests now starts this way (support/server-process.ts), and their globalSetup builds the server
// first with the same scripts/build.mjs: here a start mostly finds the build fresh.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dbDriver } from '../support/harness.ts';
import { killServers, login, ownPgDatabase, startServer, STARTUP_MS, type Server } from '../support/server-process.ts';
import { migratedDataDir } from '../support/data-template.ts';
import { writeWorkbook } from '../../../src/server/files/xlsx-write.ts';
import { TRACKING_COLUMNS } from '../../../src/server/files/tracking-upload.ts';

afterAll(killServers);
const TEST_MS = 2 * STARTUP_MS;
const START = { args: ['scripts/start.mjs'] };

/** On PostgreSQL a database of this file's own (dropped after), else a migrated PGlite folder. */
const ownDatabases: { drop(): Promise<void> }[] = [];
afterAll(async () => void (await Promise.all(ownDatabases.map((d) => d.drop()))));
async function dataEnv(name: string): Promise<Record<string, string>> {
  if (dbDriver() !== 'pg') return { DATA_DIR: await migratedDataDir('ph-built-') };
  const own = await ownPgDatabase(name);
  ownDatabases.push(own);
  return { DATABASE_URL: own.url };
}

async function stop(server: Server) {
  server.proc.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
}

describe('npm start runs the server built to JavaScript', () => {
  it(
    'builds it when needed, runs the build, and the build answers',
    async () => {
      const server = await startServer({ ...(await dataEnv('built')), SKIP_WEB_BUILD: '1' }, START);
      expect(fs.existsSync('dist-server/main.js')).toBe(true);
      const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
      expect(health.status).toBe(200);
      const token = await login(server);
      // An upload: parsed in the built sheet worker (on PostgreSQL within the built upload worker).
      const form = new FormData();
      const file = writeWorkbook([
        {
          name: 'tracking',
          header: TRACKING_COLUMNS.map((c) => c.headers[0]!),
          rows: [['BUILT0001', '194253397168', null, null, 'UPS', 1]],
          textColumns: [0, 1],
        },
      ]);
      form.append('file', new Blob([new Uint8Array(file)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 't.xlsx');
      const upload = await fetch(`http://127.0.0.1:${server.port}/api/scan/admin/excel/upload/import`, {
        method: 'POST',
        headers: { 'x-token': token },
        body: form,
      });
      expect(await upload.json()).toMatchObject({ code: 'A00000', data: { succ: 1 } });
      // Glue's warning for a media type without a parser (text/event-stream) is gone.
      expect(server.output()).not.toContain('ContentTypeParser');
      await stop(server);
    },
    TEST_MS,
  );

  it.skipIf(process.getuid?.() !== 0 || !othersCanReach(process.cwd()))(
    'runs from an install its user cannot write (as nobody), writing only in DATA_DIR',
    async () => {
      const env = await dataEnv('built_ro');
      // A DATA_DIR of nobody's own; on PGlite, the migrated copy handed over.
      const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ph-built-'));
      walk(dataDir, (p) => fs.chownSync(p, 65534, 65534));
      const server = await startServer({ ...env, DATA_DIR: dataDir, SKIP_WEB_BUILD: '1' }, { ...START, uid: 65534, gid: 65534 });
      expect(await login(server)).toBeTruthy();
      await stop(server);
    },
    TEST_MS,
  );
});

function walk(p: string, f: (p: string) => void) {
  f(p);
  if (fs.statSync(p).isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name), f);
}

/** Whether a user of no group (nobody) can reach `dir`: every folder up to it searchable by others. */
function othersCanReach(dir: string): boolean {
  for (let d = dir; ; d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return true;
  }
}
