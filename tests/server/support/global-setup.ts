// vitest's globalSetup of the server and browser tests, once before their processes start: the
// migrated database spawned servers copy and its dump the test workers load (data-template.ts), and
// the server built to JavaScript as `npm start` runs it (scripts/build.mjs, only when missing or
// older than its sources), so that spawned servers (server-process.ts) start from the build and no
// two test files build it at once.
import { migratedDump } from './data-template.ts';
// @ts-expect-error: scripts/build.mjs is plain JavaScript without types.
import { ensureServerBuilt } from '../../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await Promise.all([migratedDump(), (ensureServerBuilt as () => Promise<void>)()]);
}
