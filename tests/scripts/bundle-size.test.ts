// scripts/bundle-size.ts decides which chunks a cold load of /login fetches; on a small made-up
// manifest: the entry and its static imports, the route's render splits and theirs, each once, and
// nothing that is only imported dynamically or belongs to another route.
import { describe, expect, it } from 'vitest';
import { coldLoadChunks, htmlScripts, type Manifest } from '../../scripts/bundle-size.ts';

const manifest: Manifest = {
  'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_react.js'], dynamicImports: ['src/web/routes/login.tsx?tsr-split=component'] },
  '_react.js': { file: 'assets/react-b.js' },
  '_form.js': { file: 'assets/form-c.js', imports: ['_react.js'] },
  '_dialog.js': { file: 'assets/dialog-d.js' },
  'src/web/routes/login.tsx?tsr-split=component': {
    file: 'assets/login-e.js',
    isDynamicEntry: true,
    imports: ['_form.js', '_react.js'],
    dynamicImports: ['_dialog.js'],
  },
  'src/web/routes/login.tsx?tsr-split=errorComponent': { file: 'assets/login-error-f.js', isDynamicEntry: true },
  'src/web/routes/signup.tsx?tsr-split=component---loader': { file: 'assets/signup-g.js', isDynamicEntry: true, imports: ['_form.js'] },
};

describe('the chunks a cold load of /login fetches', () => {
  it('takes the entry with its static imports, then the route render splits with theirs, each once', () => {
    expect(coldLoadChunks(manifest, 'src/web/routes/login.tsx')).toEqual([
      { key: 'index.html', file: 'assets/index-a.js', via: 'entry' },
      { key: '_react.js', file: 'assets/react-b.js', via: 'entry' },
      { key: 'src/web/routes/login.tsx?tsr-split=component', file: 'assets/login-e.js', via: 'lazy' },
      { key: '_form.js', file: 'assets/form-c.js', via: 'lazy' },
    ]);
  });

  it('counts a split that holds the loader beside the component', () => {
    const files = coldLoadChunks(manifest, 'src/web/routes/signup.tsx').map((c) => c.file);
    expect(files).toEqual(['assets/index-a.js', 'assets/react-b.js', 'assets/signup-g.js', 'assets/form-c.js']);
  });

  it('refuses a manifest without the route split (the route would not be lazy)', () => {
    expect(() => coldLoadChunks(manifest, 'src/web/routes/reset.tsx')).toThrow(/no split chunk/);
  });

  it('reads the module script and the modulepreload links of index.html, not the stylesheet', () => {
    const html = `<script type="module" crossorigin src="/assets/index-a.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react-b.js">
      <link rel="stylesheet" crossorigin href="/assets/index-h.css">`;
    expect(htmlScripts(html)).toEqual(['assets/index-a.js', 'assets/react-b.js']);
  });
});
