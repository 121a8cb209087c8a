// vitest's globalSetup of the browser tests, once before their processes start: the migrated
// database every server copies (tests/server/support/data-template.ts), and the server built to
// JavaScript as `npm start` runs it (scripts/build.mjs, only when missing or older than its sources),
// so that no two test files build it at once.
import { migratedTemplate } from '../server/support/data-template.ts';
// @ts-expect-error: scripts/build.mjs is plain JavaScript without types.
import { ensureServerBuilt } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await Promise.all([migratedTemplate(), (ensureServerBuilt as () => Promise<void>)()]);
}
