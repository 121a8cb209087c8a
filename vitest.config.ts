// Test projects (npm test runs them through scripts/test.ts):
//  - unit:   machines, the contract and the lint zones, plain node.
//  - server: the API through app.inject on a real database. One database per worker, reused across
//            files (isolate: false) and emptied before each test; PGlite by default, PostgreSQL
//            when TEST_DB=pg (scripts/test.ts runs the suite once more that way with TEST_DATABASE_URL).
//  - web:    components and pages in happy-dom.
//  - e2e:    the built app in Debian's chromium through playwright-core (scripts/test.ts decides).
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/machines/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/lint/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        // 20 s, not vitest's 5 s: page tests render the whole app in happy-dom and took over 5 s on a
        // busy 2-core CI machine (timing only; no test waits on purpose).
        test: { name: 'web', include: ['tests/web/**/*.test.{ts,tsx}'], environment: 'happy-dom', testTimeout: 20_000 },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
