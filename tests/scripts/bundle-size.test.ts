// scripts/bundle-size.ts decides which chunks a cold load of /login fetches (login.html, the login
// page's own entry); on a small made-up manifest: the entry and its static imports, each once, and
// nothing that is only imported dynamically or belongs to the app's entry.
import { describe, expect, it } from 'vitest';
import { coldLoadChunks, htmlScripts, type Manifest } from '../../scripts/bundle-size.ts';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    isEntry: true,
    imports: ['_react.js', '_router.js'],
    dynamicImports: ['src/web/routes/me.tsx?tsr-split=component'],
  },
  'login.html': { file: 'assets/login-b.js', isEntry: true, imports: ['_react.js', '_form.js'], dynamicImports: ['_dialog.js'] },
  '_react.js': { file: 'assets/react-c.js' },
  '_router.js': { file: 'assets/router-d.js', imports: ['_react.js'] },
  '_form.js': { file: 'assets/form-e.js', imports: ['_react.js'] },
  '_dialog.js': { file: 'assets/dialog-f.js' },
  'src/web/routes/me.tsx?tsr-split=component': { file: 'assets/me-g.js', isDynamicEntry: true, imports: ['_form.js'] },
};

describe('the chunks a cold load of /login fetches', () => {
  it("takes login.html's entry chunk with its static imports, each once, and no dynamic import", () => {
    expect(coldLoadChunks(manifest, 'login.html')).toEqual([
      { key: 'login.html', file: 'assets/login-b.js' },
      { key: '_react.js', file: 'assets/react-c.js' },
      { key: '_form.js', file: 'assets/form-e.js' },
    ]);
  });

  it('refuses a manifest without the entry (the build did not make the login page)', () => {
    expect(() => coldLoadChunks(manifest, 'signup.html')).toThrow(/no html entry signup.html/);
    expect(() => coldLoadChunks(manifest, '_react.js')).toThrow(/no html entry/);
  });

  it('reads the module script and the modulepreload links of a built page, not the stylesheet', () => {
    const html = `<script type="module" crossorigin src="/assets/login-b.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react-c.js">
      <link rel="stylesheet" crossorigin href="/assets/login-h.css">`;
    expect(htmlScripts(html)).toEqual(['assets/login-b.js', 'assets/react-c.js']);
  });
});
