/// <reference types="vitest/config" />
// Web app build. index.html sits at the project root (vite root = this folder); the app lives in
// src/web and is built into dist/, which the server serves. In development `vite` proxies the API
// (/api, /ext) to the Fastify server on 127.0.0.1:3000 (API_PORT overrides the port).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { precompress } from './scripts/precompress.ts';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

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
    react(),
    tailwindcss(),
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
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunk imports which; scripts/bundle-size.ts reads it.
    manifest: true,
  },
  // Tests: vitest.config.ts (its own projects) takes precedence over this file for vitest.
});
