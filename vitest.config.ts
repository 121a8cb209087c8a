// Test projects (npm test runs them all through scripts/test.ts; test:unit, test:api, test:web one each):
//  - unit:   no database, no DOM: machines, the contract, the lint walls, scripts' logic, and server code on plain data. A test of
//            server code that needs no database is named *.unit.test.ts beside its area's API tests
//            (tests/server/matching/: the planner), so it runs here, in seconds, and not in `server`.
//  - server: the API through app.inject on a real database. One database per worker, reused across
//            files (isolate: false) and emptied before each test; PGlite by default, PostgreSQL
//            when TEST_DB=pg (scripts/test.ts runs the suite once more that way with TEST_DATABASE_URL,
//            less the files and tests whose subject is not that database: PGLITE_PASS_ONLY, pgliteOnly).
//            tests/server/<area>/ mirrors src/server/<area>/; shared fixtures are in tests/server/support/.
//  - web:    components and pages in happy-dom.
//  - e2e:    the built app in Debian's chromium through playwright-core (scripts/test.ts decides).
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { machineUses } from './scripts/machine-uses.ts';

/**
 * Server test files whose subject does not go through the database TEST_DB chooses: the PostgreSQL
 * pass (TEST_DB=pg) would run them again unchanged, so it leaves them to the PGlite pass.
 */
const PGLITE_PASS_ONLY = [
  // Migrates PGlite and, with TEST_DATABASE_URL, a PostgreSQL database of its own, whatever TEST_DB says.
  'tests/server/db/migrations.test.ts',
  // The HTTP layer: the request log and its buffer, the files and headers served beside the API, and
  // sockets that stall or leave (the database only logs an admin in).
  'tests/server/http/log-destination.test.ts',
  'tests/server/http/request-log.test.ts',
  'tests/server/http/stalled-requests.test.ts',
  'tests/server/http/web-files-and-headers.test.ts',
  'tests/server/http/web-page.test.ts',
];

/** Web test files run with a document of their own (project web-own-document). */
const OWN_DOCUMENT = ['tests/web/ui/toast.test.tsx'];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on a 2-core machine every file ran one
    // after another. The files wait on databases, child processes and the browser: two at once.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'tests/machines/**/*.test.ts',
            'tests/contract/**/*.test.ts',
            'tests/lint/**/*.test.ts',
            'tests/scripts/**/*.test.ts',
            'tests/server/**/*.unit.test.ts',
          ],
          environment: 'node',
          // One module graph per worker: the files share no module state, and importing the machines,
          // the contract and the server's modules again for each file was a third of the project's CPU.
          isolate: false,
          // The planner's property tests run hundreds of random worlds each: seconds on a busy 2-core machine.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          // Servers in processes of their own start on a copy of one migrated database (support/data-template.ts),
          // from the server built to JavaScript (support/global-setup.ts builds it when needed).
          globalSetup: ['tests/server/support/global-setup.ts'],
          exclude: [...configDefaults.exclude, 'tests/server/**/*.unit.test.ts', ...(process.env.TEST_DB === 'pg' ? PGLITE_PASS_ONLY : [])],
          environment: 'node',
          pool: 'forks',
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react(), machineUses()],
        // 20 s, not vitest's 5 s: page tests render the whole app in happy-dom and took over 5 s on a
        // busy 2-core CI machine (timing only; no test waits on purpose).
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...OWN_DOCUMENT],
          environment: 'happy-dom',
          // One document and module graph per worker, emptied after each file (support/fresh-document.ts):
          // a fresh environment and module graph per file cost more than the tests themselves.
          isolate: false,
          setupFiles: ['tests/web/support/fresh-document.ts'],
          testTimeout: 20_000,
        },
      },
      {
        plugins: [react()],
        // Files that need a document no other file has used: Headless UI keeps module state about the
        // page's main tree, and a dialog after other files' pages did not always make the root inert.
        test: { name: 'web-own-document', include: OWN_DOCUMENT, environment: 'happy-dom', testTimeout: 20_000 },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/server/support/global-setup.ts'],
          // Two browser files at once (the root's maxWorkers). A simulated scanner sends a code's keys
          // in one burst (setup.ts scanKeys): typed key by key, a busy test process paused inside a code.
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
