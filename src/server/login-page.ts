// The login page is a page of its own beside the app's index.html (decision 131): GET /login answers
// login.html. The server (app.ts) and `vite` in development (vite.config.ts) both ask here.

/** The login page's html in the built web folder. */
export const LOGIN_PAGE_FILE = 'login.html';

/** GET /login, with or without a query or a trailing slash. */
export function isLoginPage(url: string): boolean {
  const pathname = url.split('?', 1)[0];
  return pathname === '/login' || pathname === '/login/';
}
