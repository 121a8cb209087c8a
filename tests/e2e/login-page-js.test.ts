// The login page's JS as the browser fetches it: a cold load of /login (nobody logged in) asks for
// exactly the files scripts/bundle-size.ts counts, so the size npm test checks is the page's. The
// session machine, the dialogs and the other routes' chunks come later, when something needs them.
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

    // What the login page left out loads when it is needed: the session, the admin's home.
    await logIn(page, ADMIN.mail, ADMIN.password);
    await page.waitForURL(`${server.url}/admin/home`);
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    expect(fetched.length).toBeGreaterThan(counted.length);
    expect(errors).toEqual([]);
    await close();
  });
});
