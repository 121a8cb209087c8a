// The login page's JS as the browser fetches it: a cold load of /login (login.html, a page of its
// own: decision 131) asks, up to its load event, for exactly the files scripts/bundle-size.ts
// counts, so the size npm test checks is what the user waits for. After the load event, and only
// then, the page prefetches the app's files a login lands on (decision 171: they are not counted,
// because nothing waits for them: they come at the lowest priority while the user types); the page
// the login loads takes them from the cache.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureLoginPageJs } from '../../scripts/bundle-size.ts';
import { htmlPrefetches } from '../../scripts/login-prefetch.ts';
import { logIn, newPage, useStage } from './setup.ts';

const ADMIN = { mail: 'boss@e2e.test', password: 'boss-pass-1' };
const stage = useStage({ admin: ADMIN });
const { server, browser } = stage;

interface Fetched {
  /** The path without the leading slash (as the manifest names files). */
  file: string;
  /** Started once the page's load event had begun: the load event waits for every file the page itself needs. */
  afterLoad: boolean;
  initiator: string;
  /** 0 when the cache answered. */
  transferSize: number;
}

/** The page's JS and CSS requests, from its resource timing (performance entries). */
function fetchedFiles(page: Awaited<ReturnType<typeof newPage>>['page']): Promise<Fetched[]> {
  return page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const loaded = navigation.loadEventStart || Infinity;
    return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => /\.(js|css)$/.test(new URL(entry.name).pathname))
      .map((entry) => ({
        file: new URL(entry.name).pathname.slice(1),
        afterLoad: entry.startTime >= loaded,
        initiator: entry.initiatorType,
        transferSize: entry.transferSize,
      }));
  });
}

describe('the login page JS', () => {
  it('a cold load of /login fetches the files the size check counts, each once; after its load it prefetches the app, which a login then takes from the cache', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.goto(`${server.url}/login`, { waitUntil: 'load' });
    await page.getByLabel('用户名（邮箱）').waitFor();
    const counted = measureLoginPageJs('dist').chunks.map((chunk) => chunk.file);
    const prefetched = htmlPrefetches(fs.readFileSync('dist/login.html', 'utf8'));
    expect(prefetched.some((file) => file.startsWith('assets/index-'))).toBe(true);

    // Wait for the prefetches to finish; then sort what was fetched by when it started.
    await expect.poll(async () => (await fetchedFiles(page)).filter((f) => f.afterLoad).length, { timeout: 30_000 }).toBe(prefetched.length);
    const loginFetched = await fetchedFiles(page);
    const beforeLoad = loginFetched.filter((f) => !f.afterLoad && f.file.endsWith('.js')).map((f) => f.file);
    expect([...beforeLoad].sort()).toEqual([...counted].sort());
    const afterLoad = loginFetched.filter((f) => f.afterLoad);
    expect(afterLoad.map((f) => f.file).sort()).toEqual([...prefetched].sort());
    expect(new Set(afterLoad.map((f) => f.initiator))).toEqual(new Set(['link']));

    // The login loads the app at the admin's home: its entry and its session come from the cache.
    await logIn(page, ADMIN.mail, ADMIN.password);
    await page.waitForURL(`${server.url}/admin/home`);
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    const appFetched = await fetchedFiles(page);
    const fromCache = (prefix: string) => appFetched.find((f) => f.file.startsWith(prefix))?.transferSize;
    expect(fromCache('assets/index-')).toBe(0);
    expect(fromCache('assets/session-actor-')).toBe(0);
    expect(appFetched.filter((f) => prefetched.includes(f.file)).every((f) => f.transferSize === 0)).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it("a visitor without a session opening a page behind the login is sent to the login page by index.html's early script, not by the app's files (decision 189)", async () => {
    const { page, close } = await newPage(browser);
    // Without the app's JavaScript, only the page's own inline script can send the visitor on.
    await page.route('**/assets/**', (route) => route.abort());
    await page.goto(`${server.url}/admin/tracking-list?page=2`);
    await page.waitForURL(`${server.url}/login?callback=${encodeURIComponent('/admin/tracking-list?page=2')}`);
    // A page anyone may open stays where it is.
    await page.goto(`${server.url}/signup`);
    await page.waitForLoadState('load');
    expect(new URL(page.url()).pathname).toBe('/signup');
    await close();
  });
});
