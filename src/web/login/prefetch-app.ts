// Once the login page has loaded, the browser fetches the app's files the login will need while the
// user types (decision 171): login.html carries them as <link rel="prefetch"> tags in an inert
// <template> (written by the login build: scripts/login-prefetch.ts); moved into the document, they
// are fetched at the lowest priority and kept in the cache for the page the login loads. Before the
// page's load event nothing of the app is fetched: the cold load is the login page's own files.
// Without the template (`vite` in development) nothing happens.

/** The id of the template the build writes (APP_PREFETCH_TEMPLATE_ID in scripts/login-prefetch.ts). */
export const APP_PREFETCH_TEMPLATE_ID = 'app-prefetch';

function moveIntoHead(doc: Document): void {
  const template = doc.getElementById(APP_PREFETCH_TEMPLATE_ID);
  if (template?.tagName !== 'TEMPLATE') return;
  doc.head.append(doc.importNode((template as HTMLTemplateElement).content, true));
  template.remove();
}

/** Starts the prefetch after the window's load event (at once when it has passed). */
export function prefetchAppAfterLoad(win: Window = window): void {
  if (win.document.readyState === 'complete') moveIntoHead(win.document);
  else win.addEventListener('load', () => moveIntoHead(win.document), { once: true });
}
