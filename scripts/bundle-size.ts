// The login page's JavaScript, as a cold load of /login fetches it, beside its target (<= 100 kB
// gzipped). Read from the last `vite build` (dist/.vite/manifest.json): index.html's entry chunk and
// its static imports, then the chunks the /login route loads lazily to render (its split loader and
// component) with theirs. The entry's part is checked against dist/index.html (its script and
// modulepreload links). Sizes are gzip -9 (as the build's precompressed .gz files), kB = 1,000 bytes.
// `tsx scripts/bundle-size.ts` (npm test runs it after its one build) exits 1 past the budget, which
// holds today's cuts while the target is not met (React + react-dom + the router alone are ~93 kB).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

export const LOGIN_JS_TARGET_BYTES = 100_000;
/** A regression past this fails npm test; the target above is printed, met or not (decision 130). */
export const LOGIN_JS_BUDGET_BYTES = 150_000;
export const LOGIN_ROUTE_FILE = 'src/web/routes/login.tsx';
/** The split parts of a route that render it; its errorComponent and notFoundComponent load only on failure. */
const RENDER_SPLITS = new Set(['loader', 'component']);

/** One chunk of vite's build manifest (https://vite.dev/guide/backend-integration). */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface LoadedChunk {
  key: string;
  file: string;
  /** entry: index.html's script and what it imports; lazy: what the route adds when it renders. */
  via: 'entry' | 'lazy';
}

/** The route's own lazily loaded chunks that render it (`<file>?tsr-split=component---loader`, etc.). */
function renderSplitsOf(manifest: Manifest, routeFile: string): string[] {
  return Object.keys(manifest).filter((key) => {
    const [file, query] = key.split('?');
    if (file !== routeFile || !query) return false;
    const parts = (new URLSearchParams(query).get('tsr-split') ?? '').split('---');
    return parts.some((part) => RENDER_SPLITS.has(part));
  });
}

/**
 * The JS chunks a cold load of `routeFile`'s page fetches, in load order, each once: the html
 * entry's chunk, its static imports (transitively), then the route's render splits and their static
 * imports. A dynamic import of those chunks is not followed: it loads when something asks for it.
 */
export function coldLoadChunks(manifest: Manifest, routeFile: string): LoadedChunk[] {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry && key.endsWith('.html'));
  if (!entryKey) throw new Error('the manifest has no html entry');
  const lazyKeys = renderSplitsOf(manifest, routeFile);
  if (lazyKeys.length === 0) throw new Error(`the manifest has no split chunk of ${routeFile}`);
  const seen = new Set<string>();
  const out: LoadedChunk[] = [];
  const visit = (key: string, via: LoadedChunk['via']) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest names ${key} but has no such chunk`);
    seen.add(key);
    out.push({ key, file: chunk.file, via });
    for (const imported of chunk.imports ?? []) visit(imported, via);
  };
  visit(entryKey, 'entry');
  for (const key of lazyKeys) visit(key, 'lazy');
  return out;
}

/** The JS files dist/index.html loads itself: its module script and modulepreload links. */
export function htmlScripts(html: string): string[] {
  const files: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModuleScript = tag.startsWith('<script') && /type="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /rel="modulepreload"/.test(tag);
    const ref = /(?:src|href)="\/?([^"]+)"/.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && ref) files.push(ref);
  }
  return files;
}

export interface SizedChunk extends LoadedChunk {
  bytes: number;
  gzipBytes: number;
}

export interface LoginPageJs {
  chunks: SizedChunk[];
  gzipBytes: number;
  bytes: number;
  /** Within the target. */
  ok: boolean;
  /** Within the budget (npm test fails past it). */
  withinBudget: boolean;
}

/** Measures the login page's JS in a built dist folder. */
export function measureLoginPageJs(distDir = 'dist'): LoginPageJs {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} not found: run \`npm run build\` first`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const loaded = coldLoadChunks(manifest, LOGIN_ROUTE_FILE);
  const fromHtml = htmlScripts(fs.readFileSync(path.join(distDir, 'index.html'), 'utf8'));
  const fromManifest = loaded.filter((c) => c.via === 'entry').map((c) => c.file);
  if (fromHtml.sort().join() !== [...fromManifest].sort().join()) {
    throw new Error(`dist/index.html loads ${fromHtml.join(', ')} but the manifest says ${fromManifest.join(', ')}`);
  }
  const chunks = loaded.map((chunk) => {
    const body = fs.readFileSync(path.join(distDir, chunk.file));
    return { ...chunk, bytes: body.length, gzipBytes: zlib.gzipSync(body, { level: 9 }).length };
  });
  const gzipBytes = chunks.reduce((sum, c) => sum + c.gzipBytes, 0);
  const bytes = chunks.reduce((sum, c) => sum + c.bytes, 0);
  return { chunks, gzipBytes, bytes, ok: gzipBytes <= LOGIN_JS_TARGET_BYTES, withinBudget: gzipBytes <= LOGIN_JS_BUDGET_BYTES };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** One line: the total beside the target (npm run bench prints this). */
export function loginPageJsLine(js: LoginPageJs): string {
  return `login page JS (cold load of /login): ${js.chunks.length} files, ${kB(js.gzipBytes)} gzipped (${kB(js.bytes)} raw)  target <= ${kB(LOGIN_JS_TARGET_BYTES)} gz: ${js.ok ? 'met' : 'NOT met'}; budget ${kB(LOGIN_JS_BUDGET_BYTES)}: ${js.withinBudget ? 'kept' : 'EXCEEDED'}`;
}

/** For npm run bench: the line, from the last build (its time said), or why there is none. */
export function loginPageJsSummary(distDir = 'dist'): string {
  try {
    const built = fs
      .statSync(path.join(distDir, '.vite', 'manifest.json'))
      .mtime.toISOString()
      .slice(0, 16)
      .replace('T', ' ');
    return `${loginPageJsLine(measureLoginPageJs(distDir))} (build of ${built} UTC)`;
  } catch (error) {
    return `login page JS: not measured (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The chunk by chunk table and the total line. */
export function loginPageJsReport(js: LoginPageJs): string {
  const rows = js.chunks.map((c) => `  ${c.via.padEnd(6)} ${c.file.padEnd(52)} ${kB(c.bytes).padStart(10)} ${kB(c.gzipBytes).padStart(10)} gz`);
  return [...rows, loginPageJsLine(js)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const js = measureLoginPageJs(process.argv[2] ?? 'dist');
  console.log(loginPageJsReport(js));
  process.exit(js.withinBudget ? 0 : 1);
}
