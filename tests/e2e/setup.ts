// What the browser tests share once the server is up (server.ts starts it): calls against the real
// API for the setup a test is not about, the one way a member account comes to be (the admin
// invites, the invitee registers from the mailed link), and the browser chores of every test (a
// fresh context, the login form, screenshots, closing toasts).
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser, CDPSession, Locator, Page } from 'playwright-core';
import { SCREENSHOT_DIR, type RunningServer } from './server.ts';
import type { SmtpSink } from '../server/support/smtp-sink.ts';

export interface Envelope<T> {
  code: string;
  msg?: string;
  data: T;
}

export interface ApiCalls {
  /** Any call; returns the {code, msg, data} envelope whatever it says. */
  call<T>(pathAndQuery: string, init?: RequestInit): Promise<Envelope<T>>;
  /** A GET as the holder of `token`; fails the test unless it answers A00000. */
  get<T>(token: string, pathAndQuery: string): Promise<T>;
  /** A JSON POST (or a bodiless one) as the holder of `token`; fails the test unless it answers A00000. */
  post<T>(token: string, pathAndQuery: string, body?: unknown): Promise<T>;
  /** Logs in through the login call; the session token. */
  login(mail: string, password: string): Promise<string>;
}

/** The API of the running server, as a test's setup uses it. */
export function apiOf(server: RunningServer): ApiCalls {
  async function call<T>(pathAndQuery: string, init: RequestInit = {}): Promise<Envelope<T>> {
    const res = await fetch(`${server.url}${pathAndQuery}`, init);
    return (await res.json()) as Envelope<T>;
  }
  return {
    call,
    async get<T>(token: string, pathAndQuery: string) {
      const res = await call<T>(pathAndQuery, { headers: { 'x-token': token } });
      expect(res, `GET ${pathAndQuery}`).toMatchObject({ code: 'A00000' });
      return res.data;
    },
    async post<T>(token: string, pathAndQuery: string, body?: unknown) {
      const res = await call<T>(pathAndQuery, {
        method: 'POST',
        headers: { 'x-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res, `POST ${pathAndQuery}`).toMatchObject({ code: 'A00000' });
      return res.data;
    },
    async login(mail: string, password: string) {
      const res = await call<{ status: string; token: string }>(
        `/ext/login/login?mailAddr=${encodeURIComponent(mail)}&pwd=${encodeURIComponent(password)}&keepflag=false`,
        { method: 'POST' },
      );
      expect(res.data.status, `login ${mail}`).toBe('succ');
      return res.data.token;
    },
  };
}

export interface NewMember {
  mail: string;
  password: string;
  nickName: string;
  phoneNo?: string;
  qq?: string;
}

/**
 * A member account made the only way the product allows: the admin invites the address, the
 * invitation mail arrives at the SMTP sink, and the invitee registers with the token of its link.
 * The member has no group yet (logging in answers no_group until an admin adds one); log in with
 * `api.login` once the member is in a group. Returns the member's user id.
 */
export async function inviteAndRegister(server: RunningServer, sink: SmtpSink, adminToken: string, member: NewMember): Promise<number> {
  const api = apiOf(server);
  const invite = await api.call<{ mail: string; sendStatus: string }[]>('/api/admin/invite', {
    method: 'POST',
    headers: { 'x-token': adminToken, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mails: member.mail }).toString(),
  });
  expect(invite, 'invite').toMatchObject({ code: 'A00000', data: [{ mail: member.mail, sendStatus: 'succ' }] });
  const mail = await sink.waitFor(member.mail, 10_000);
  const link = mail.links.find((l) => l.includes('/signup?'));
  expect(link, 'the invitation links to /signup').toBeDefined();
  const token = new URL(link!).searchParams.get('token')!;
  const registered = await api.call<{ status: string }>('/ext/login/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      mailAddr: member.mail,
      pwd: member.password,
      nickName: member.nickName,
      phoneNo: member.phoneNo ?? '13800001111',
      qq: member.qq ?? '10001',
      token,
    }),
  });
  expect(registered, 'register').toMatchObject({ code: 'A00000', data: { status: 'succ' } });
  const users = await api.get<{ id: number; mailAddr: string }[]>(adminToken, '/api/user/list');
  const id = users.find((u) => u.mailAddr === member.mail)?.id;
  expect(id, 'the member is listed').toBeDefined();
  return id!;
}

export interface BrowserPage {
  page: Page;
  /** Uncaught errors of the page (each test expects none). */
  errors: string[];
  close(): Promise<void>;
}

/** A page in a fresh browser context (its own storage: nobody is logged in). */
export async function newPage(browser: Browser, viewport = { width: 1400, height: 900 }): Promise<BrowserPage> {
  const context = await browser.newContext({ locale: 'zh-CN', viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors, close: () => context.close() };
}

/** Fills the login form the page shows and submits it with Enter in the password field. */
export async function logIn(page: Page, mail: string, password: string): Promise<void> {
  await page.getByLabel('用户名（邮箱）').fill(mail);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('密码', { exact: true }).press('Enter');
}

/** Opens `path` (a login-required page): the login form comes first, then the page itself. */
export async function openLoggedIn(page: Page, server: RunningServer, path: string, account: { mail: string; password: string }): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.waitForURL(/\/login\?callback=/);
  await logIn(page, account.mail, account.password);
  await page.waitForURL(`${server.url}${path}`);
}

/**
 * A full-page screenshot into SCREENSHOT_DIR as `<name>.png`. Taken from the top: a page scrolled
 * down would draw its sticky header across the middle of the image.
 */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Closes the toasts on screen, so a screenshot shows what they covered and only what follows. */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByRole('region', { name: '通知' }).getByRole('button', { name: '关闭' });
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 1_000 })
      .catch(() => undefined);
}

const keyChannels = new WeakMap<Page, Promise<CDPSession>>();

/**
 * A code from a USB scanner: its keys reach the page in one burst, as the hardware sends them, then
 * Enter unless `enter` is false. Playwright's keyboard.type sends a key per round trip from the test
 * process; on a busy machine that process paused past the page's 100 ms debounce inside a code, and
 * a fresh station (no Enter suffix learned yet) rightly took the first half as a code of its own.
 * Here every key is sent before any is awaited (the browser keeps their order).
 */
export async function scanKeys(page: Page, code: string, { enter = true } = {}): Promise<void> {
  let channel = keyChannels.get(page);
  if (!channel) keyChannels.set(page, (channel = page.context().newCDPSession(page)));
  const cdp = await channel;
  const keys: { key: string; text: string; code?: string; windowsVirtualKeyCode?: number }[] = [...code].map((ch) => ({ key: ch, text: ch }));
  if (enter) keys.push({ key: 'Enter', text: '\r', code: 'Enter', windowsVirtualKeyCode: 13 });
  await Promise.all(
    keys.flatMap((k) => [
      cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...k, unmodifiedText: k.text }),
      cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k.key, code: k.code, windowsVirtualKeyCode: k.windowsVirtualKeyCode }),
    ]),
  );
}

/** The row of `table` that has a cell reading exactly `text`. */
export const rowWithCell = (table: Locator, text: string): Locator =>
  table.getByRole('row').filter({ has: table.page().getByRole('cell', { name: text, exact: true }) });
