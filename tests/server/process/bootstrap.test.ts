// First start: one bootstrap admin on an empty database, a demo that only fills an empty one, and
// an APP_SECRET that survives restarts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBootstrapAdmin } from '../../../src/server/bootstrap.ts';
import { seedDemo, DEMO_PASSWORD } from '../../../src/server/demo.ts';
import { loadConfig, resolveAppSecret } from '../../../src/server/config.ts';
import { call, login, useTestApp } from '../support/harness.ts';
import { boards } from '../../../src/server/db/schema/boards.ts';
import { tasks } from '../../../src/server/db/schema/tasks.ts';

const t = useTestApp();

describe('bootstrap admin', () => {
  it('is created once with a generated password that logs in, and never again', async () => {
    const { app, database } = t();
    const first = await ensureBootstrapAdmin(database.db, 'root@x.test', undefined);
    expect(first).toMatchObject({ created: true, mailAddr: 'root@x.test' });
    expect(first.generatedPassword!.length).toBeGreaterThanOrEqual(16);
    expect(await ensureBootstrapAdmin(database.db, 'other@x.test', 'whatever-1')).toEqual({ created: false });

    const token = await login(app, 'root@x.test', first.generatedPassword!);
    const info = await call(app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect(info.body.data).toMatchObject({ roleType: 'admin', mailAddr: 'root@x.test' });
  });

  it('demo data gives an admin, a lowerAdmin and two members of a group, only on an empty database', async () => {
    const { app, database } = t();
    await ensureBootstrapAdmin(database.db, 'root@x.test', 'root-pass-1');
    expect(await seedDemo(database.db)).toBe(true);
    expect(await seedDemo(database.db)).toBe(false);
    const lower = await login(app, 'lower@demo.local', DEMO_PASSWORD);
    expect((await call(app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': lower } })).body.data).toMatchObject({ roleType: 'lowerAdmin' });
    for (const m of ['alice@demo.local', 'bob@demo.local']) expect(await login(app, m, DEMO_PASSWORD)).toBeTruthy();
    const boardRows = await database.db.select().from(boards);
    expect(boardRows.map((b) => b.status).sort()).toEqual(['open', 'open', 'unpublish']);
    expect(boardRows.some((b) => b.expireAt.getTime() < Date.now())).toBe(true);
    const taskRows = await database.db.select().from(tasks);
    expect(taskRows.map((t) => t.status).sort()).toEqual(['open', 'open', 'open', 'pending']);
    expect(taskRows.every((t) => t.mainId === t.id && t.subId === 0)).toBe(true);
  });
});

describe('APP_SECRET', () => {
  it('is generated once into DATA_DIR and reused; an explicit one wins', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-secret-'));
    const config = loadConfig({ DATA_DIR: dir });
    const a = resolveAppSecret(config);
    expect(a.length).toBeGreaterThanOrEqual(40);
    expect(resolveAppSecret(loadConfig({ DATA_DIR: dir }))).toBe(a);
    expect((fs.statSync(path.join(dir, 'app-secret')).mode & 0o777).toString(8)).toBe('600');
    expect(resolveAppSecret(loadConfig({ DATA_DIR: dir, APP_SECRET: 'explicit' }))).toBe('explicit');
  });
});
