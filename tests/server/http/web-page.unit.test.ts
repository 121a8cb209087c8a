// Which files the server preloads for a path of the app (decision 174): read from the build's
// manifest, the chunks of the path's route and of its layouts, the session's chunk, and their static
// imports, less what the entry loads already; nothing for a path no split route serves.
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, pickEncoding, preloadFiles, routeSegments, withPreloads } from '../../../src/server/web-page.ts';

const manifest = {
  'index.html': { file: 'assets/index-1.js', src: 'index.html', isEntry: true, imports: ['_react-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_table-1.js': { file: 'assets/table-1.js', imports: ['_react-1.js', '_format-1.js'] },
  '_format-1.js': { file: 'assets/format-1.js' },
  '_xstate-1.js': { file: 'assets/xstate-1.js' },
  'src/web/session/session-actor.ts': { file: 'assets/session-actor-1.js', src: 'src/web/session/session-actor.ts', imports: ['_xstate-1.js', 'index.html'] },
  'src/web/routes/_app.tsx?tsr-split=component---loader': {
    file: 'assets/_app-1.js',
    src: 'src/web/routes/_app.tsx?tsr-split=component---loader',
    imports: ['index.html'],
  },
  'src/web/routes/_app/_admin/admin/tracking-list.tsx?tsr-split=component---loader': {
    file: 'assets/tracking-list-1.js',
    src: 'src/web/routes/_app/_admin/admin/tracking-list.tsx?tsr-split=component---loader',
    imports: ['_table-1.js', 'index.html'],
  },
  'src/web/routes/_app/_admin/admin/board.$id.tsx?tsr-split=component---loader': {
    file: 'assets/board-1.js',
    src: 'src/web/routes/_app/_admin/admin/board.$id.tsx?tsr-split=component---loader',
    imports: ['_table-1.js'],
  },
  'src/web/routes/_app/_admin/admin/board.new.tsx?tsr-split=component---loader': {
    file: 'assets/board-new-1.js',
    src: 'src/web/routes/_app/_admin/admin/board.new.tsx?tsr-split=component---loader',
  },
  'src/web/routes/signup.tsx?tsr-split=component---loader': { file: 'assets/signup-1.js', src: 'src/web/routes/signup.tsx?tsr-split=component---loader' },
};

describe('the files preloaded for a path of the app', () => {
  it("a route's chunk, its layout's, the session's and their imports, less the entry's", () => {
    expect(preloadFiles(manifest, '/admin/tracking-list')).toEqual([
      'assets/session-actor-1.js',
      'assets/xstate-1.js',
      'assets/_app-1.js',
      'assets/tracking-list-1.js',
      'assets/table-1.js',
      'assets/format-1.js',
    ]);
    // Its query and a trailing slash change nothing.
    expect(preloadFiles(manifest, '/admin/tracking-list/?page=2&size=50')).toEqual(preloadFiles(manifest, '/admin/tracking-list'));
  });

  it('a path with an id takes its route with the parameter; a literal segment wins over a parameter', () => {
    expect(preloadFiles(manifest, '/admin/board/12')).toContain('assets/board-1.js');
    expect(preloadFiles(manifest, '/admin/board/new')).toContain('assets/board-new-1.js');
    expect(preloadFiles(manifest, '/admin/board/new')).not.toContain('assets/board-1.js');
    // A route outside the logged-in layout: no layout chunk.
    expect(preloadFiles(manifest, '/signup')).toEqual(['assets/session-actor-1.js', 'assets/xstate-1.js', 'assets/signup-1.js']);
  });

  it('none for a path no route serves, nor without a manifest', () => {
    for (const url of ['/no/such/page', '/admin', '/admin/tracking-list/extra', '/admin/board/12/x', '/']) expect(preloadFiles(manifest, url), url).toEqual([]);
    expect(preloadFiles({}, '/admin/tracking-list')).toEqual([]);
  });

  it('route file names read as the router plugin reads them', () => {
    expect(routeSegments('_app/_admin/admin/board.$id')).toEqual(['admin', 'board', '$id']);
    expect(routeSegments('_app/_user/user/boardtask.$boardId.$taskId')).toEqual(['user', 'boardtask', '$boardId', '$taskId']);
    expect(routeSegments('_app/me')).toEqual(['me']);
    expect(routeSegments('index')).toEqual([]);
  });

  it('the links go before </head>; the inline scripts are hashed, the others not', () => {
    const html = '<html><head><script>var a = 1;</script><script type="module" src="/assets/index-1.js"></script></head><body></body></html>';
    expect(withPreloads(html, ['assets/x.js'])).toContain('<link rel="modulepreload" crossorigin href="/assets/x.js">\n  </head>');
    expect(withPreloads(html, [])).toBe(html);
    // sha256 of "var a = 1;" in base64, as a CSP source expression.
    expect(inlineScriptHashes(html)).toEqual(["'sha256-+dZ6udsWxNVoGfScAq7t5IIF5UJb4F6RhjbN6oe1p4w='"]);
  });

  it('the encoding: br, then gzip, never one the request refuses', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
  });
});
