// `npm test`: everything a reviewer checks — types, lint, format and the web build at once, the login page's JS
// size from that build, then unit + API (PGlite) + web tests,
// the API tests again on PostgreSQL when TEST_DATABASE_URL is set, then the browser tests in
// Debian's chromium. Without chromium the browser tests are skipped with a clear message, unless
// E2E_REQUIRED=1, which makes that a failure. Each step prints its time and the run its wall time;
// for a faster inner loop run one project: npm run test:unit, test:api or test:web.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const bin = (name: string) => path.resolve('node_modules/.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];
const started = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

function step(title: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n▶ ${title}`);
  const stepStarted = performance.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`(${title}: ${seconds(stepStarted)})`);
  if (r.status !== 0) failures.push(title);
  return r.status === 0;
}

function vitest(title: string, projects: string[], env: NodeJS.ProcessEnv = {}, extraArgs: string[] = []) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ph-vitest-')), 'report.json');
  const ok = step(
    title,
    bin('vitest'),
    ['run', ...projects.flatMap((p) => ['--project', p]), ...extraArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    env,
  );
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      numTotalTests: number;
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
    };
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    // A step that ran no test (a global setup that hung, then gave up) exits 0: it is not a pass.
    if (r.numTotalTests === 0) {
      console.error(`✖ ${title}: no test ran`);
      failures.push(`${title} (no test ran)`);
      return false;
    }
  } else if (!ok) totals.failed += 1;
  return ok;
}

/**
 * Steps that share nothing run at once (each is one single-threaded process), their output held and
 * printed in order when all have finished.
 */
async function together(steps: { title: string; cmd: string; args: string[] }[]) {
  const runs = steps.map(({ title, cmd, args }) => {
    const stepStarted = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    return new Promise<void>((resolve) =>
      child.on('close', (code) => {
        const time = seconds(stepStarted);
        if (code !== 0) failures.push(title);
        resolve(void console.log(`\n▶ ${title}\n${out.trimEnd()}${out.trim() ? '\n' : ''}(${title}: ${time})`));
      }),
    );
  });
  await Promise.all(runs);
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserTests = fs.existsSync(chromium);
const BUILD = 'build the web app (for its size and the browser tests)';

await together([
  // TypeScript 7's compiler (native, a third of 5.9's CPU); the tools that need TypeScript's JS API keep 5.9 (decision 188).
  { title: 'typecheck (tsc 7 --noEmit)', cmd: process.execPath, args: [path.resolve('node_modules/typescript7/bin/tsc'), '--noEmit'] },
  { title: 'lint (eslint)', cmd: bin('eslint'), args: ['.', '--max-warnings=0'] },
  { title: 'format (prettier --check)', cmd: bin('prettier'), args: ['--check', '.', '--log-level', 'warn'] },
  { title: BUILD, cmd: process.execPath, args: [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'] },
]);
// The login page's JS beside its target, read from that build; fails past its budget (scripts/bundle-size.ts).
if (!failures.includes(BUILD)) step('login page JS size', process.execPath, ['--import', 'tsx', 'scripts/bundle-size.ts']);
vitest('unit, API on PGlite, web', ['unit', 'server', 'web', 'web-own-document']);

// PostgreSQL does much of this pass's work in its own processes: a third worker keeps both cores busy.
if (process.env.TEST_DATABASE_URL) vitest('API on PostgreSQL', ['server'], { TEST_DB: 'pg' }, ['--maxWorkers=3']);
else console.log('\n(i) TEST_DATABASE_URL is not set: the API tests ran on PGlite only.');

if (browserTests) {
  if (!failures.includes(BUILD)) vitest('browser (e2e) in chromium', ['e2e'], { CHROMIUM_PATH: chromium });
} else {
  const msg = `Browser tests SKIPPED: ${chromium} not found. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`;
  if (process.env.E2E_REQUIRED === '1') {
    console.error(`\n✖ ${msg} E2E_REQUIRED=1 makes this a failure.`);
    failures.push('browser tests (chromium missing)');
  } else console.warn(`\n⚠ ${msg}`);
}

console.log(`\n${failures.length ? `Failed steps: ${failures.join('; ')}` : 'All steps passed.'}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
console.log(`total wall time ${seconds(started)}`);
process.exit(failures.length ? 1 : 0);
