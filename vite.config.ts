/// <reference types="vitest/config" />
// Web app build. index.html sits at the project root (vite root = this folder); the app lives in
// src/web and is built into dist/, which the server serves. login.html beside it is the login page's
// own entry (src/web/login, decision 131): the server answers /login with it, and so does `vite`
// (loginPage below). In development `vite` proxies the API (/api, /ext) to the Fastify server on
// 127.0.0.1:3000 (API_PORT overrides the port).
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { precompress } from './scripts/precompress.ts';
import { machineUses } from './scripts/machine-uses.ts';
import { loginPrefetch } from './scripts/login-prefetch.ts';
import { isLoginPage, LOGIN_PAGE_FILE } from './src/server/login-page.ts';

/** The folder holding this checkout (see the client build's file names). */
const CHECKOUT_NAME = path.basename(import.meta.dirname);

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

/** In `vite` (dev), /login (with its query) opens login.html as the server does (src/server/login-page.ts), not the app's index.html. */
function loginPage(): Plugin {
  return {
    name: 'purchase-hub:login-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '';
        if (isLoginPage(url)) req.url = `/${LOGIN_PAGE_FILE}${url.includes('?') ? url.slice(url.indexOf('?')) : ''}`;
        next();
      });
    },
  };
}

/**
 * The login build only (decision 171): React's packages resolve to Preact's compat layer, so the
 * login page draws the app's own components (the page frame, the form kit with react-hook-form) with
 * ~10 kB gzipped of Preact instead of react-dom's ~60 kB. The app's build keeps React.
 */
const PREACT_FOR_REACT: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
};
function preactForLogin(): Plugin {
  return {
    name: 'purchase-hub:preact-for-login',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'login',
    async resolveId(source, importer, options) {
      const target = PREACT_FOR_REACT[source];
      return target ? this.resolve(target, importer, { ...options, skipSelf: true }) : null;
    },
  };
}

export default defineConfig({
  plugins: [
    // Must come before react(): it generates src/web/routeTree.gen.ts (committed) and splits
    // each route's loader and component into one chunk, fetched when the route is first visited
    // (the API modules its loader calls are not in the entry; docs/decisions/130).
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/web/routes',
      generatedRouteTree: 'src/web/routeTree.gen.ts',
      autoCodeSplitting: true,
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      quoteStyle: 'single',
    }),
    preactForLogin(),
    react(),
    tailwindcss(),
    loginPage(),
    // virtual:machine-uses for the state charts' "what depends on this state" (decision 132).
    machineUses(),
    // login.html: the app's files a login lands on, prefetched after the page's load (decision 171).
    loginPrefetch(),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/ext': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: which chunk imports which.
    manifest: true,
  },
  // Two builds into dist/, one after the other: the app (index.html) and the login page (login.html).
  // Apart, so that each keeps only what it uses of a package: built together, their shared chunks held
  // what both used of react-hook-form, valibot and the API client, and the login page fetched 100.6
  // kB gzipped in 11 files instead of 94.2 kB in one (decision 131). scripts/bundle-size.ts reads the
  // login page's manifest (dist/.vite/login-manifest.json).
  environments: {
    client: {
      build: {
        emptyOutDir: true,
        // Fewer, larger chunks (decision 174): a chunk shared by several routes and under 16 kB is
        // copied into each chunk that imports it instead of being a file of its own. An admin's
        // /admin/tracking-list fetched 61 files over HTTP/1.1's 6 connections per host (the session's
        // call waited behind them); now 21, with 2 kB less brotli. All the app's files grow ~15%.
        // The app's shared code (most of what the entry held) becomes a chunk rolldown names after the
        // folder holding the checkout: named `app` instead, so a build's file names do not depend on it.
        rolldownOptions: {
          input: { index: 'index.html' },
          output: {
            codeSplitting: { experimentalInlineCommonChunks: { maxSize: 16_384 } },
            chunkFileNames: (chunk) => `assets/${chunk.name === CHECKOUT_NAME ? 'app' : '[name]'}-[hash].js`,
            assetFileNames: (asset) => `assets/${asset.names[0] === `${CHECKOUT_NAME}.css` ? 'app' : '[name]'}-[hash][extname]`,
          },
        },
      },
    },
    login: {
      consumer: 'client',
      build: { emptyOutDir: false, manifest: '.vite/login-manifest.json', rolldownOptions: { input: { login: 'login.html' } } },
    },
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await builder.build(builder.environments.login!);
    },
  },
  // Tests: vitest.config.ts (its own projects) takes precedence over this file for vitest.
});
