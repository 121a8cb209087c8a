// The web tests share one happy-dom document per worker (isolate: false: a fresh environment and
// module graph per file cost more than the tests themselves). Each file starts from an empty page:
// what a file left in the document (nodes, <html> attributes a dialog set, storage, a narrowed
// viewport, the address a full page load set) is removed after it.
import { cleanup, configure } from '@testing-library/react';
import { afterAll, vi } from 'vitest';
import { atDesktopWidth } from './viewport';

// A page's data arrives after its code and a fake answer: on a 2-core host under load (CI beside
// other work) that took more than testing-library's default 1 s wait (a table still aria-busy). A
// wait ends as soon as what it waits for is there, so a longer bound costs a passing test nothing.
configure({ asyncUtilTimeout: 5_000 });

afterAll(() => {
  cleanup();
  vi.useRealTimers();
  document.body.replaceChildren();
  document.head.replaceChildren();
  for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name);
  for (const { name } of [...document.body.attributes]) document.body.removeAttribute(name);
  localStorage.clear();
  sessionStorage.clear();
  atDesktopWidth();
  if (window.location.href !== 'http://localhost:3000/') window.location.replace('http://localhost:3000/');
});
