// The login page prefetches the app's files only once it has loaded (src/web/login/prefetch-app.ts,
// decision 171): the links the build wrote into login.html's inert template move into the head after
// the load event, so nothing of the app competes with the login page's own files; without the
// template (the dev server) nothing happens.
import { afterEach, describe, expect, it } from 'vitest';
import { APP_PREFETCH_TEMPLATE_ID, prefetchAppAfterLoad } from '../../src/web/login/prefetch-app';

function writeTemplate(): void {
  const template = document.createElement('template');
  template.id = APP_PREFETCH_TEMPLATE_ID;
  template.innerHTML = '<link rel="prefetch" href="/assets/index-a.js" crossorigin><link rel="prefetch" href="/assets/index-a.css" crossorigin>';
  document.body.append(template);
}

const prefetched = () => [...document.head.querySelectorAll('link[rel="prefetch"]')].map((link) => link.getAttribute('href'));

/** A window whose load event has not fired yet. */
function loadingWindow(): Window {
  const listeners: (() => void)[] = [];
  const doc = {
    readyState: 'interactive',
    head: document.head,
    getElementById: (id: string) => document.getElementById(id),
    importNode: (node: Node, deep: boolean) => document.importNode(node, deep),
  };
  return {
    document: doc,
    addEventListener: (type: string, listener: () => void) => void (type === 'load' && listeners.push(listener)),
    fireLoad: () => listeners.forEach((listener) => listener()),
  } as unknown as Window;
}

afterEach(() => {
  document.head.querySelectorAll('link[rel="prefetch"]').forEach((link) => link.remove());
  document.getElementById(APP_PREFETCH_TEMPLATE_ID)?.remove();
});

describe("the login page's prefetch of the app", () => {
  it('adds the prefetch links to the head at the load event, not before', () => {
    writeTemplate();
    const win = loadingWindow();
    prefetchAppAfterLoad(win);
    expect(prefetched()).toEqual([]);
    (win as unknown as { fireLoad: () => void }).fireLoad();
    expect(prefetched()).toEqual(['/assets/index-a.js', '/assets/index-a.css']);
    expect(document.getElementById(APP_PREFETCH_TEMPLATE_ID)).toBeNull();
  });

  it('adds them at once when the page has already loaded', () => {
    writeTemplate();
    prefetchAppAfterLoad(window);
    expect(document.readyState).toBe('complete');
    expect(prefetched()).toEqual(['/assets/index-a.js', '/assets/index-a.css']);
  });

  it('does nothing without the template (the dev server writes none)', () => {
    prefetchAppAfterLoad(window);
    expect(prefetched()).toEqual([]);
  });
});
