// The web app's index.html as the server answers a path of the app (decision 174): the built page
// with a <link rel="modulepreload"> for each file the path's route needs that the entry does not
// import, read from the build's manifest (dist/.vite/manifest.json). The router plugin splits each
// route file into a chunk the router fetches only when the route is entered, after the entry has run
// and the session has loaded; preloaded, those files arrive in parallel with the entry instead. Also
// the CSP hashes of the page's inline scripts (index.html's early session call), so the
// Content-Security-Policy lets them run and nothing else inline; and, on a page behind the login, the
// mark that lets that script send a visitor without a session to the login page at once (decision 189).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Where the router plugin's route files are, as the manifest names them (key `<file>?tsr-split=...`). */
const ROUTES_DIR = 'src/web/routes/';
/** The session's chunk: every route's beforeLoad waits for it (routes/__root.tsx: initialiseSession). */
export const SESSION_CHUNK_SRC = 'src/web/session/session-actor.ts';

interface RouteChunks {
  /** The route's path segments; `$name` matches any one segment. */
  segments: string[];
  /** The route file (under src/web/routes, without .tsx), e.g. `_app/_admin/admin/tracking-list`. */
  file: string;
}

/**
 * A route file's URL segments, as the TanStack router plugin reads its name: folders and dots
 * separate segments, a segment starting with `_` is pathless (a layout), `index` is its folder's
 * own path. `_app/_admin/admin/board.$id` -> ['admin', 'board', '$id'].
 */
export function routeSegments(file: string): string[] {
  const parts = file.split('/').flatMap((part) => part.split('.'));
  const segments = parts.filter((part) => !part.startsWith('_'));
  if (segments[segments.length - 1] === 'index') segments.pop();
  return segments;
}

/** The path of a page request, without its query and trailing slash, split in segments. */
function pathSegments(url: string): string[] {
  const pathname = url.split(/[?#]/, 1)[0]!;
  return pathname.split('/').filter(Boolean);
}

function matches(route: string[], url: string[]): boolean {
  return route.length === url.length && route.every((segment, i) => (segment.startsWith('$') ? url[i] !== '' : segment === url[i]));
}

/** Of the routes matching the path, the one with the most literal segments (as the router ranks them). */
export function routeFileFor(routes: readonly RouteChunks[], url: string): string | null {
  const segments = pathSegments(url);
  let best: RouteChunks | null = null;
  let bestLiterals = -1;
  for (const route of routes) {
    if (!matches(route.segments, segments)) continue;
    const literals = route.segments.filter((s) => !s.startsWith('$')).length;
    if (literals > bestLiterals) [best, bestLiterals] = [route, literals];
  }
  return best?.file ?? null;
}

type PageRoutes = { byRouteFile: Map<string, string>; routes: RouteChunks[] };
/** Read once per manifest (a build's), not on every page request. */
const pageRoutesOf = new WeakMap<Manifest, PageRoutes>();

/** The split route files of the build (file -> manifest key), and those that are pages, with their segments. */
function pageRoutes(manifest: Manifest): PageRoutes {
  let known = pageRoutesOf.get(manifest);
  if (!known) pageRoutesOf.set(manifest, (known = readPageRoutes(manifest)));
  return known;
}

function readPageRoutes(manifest: Manifest): PageRoutes {
  const byRouteFile = new Map<string, string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!key.startsWith(ROUTES_DIR) || !chunk.src) continue;
    byRouteFile.set(
      key
        .slice(ROUTES_DIR.length)
        .split('?', 1)[0]!
        .replace(/\.tsx?$/, ''),
      key,
    );
  }
  // A layout (its name starts with `_`: `_app`) wraps pages; it is no page of its own.
  const routes = [...byRouteFile.keys()].filter((file) => !file.split('/').pop()!.startsWith('_')).map((file) => ({ file, segments: routeSegments(file) }));
  return { byRouteFile, routes };
}

