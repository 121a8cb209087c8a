// What the login page fetches for the app after it has loaded (decision 171): the app's entry, its
// session and the two homes a login lands on (SPEC §2: `/` goes to the role's home), each with its
// static imports and styles, read from the app's build manifest (dist/.vite/manifest.json, written
// by the app's build, which runs before the login page's: vite.config.ts). The login build writes
// them into login.html as <link rel="prefetch"> tags inside an inert <template id="app-prefetch">;
// the login page's script moves them into the document once the page has loaded
// (src/web/login/prefetch-app.ts), so a cold load fetches only the login page's own files first
// (what scripts/bundle-size.ts counts) and the app's files come from the cache after the login.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { APP_PREFETCH_TEMPLATE_ID } from '../src/web/login/prefetch-app.ts';
import { LOGIN_HTML, type Manifest } from './bundle-size.ts';

/** The app's manifest inside the build folder. */
export const APP_MANIFEST = '.vite/manifest.json';

/**
 * The modules a login lands on, beside the app's html entry: the session (loaded first by the
 * entry), the logged-in layout and the admin's and the member's home (route chunks split by the
 * router plugin: matched by source path, whatever their split suffix).
 */
export const APP_LANDING_MODULES = [
  'src/web/session/session-actor.ts',
  'src/web/routes/_app.tsx',
  'src/web/routes/_app/_admin/admin/home.tsx',
  'src/web/routes/_app/_user/user/home.tsx',
] as const;

/** The files (JS and CSS, paths inside the build folder, load order) a login's landing needs. */
export function appLandingFiles(manifest: Manifest): string[] {
  const keys = ['index.html'];
  for (const module of APP_LANDING_MODULES) {
    const key = Object.keys(manifest).find((k) => k.split('?')[0] === module && manifest[k]?.isDynamicEntry);
    if (!key) throw new Error(`the app's manifest has no chunk of ${module}: update APP_LANDING_MODULES (scripts/login-prefetch.ts)`);
    keys.push(key);
  }
  if (!manifest['index.html']?.isEntry) throw new Error("the app's manifest has no html entry index.html");
  const seen = new Set<string>();
  const files: string[] = [];
  const add = (file: string) => {
    if (!files.includes(file)) files.push(file);
  };
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the app's manifest names ${key} but has no such chunk`);
    seen.add(key);
    add(chunk.file);
    for (const css of chunk.css ?? []) add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/** The prefetch links (inside their template) in a built login.html, in order. */
export function htmlPrefetches(html: string): string[] {
  const template = new RegExp(`<template id="${APP_PREFETCH_TEMPLATE_ID}">([\\s\\S]*?)</template>`).exec(html)?.[1] ?? '';
  return [...template.matchAll(/<link\b[^>]*rel="prefetch"[^>]*href="\/?([^"]+)"/g)].map((m) => m[1]!);
}

/** The login build's plugin: writes the app's landing files into login.html (see the top of this file). */
export function loginPrefetch(): Plugin {
  let outDir = 'dist';
  let base = '/';
  return {
    name: 'purchase-hub:login-prefetch',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'login',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        // The html transforms of every build see each html entry: only login.html gets the links.
        if (path.basename(ctx.filename) !== LOGIN_HTML) return;
        const manifestFile = path.join(outDir, APP_MANIFEST);
        if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} not found: the app is built before the login page (vite.config.ts)`);
        const files = appLandingFiles(JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest);
        return [
          {
            tag: 'template',
            attrs: { id: APP_PREFETCH_TEMPLATE_ID },
            children: files.map((file) => ({ tag: 'link', attrs: { rel: 'prefetch', href: `${base}${file}`, crossorigin: true } })),
            injectTo: 'body',
          },
        ];
      },
    },
  };
}
