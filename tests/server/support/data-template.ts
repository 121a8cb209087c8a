// A migrated embedded database to copy. A server started on an empty DATA_DIR spends ~6 s of CPU on
// PGlite's initdb and the migrations; a test that needs a fresh folder copies this one instead
// (~40 MB, a few tens of ms). Made once per set of migrations and PGlite version: its folder in the
// system's temporary directory is named by their hash, so every test process and later runs share
// it. It is made in a folder of its own and renamed into place, so a process never sees half of one.
// The test workers' in-memory databases (harness.ts) load its dump (a tarball beside it, made the same
// way): ~1 s of CPU a worker against ~4.5 s for PGlite's initdb and the migrations in memory.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder, openDatabase } from '../../../src/server/db/client.ts';
import { pgliteExtensions } from '../../../src/server/db/pglite-extensions.ts';

function templateDir(): string {
  const hash = createHash('sha256');
  hash.update(fs.readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json')));
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(fs.readFileSync(file));
    }
  };
  walk(migrationsFolder);
  return path.join(os.tmpdir(), `ph-pglite-template-${hash.digest('hex').slice(0, 16)}`);
}

let made: Promise<string> | undefined;

/** The template's folder, made if this machine has none for these migrations yet. */
export function migratedTemplate(): Promise<string> {
  made ??= (async () => {
    const dir = templateDir();
    if (fs.existsSync(dir)) return dir;
    const building = fs.mkdtempSync(`${dir}-building-`);
    const database = await openDatabase({ dataDir: building });
    await database.close();
    try {
      fs.renameSync(building, dir);
    } catch {
      // Another process put its template in place first: the same migrations, so use that one.
      fs.rmSync(building, { recursive: true, force: true });
    }
    return dir;
  })();
  return made;
}

let dumped: Promise<string> | undefined;

/** The template's dump (PGlite's dumpDataDir, an uncompressed tarball): what `new PGlite({ loadDataDir })` starts from. */
export function migratedDump(): Promise<string> {
  dumped ??= (async () => {
    const file = `${await migratedTemplate()}.tar`;
    if (fs.existsSync(file)) return file;
    // Dumped from a copy: opening a folder writes to it, and the template stays as it was made.
    const copy = await migratedDataDir('ph-pglite-dump-');
    try {
      const { PGlite } = await import('@electric-sql/pglite');
      const client = new PGlite(path.join(copy, 'pglite'), { extensions: await pgliteExtensions() });
      await client.waitReady; // (dumpDataDir does not wait for it: it never settled)
      const tar = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
      await client.close();
      const building = `${file}-building-${process.pid}`;
      fs.writeFileSync(building, tar);
      fs.renameSync(building, file);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
    return file;
  })();
  return dumped;
}

/** A new folder (named `prefix`…) holding a copy of the migrated template: a DATA_DIR for one server. */
export async function migratedDataDir(prefix: string): Promise<string> {
  const template = await migratedTemplate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(template, dir, { recursive: true });
  return dir;
}