/**
 * The files to preload for a path of the app: the chunks of its route file and of its layout files
 * (the route's folders: `_app.tsx` for `_app/...`), the session's chunk, and every file they import
 * statically, less the entry and what it imports (the built index.html preloads those already).
 * None for a path no split route serves (an unknown path, `/`).
 */
export function preloadFiles(manifest: Manifest, url: string): string[] {
  const { byRouteFile, routes } = pageRoutes(manifest);
  const file = routeFileFor(routes, url);
  if (!file) return [];
  const folders = file.split('/');
  const keys = folders.map((_, i) => byRouteFile.get(folders.slice(0, i + 1).join('/'))).filter((key): key is string => !!key);
  if (manifest[SESSION_CHUNK_SRC]) keys.unshift(SESSION_CHUNK_SRC);

  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const loaded = new Set<string>(entryKey ? [entryKey, ...(manifest[entryKey]!.imports ?? [])] : []);
  const files: string[] = [];
  const visit = (key: string) => {
    if (loaded.has(key) || !manifest[key]) return;
    loaded.add(key);
    files.push(manifest[key].file);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

/**
 * The layout every login-required page sits under (routes/_app.tsx: requireLogin), and `/`, which
 * sends a visitor without a session to the login page too (routes/index.tsx: redirectHome).
 */
const LOGIN_LAYOUT = '_app/';

/**
 * Whether the path's page needs a login: its route file is under the login layout, or it is `/`. An
 * unknown path is not (the app sends it to /me, SPEC §2, whose guard asks for the login), nor /signup, /reset and
 * /forgot-password.
 */
export function needsLogin(manifest: Manifest, url: string): boolean {
  if (pathSegments(url).length === 0) return true;
  return routeFileFor(pageRoutes(manifest).routes, url)?.startsWith(LOGIN_LAYOUT) ?? false;
}

/**
 * The mark index.html's early script reads (decision 189): on a login-required page, a visitor with no
 * stored token goes to the login page at once, before the app's files load, as the app's guard would send them.
 */
export const LOGIN_REQUIRED_MARK = 'data-login-required';

/** The page with the preload links of `files` before </head>, and `<html>` marked when the page needs a login. */
export function withPreloads(html: string, files: readonly string[], loginRequired = false): string {
  const marked = loginRequired ? html.replace(/<html\b/, `<html ${LOGIN_REQUIRED_MARK}`) : html;
  if (!files.length) return marked;
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  return marked.replace('</head>', `    ${links}\n  </head>`);
}

/** CSP source expressions ('sha256-...') of the page's inline scripts (those without src). */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .filter((m) => m[1]!.trim())
    .map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
}

export interface PageVariant {
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

export interface WebPage {
  /** The page for a path of the app (compressed once per route, on first use). */
  forUrl(url: string): PageVariant;
  /** CSP hashes of its inline scripts. */
  scriptHashes: string[];
}

/** index.html of a built web folder, or null when there is none; without a manifest, no preloads. */
export function loadWebPage(webDir: string): WebPage | null {
  const indexFile = path.join(webDir, 'index.html');
  if (!fs.existsSync(indexFile)) return null;
  const html = fs.readFileSync(indexFile, 'utf8');
  const manifestFile = path.join(webDir, '.vite', 'manifest.json');
  const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest) : {};
  const variants = new Map<string, PageVariant>();
  return {
    scriptHashes: inlineScriptHashes(html),
    forUrl(url) {
      const files = preloadFiles(manifest, url);
      const loginRequired = needsLogin(manifest, url);
      const key = `${loginRequired} ${files.join(' ')}`;
      let variant = variants.get(key);
      if (!variant) {
        const raw = Buffer.from(withPreloads(html, files, loginRequired));
        variant = {
          raw,
          br: zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          gzip: zlib.gzipSync(raw, { level: 9 }),
          etag: `"${createHash('sha1').update(raw).digest('base64url')}"`,
        };
        variants.set(key, variant);
      }
      return variant;
    },
  };
}

/** The encoding to answer with: br, then gzip, if the request accepts it (q > 0); else none. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name!.trim().toLowerCase()),
  );
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}
