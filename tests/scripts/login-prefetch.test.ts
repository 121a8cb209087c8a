// scripts/login-prefetch.ts decides what the login page prefetches for the app after its load
// (decision 171); on a small made-up manifest of the app: the entry with its imports and styles,
// then the session and the landing routes (whatever the router plugin's split suffix), each file
// once, and nothing that only another page imports.
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../scripts/bundle-size.ts';
import { appLandingFiles, htmlPrefetches } from '../../scripts/login-prefetch.ts';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    isEntry: true,
    css: ['assets/index-a.css'],
    imports: ['_react.js'],
    dynamicImports: ['src/web/session/session-actor.ts'],
  },
  '_react.js': { file: 'assets/react-b.js' },
  '_xstate.js': { file: 'assets/xstate-c.js' },
  '_table.js': { file: 'assets/table-d.js', imports: ['_react.js'] },
  'src/web/session/session-actor.ts': { file: 'assets/session-actor-e.js', isDynamicEntry: true, imports: ['_xstate.js', 'index.html'] },
  'src/web/routes/_app.tsx?tsr-split=component---loader': { file: 'assets/_app-f.js', isDynamicEntry: true, imports: ['index.html'] },
  'src/web/routes/_app/_admin/admin/home.tsx?tsr-split=component---loader': {
    file: 'assets/home-g.js',
    isDynamicEntry: true,
    imports: ['index.html', '_xstate.js'],
    css: ['assets/home-g.css'],
  },
  'src/web/routes/_app/_user/user/home.tsx?tsr-split=component---loader': { file: 'assets/home-h.js', isDynamicEntry: true, imports: ['_react.js'] },
  'src/web/routes/_app/_admin/admin/board-list.tsx?tsr-split=component---loader': {
    file: 'assets/board-list-i.js',
    isDynamicEntry: true,
    imports: ['_table.js'],
  },
};

describe("the app's files the login page prefetches", () => {
  it('takes the entry, the session, the layout and both homes with their imports and styles, each once, in load order', () => {
    expect(appLandingFiles(manifest)).toEqual([
      'assets/index-a.js',
      'assets/index-a.css',
      'assets/react-b.js',
      'assets/session-actor-e.js',
      'assets/xstate-c.js',
      'assets/_app-f.js',
      'assets/home-g.js',
      'assets/home-g.css',
      'assets/home-h.js',
    ]);
  });

  it('refuses a manifest without a landing module, so a renamed route is noticed at build time', () => {
    const { ['src/web/routes/_app/_user/user/home.tsx?tsr-split=component---loader']: _dropped, ...rest } = manifest;
    expect(() => appLandingFiles(rest)).toThrow(/no chunk of src\/web\/routes\/_app\/_user\/user\/home.tsx/);
  });

  it("reads the prefetch links inside the built page's template, not its own script or stylesheet", () => {
    const html = `<script type="module" crossorigin src="/assets/login-b.js"></script>
      <link rel="stylesheet" crossorigin href="/assets/login-h.css">
      <template id="app-prefetch"><link rel="prefetch" href="/assets/index-a.js" crossorigin>
      <link rel="prefetch" href="/assets/index-a.css" crossorigin></template>`;
    expect(htmlPrefetches(html)).toEqual(['assets/index-a.js', 'assets/index-a.css']);
  });
});
