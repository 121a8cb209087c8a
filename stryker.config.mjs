// Mutation testing (decision 042): Stryker changes one thing at a time in the rules (machines/) and
// the matching planner, and runs the unit tests that reach it; a change no test notices is a rule
// nobody pins. Static mutants (the machine definitions, built once when a file loads) are run too,
// each with its modules reloaded: those are the guards and targets of every chart.
// `npm run test:mutation`; the report is reports/mutation/index.html. Not part of `npm test`: minutes.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: ['machines/**/*.ts', 'src/server/matching/plan.ts', 'src/server/matching/allocate.ts'],
  ignoreStatic: false,
  coverageAnalysis: 'perTest',
  checkers: [],
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['/data', '/dist', '/dist-server', '/test-results', '/docs', '/deploy', '/reports'],
  thresholds: { high: 95, low: 90, break: null },
  // Over what a mutant's tests took in the dry run: a mutant that loops forever is cut short.
  timeoutMS: 5000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
