// Browser tests' global setup: one embedded database migrated once, copied for each file's server,
// so no file pays for the migrations again (each server still starts on a database of its own).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eDataTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-e2e-template-'));
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  project.provide('e2eDataTemplate', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
