// `npm run build`, and what `npm start` builds first when it is missing or older than its sources
// (scripts/start.mjs): the web app (vite, into dist/) and the server (esbuild, into dist-server/).
// The server is bundled to JavaScript so a start runs no TypeScript loader (tsx took 1.4-1.7 s of
// every start) and writes nothing outside DATA_DIR (decision 018). Plain JavaScript: deciding
// whether to build must not need tsx. The layout of dist-server/ is what the bundle reads at run
// time (src/server/run-files.ts): main.js, upload-worker.js, sheet-worker.mjs (copied: it is plain
// JavaScript), migrations/ (client.ts reads them beside the code), and the contract parsed once.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { isDeepStrictEqual } from 'node:util';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_DIR = path.join(ROOT, 'dist-server');
/** The web app's folder: config.ts's webDir (WEB_DIR, default ./dist). */
export const webDirOf = (env = process.env) => path.resolve(env.WEB_DIR ?? './dist');

const WEB_INPUTS = ['index.html', 'login.html', 'vite.config.ts', 'package.json', 'src/web', 'src/api', 'machines'];
const SERVER_INPUTS = ['src/server', 'machines', 'openapi.yaml', 'package.json', 'scripts/build.mjs'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(p).reduce((m, name) => Math.max(m, newestMtime(path.join(p, name))), st.mtimeMs);
}

/** What to do about a build: 'build' (none yet), 'rebuild' (older than a source) or null (up to date). */
function staleness(builtFile, inputs) {
  const built = fs.existsSync(builtFile) ? fs.statSync(builtFile).mtimeMs : 0;
  if (!built) return 'build';
  return Math.max(...inputs.map((p) => newestMtime(path.join(ROOT, p)))) > built ? 'rebuild' : null;
}

const seconds = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

/** Builds the web app into `webDir` when it is missing or stale; says so, and how long it may take. */
export function ensureWebBuilt(webDir = webDirOf()) {
  const need = staleness(path.join(webDir, 'index.html'), WEB_INPUTS);
  if (need) buildWeb(webDir, need === 'build' ? 'first' : need);
}

const WEB_BUILD_SAYS = {
  first: 'First start: building the web app (about a minute on a busy machine; later starts skip this)…',
  rebuild: 'The web app is older than its sources: rebuilding it (about a minute)…',
  build: 'Building the web app (about a minute)…',
};

/** `why`: 'first', 'rebuild' or 'build', what the log says. */
export function buildWeb(webDir = webDirOf(), why = 'build') {
  console.log(WEB_BUILD_SAYS[why]);
  const t0 = performance.now();
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the web build failed (its errors are above)');
  console.log(`Web app built in ${seconds(t0)}.`);
}

/** Builds the server into dist-server/ when it is missing or stale. */
export async function ensureServerBuilt() {
  const need = staleness(path.join(SERVER_DIR, 'main.js'), SERVER_INPUTS);
  if (need) await buildServer(need);
}

/**
 * Bundles the server (node_modules stay external) into a folder of its own, then puts it in place
 * of dist-server/ at once, so a process starting meanwhile never reads half a build.
 */
export async function buildServer(why = 'build') {
  console.log(why === 'rebuild' ? 'The server is older than its sources: rebuilding it (a few seconds)…' : 'Building the server (a few seconds)…');
  const t0 = performance.now();
  const { build } = await import('esbuild');
  const out = `${SERVER_DIR}.${process.pid}`;
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: {
      main: 'src/server/main.ts',
      'upload-worker': 'src/server/files/upload-worker.ts',
      'pglite-thread-worker': 'src/server/db/pglite-thread-worker.ts',
    },
    outdir: out,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(ROOT, 'src/server/files/sheet-worker.mjs'), path.join(out, 'sheet-worker.mjs'));
  fs.cpSync(path.join(ROOT, 'src/server/db/migrations'), path.join(out, 'migrations'), { recursive: true });
  await writeContractJson(out);
  fs.rmSync(SERVER_DIR, { recursive: true, force: true });
  fs.renameSync(out, SERVER_DIR);
  console.log(`Server built in ${seconds(t0)}.`);
}

/**
 * openapi.yaml as JSON, named by the hash of its text as contract.ts looks it up (parsing the YAML
 * took ~0.7 s of a start). Written only when it holds the same object (a YAML value JSON has no form
 * for would not survive): without it the server parses the YAML.
 */
async function writeContractJson(out) {
  const { default: YAML } = await import('yaml');
  const text = fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8');
  const spec = YAML.parse(text);
  const json = JSON.stringify(spec);
  if (!isDeepStrictEqual(JSON.parse(json), spec)) return;
  fs.writeFileSync(path.join(out, `openapi-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`), json);
}

if (process.argv[1] === import.meta.filename) {
  buildWeb();
  await buildServer();
}
