// The login page's JavaScript, as a cold load of /login fetches it, beside its target (<= 60 kB on
// the wire, brotli and gzip alike: decision 171). The login page is its own html entry (login.html,
// decision 131), built apart from the app: read from the last `vite build` (its manifest,
// dist/.vite/login-manifest.json), its entry chunk and its static imports, checked against
// dist/login.html (its script and modulepreload links; the app's files it prefetches after its load
// are not counted: scripts/login-prefetch.ts). Sizes are what the server sends: the build's
// precompressed copies (scripts/precompress.ts: brotli quality 11, gzip -9), computed the same way
// here; kB = 1,000 bytes. `tsx scripts/bundle-size.ts` (npm test runs it after its one build) exits
// 1 past the budget, set just above what the page weighs so a regression fails.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

/** The product's target, brotli and gzip each (decisions 131, 171). */
export const LOGIN_JS_TARGET_BYTES = 60_000;
/** A regression past this (brotli or gzip) fails npm test; the target above is printed, met or not (decisions 130, 131, 171). */
export const LOGIN_JS_BUDGET_BYTES = 40_000;
/** The login page's html entry and its build's manifest (vite.config.ts builds it after the app). */
export const LOGIN_HTML = 'login.html';
export const LOGIN_MANIFEST = '.vite/login-manifest.json';

/** One chunk of vite's build manifest (https://vite.dev/guide/backend-integration). */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface LoadedChunk {
  key: string;
  file: string;
}

/**
 * The JS chunks a cold load of an html entry fetches, in load order, each once: its entry chunk and
 * its static imports (transitively). A dynamic import is not followed: it loads when asked for.
 */
export function coldLoadChunks(manifest: Manifest, htmlEntry: string): LoadedChunk[] {
  const entry = manifest[htmlEntry];
  if (!entry?.isEntry) throw new Error(`the manifest has no html entry ${htmlEntry}`);
  const seen = new Set<string>();
  const out: LoadedChunk[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest names ${key} but has no such chunk`);
    seen.add(key);
    out.push({ key, file: chunk.file });
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(htmlEntry);
  return out;
}

/** The JS files a built html page loads itself: its module script and modulepreload links. */
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
  brotliBytes: number;
}

export interface LoginPageJs {
  chunks: SizedChunk[];
  gzipBytes: number;
  brotliBytes: number;
  bytes: number;
  /** Within the target, brotli and gzip. */
  ok: boolean;
  /** Within the budget, brotli and gzip (npm test fails past it). */
  withinBudget: boolean;
}

/** The brotli copy the build writes (scripts/precompress.ts), which the server sends to a browser accepting br. */
export function brotliSize(body: Buffer): number {
  return zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length;
}

/** Measures the login page's JS in a built dist folder. */
export function measureLoginPageJs(distDir = 'dist'): LoginPageJs {
  const manifestFile = path.join(distDir, LOGIN_MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} not found: run \`npm run build\` first`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const loaded = coldLoadChunks(manifest, LOGIN_HTML);
  const fromHtml = htmlScripts(fs.readFileSync(path.join(distDir, LOGIN_HTML), 'utf8'));
  const fromManifest = loaded.map((c) => c.file);
  if (fromHtml.sort().join() !== [...fromManifest].sort().join()) {
    throw new Error(`dist/${LOGIN_HTML} loads ${fromHtml.join(', ')} but the manifest says ${fromManifest.join(', ')}`);
  }
  const chunks = loaded.map((chunk) => {
    const body = fs.readFileSync(path.join(distDir, chunk.file));
    return { ...chunk, bytes: body.length, gzipBytes: zlib.gzipSync(body, { level: 9 }).length, brotliBytes: brotliSize(body) };
  });
  const gzipBytes = chunks.reduce((sum, c) => sum + c.gzipBytes, 0);
  const brotliBytes = chunks.reduce((sum, c) => sum + c.brotliBytes, 0);
  const bytes = chunks.reduce((sum, c) => sum + c.bytes, 0);
  const largest = Math.max(gzipBytes, brotliBytes);
  return { chunks, gzipBytes, brotliBytes, bytes, ok: largest <= LOGIN_JS_TARGET_BYTES, withinBudget: largest <= LOGIN_JS_BUDGET_BYTES };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** One line: the total beside the target (npm run bench prints this). */
export function loginPageJsLine(js: LoginPageJs): string {
  return `login page JS (cold load of /login): ${js.chunks.length} ${js.chunks.length === 1 ? 'file' : 'files'}, ${kB(js.brotliBytes)} brotli, ${kB(js.gzipBytes)} gzipped (${kB(js.bytes)} raw)  target <= ${kB(LOGIN_JS_TARGET_BYTES)} br and gz: ${js.ok ? 'met' : 'NOT met'}; budget ${kB(LOGIN_JS_BUDGET_BYTES)}: ${js.withinBudget ? 'kept' : 'EXCEEDED'}`;
}

/** For npm run bench: the line, from the last build (its time said), or why there is none. */
export function loginPageJsSummary(distDir = 'dist'): string {
  try {
    const built = fs.statSync(path.join(distDir, LOGIN_MANIFEST)).mtime.toISOString().slice(0, 16).replace('T', ' ');
    return `${loginPageJsLine(measureLoginPageJs(distDir))} (build of ${built} UTC)`;
  } catch (error) {
    return `login page JS: not measured (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The chunk by chunk table and the total line. */
export function loginPageJsReport(js: LoginPageJs): string {
  const rows = js.chunks.map(
    (c) => `  ${c.file.padEnd(52)} ${kB(c.bytes).padStart(10)} ${kB(c.brotliBytes).padStart(10)} br ${kB(c.gzipBytes).padStart(10)} gz`,
  );
  return [...rows, loginPageJsLine(js)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const js = measureLoginPageJs(process.argv[2] ?? 'dist');
  console.log(loginPageJsReport(js));
  process.exit(js.withinBudget ? 0 : 1);
}
