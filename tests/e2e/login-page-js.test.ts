// The login page's JS as the browser fetches it: a cold load of /login (login.html, a page of its
// own: decision 131) asks for exactly the files scripts/bundle-size.ts counts, so the size npm test
// checks is the page's. The router, the session machine and the app's routes load after the login,
// with the page it goes to.
import { describe, expect, it } from 'vitest';
import { measureLoginPageJs } from '../../scripts/bundle-size.ts';
import { logIn, newPage, useStage } from './setup.ts';

const ADMIN = { mail: 'boss@e2e.test', password: 'boss-pass-1' };
const stage = useStage({ admin: ADMIN });
const { server, browser } = stage;

describe('the login page JS', () => {
  it('a cold load of /login fetches the files the size check counts, each once; a login then loads the rest it needs', async () => {
    const { page, errors, close } = await newPage(browser);
    const fetched: string[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.endsWith('.js')) fetched.push(pathname.slice(1));
    });
    await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('用户名（邮箱）').waitFor();
    const counted = measureLoginPageJs('dist').chunks.map((chunk) => chunk.file);
    expect([...fetched].sort()).toEqual([...counted].sort());

    // What the login page left out loads with the page the login goes to: the app, its session
    // and the admin's home; what both pages share comes from the cache.
    const loginFetches = fetched.length;
    await logIn(page, ADMIN.mail, ADMIN.password);
    await page.waitForURL(`${server.url}/admin/home`);
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    const appFiles = fetched.slice(loginFetches);
    expect(appFiles.some((file) => file.startsWith('assets/index-'))).toBe(true);
    expect(appFiles.some((file) => file.startsWith('assets/session-actor-'))).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });
});
