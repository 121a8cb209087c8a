// What the browser tests share: the stage every file runs on (useStage: an SMTP sink, the server,
// chromium, the admin's token), calls against the real API for the setup a test is not about, the
// one way a member account comes to be (the admin invites, the invitee registers from the mailed
// link), and the browser chores of every test (a fresh context, the login form, screenshots, toasts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, onTestFailed } from 'vitest';
import type { Browser, CDPSession, Locator, Page } from 'playwright-core';
import { launchChromium, SCREENSHOT_DIR, startServer, type RunningServer } from './server.ts';
import { killServers } from '../server/support/server-process.ts';
import { startSmtpSink, type SmtpSink } from '../server/support/smtp-sink.ts';
import { ENTER_SUFFIX_STORAGE_KEY } from '../../src/web/lib/use-scanner-input.ts';

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

export interface StageOptions {
  /** The bootstrap admin the server starts with; logged in once it is up (Stage.adminToken). */
  admin: { mail: string; password: string };
  /** Whether to launch the file's chromium (default true); camera.test.ts launches its own per clip. */
  browser?: boolean;
  /** More settings of the server (e.g. MISSING_PARCEL_DAYS). */
  env?: Record<string, string>;
}

/** What a browser test file runs on; the handles forward to what the file's beforeAll started. */
export interface Stage {
  server: RunningServer;
  sink: SmtpSink;
  browser: Browser;
  api: ApiCalls;
  /** The admin's session token. */
  readonly adminToken: string;
  /** Another chromium with `extraArgs` (e.g. a fake camera), closed with the stage. */
  launchBrowser(extraArgs: readonly string[]): Promise<Browser>;
}

interface Started {
  sink?: SmtpSink;
  server?: RunningServer;
  browsers: Browser[];
  adminToken?: string;
}

/**
 * The file's stage: a beforeAll starts an SMTP sink, the server (mailing through the sink) and
 * chromium, and logs the admin in; the afterAll closes whatever started. A start that fails midway
 * closes what it had started before it rethrows, so no server or browser outlives the file.
 * The returned handles can be taken at module scope (`const { server, api } = useStage(...)`);
 * the file's own beforeAll (its seed) runs after the stage's, its afterAll before.
 */
export function useStage(options: StageOptions): Stage {
  const started: Started = { browsers: [] };
  beforeAll(async () => {
    try {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      started.sink = await startSmtpSink();
      started.server = await startServer({
        SMTP_URL: started.sink.url,
        ADMIN_EMAIL: options.admin.mail,
        ADMIN_PASSWORD: options.admin.password,
        ...options.env,
      });
      if (options.browser !== false) started.browsers.push(await launchChromium());
      started.adminToken = await apiOf(started.server).login(options.admin.mail, options.admin.password);
    } catch (e) {
      await stopStage(started).catch(() => undefined);
      throw e;
    }
  });
  afterAll(() => stopStage(started));
  const server = late('the server', () => started.server);
  return {
    server,
    sink: late('the SMTP sink', () => started.sink),
    browser: late('the browser', () => (options.browser === false ? undefined : started.browsers[0])),
    api: apiOf(server),
    get adminToken() {
      if (started.adminToken === undefined) throw new Error("the admin's token is made by useStage's beforeAll");
      return started.adminToken;
    },
    async launchBrowser(extraArgs) {
      const browser = await launchChromium(extraArgs);
      started.browsers.push(browser);
      return browser;
    },
  };
}

/** Closes the browsers, then the server (and any still starting), then the sink; each is tried even if one before failed. */
async function stopStage(started: Started): Promise<void> {
  const failures: unknown[] = [];
  const attempt = (close: () => Promise<void>) => close().catch((e: unknown) => void failures.push(e));
  for (const browser of started.browsers.splice(0)) await attempt(() => browser.close());
  const { server, sink } = started;
  started.server = started.sink = undefined;
  if (server) await attempt(() => server.stop());
  killServers(); // one still starting when the hook timed out
  if (sink) await attempt(() => sink.close());
  if (failures.length > 0) throw failures[0];
}

/** A handle at module scope for what a beforeAll makes: it forwards to `get()`, throwing until then. */
function late<T extends object>(what: string, get: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const value = get();
      if (value === undefined) throw new Error(`${what} is started by useStage's beforeAll`);
      const member: unknown = Reflect.get(value, key, value);
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(value) : member;
    },
  });
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

/**
 * A page in a fresh browser context (its own storage: nobody is logged in). When a test fails, the
 * log says what its pages showed at the failure, or when the test closed them: the address, the
 * calls still loading or failed, console errors and the start of the text (what a failure on a busy
 * CI machine is read from).
 */
export async function newPage(browser: Browser, viewport = { width: 1400, height: 900 }): Promise<BrowserPage> {
  const context = await browser.newContext({ locale: 'zh-CN', viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  const seen: string[] = [];
  const pending = new Set<string>();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => void (m.type() === 'error' && seen.push(`console: ${m.text().slice(0, 300)}`)));
  page.on('request', (r) => void pending.add(r.url()));
  page.on('requestfinished', (r) => void pending.delete(r.url()));
  page.on('requestfailed', (r) => void (pending.delete(r.url()), seen.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`)));
  const describe = async () => {
    const text = await page
      .locator('body')
      .innerText({ timeout: 1_000 })
      .catch((e: unknown) => `(no text: ${String(e).slice(0, 100)})`);
    return [
      `page: ${page.url()}`,
      ...[...pending].map((u) => `still loading: ${u}`),
      ...seen.slice(-20),
      ...errors,
      `text: ${text.replace(/\s+/g, ' ').slice(0, 600)}`,
    ].join('\n');
  };
  // Pages opened in a test (a file's beforeAll has no test to follow: its pages are described by the test that fails).
  const inTest = expect.getState().currentTestName !== undefined;
  let closed: string | null = null;
  if (inTest)
    onTestFailed(async () => console.log(`a page of the failed test, ${closed === null ? 'at the failure' : 'when closed'}:\n${closed ?? (await describe())}`));
  return {
    page,
    errors,
    close: async () => {
      if (inTest) closed = await describe();
      await context.close();
    },
  };
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
  // Two animation frames: the scroll is drawn, and a page that has just committed a navigation has
  // drawn its first frame (Chromium refuses a capture before it: "Unable to capture screenshot").
  await page.evaluate(() => new Promise<void>((done) => (window.scrollTo(0, 0), requestAnimationFrame(() => requestAnimationFrame(() => done())))));
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

/** Resolves once the page's hidden scanner input has the focus (the page takes it back every 100 ms). */
export async function scannerReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.hasAttribute('data-scanner-input') === true);
}

/**
 * The page's station has scanned before: its scanner is known to end codes with Enter, so only Enter
 * ends one (decision 080). scanKeys' keys still cross the browser process one message at a time; on
 * a busy host it has held the rest of a code past a fresh station's 100 ms debounce while the page's
 * timer ran on time, and the station rightly took the head as a code of its own. Tests that are not
 * about a fresh station open their pages as this one. Call before the page's first navigation.
 */
export async function stationKnowsEnter(page: Page): Promise<void> {
  await page.addInitScript((key) => localStorage.setItem(key, '1'), ENTER_SUFFIX_STORAGE_KEY);
}

const keyChannels = new WeakMap<Page, Promise<CDPSession>>();
const GS = '\u001d';
/** CDP's modifier bit of Ctrl. */
const CTRL = 2;

/**
 * A code from a USB scanner: its keys reach the page in one burst, as the hardware sends them, then
 * Enter unless `enter` is false. Playwright's keyboard.type sends a key per round trip from the test
 * process; on a busy machine that process paused past the page's 100 ms debounce inside a code, and
 * a fresh station (no Enter suffix learned yet) rightly took the first half as a code of its own.
 * Here every key is sent before any is awaited (the browser keeps their order). A GS in `code`
 * (GS1's FNC1) is typed as a wedge types it, Ctrl+].
 */
export async function scanKeys(page: Page, code: string, { enter = true } = {}): Promise<void> {
  let channel = keyChannels.get(page);
  if (!channel) keyChannels.set(page, (channel = page.context().newCDPSession(page)));
  const cdp = await channel;
  type Key = { key: string; text?: string; code?: string; windowsVirtualKeyCode?: number; modifiers?: number };
  type KeyEvent = Key & { type: 'keyDown' | 'keyUp'; unmodifiedText?: string };
  const press = (k: Key): KeyEvent[] => [
    { type: 'keyDown', ...k, unmodifiedText: k.text },
    { type: 'keyUp', ...k, text: undefined },
  ];
  const events: KeyEvent[] = [...code].flatMap((ch) =>
    ch === GS
      ? // GS1's FNC1 (ASCII GS) is a control character: a keyboard wedge types it as the chord Ctrl+].
        [
          { type: 'keyDown' as const, key: 'Control', code: 'ControlLeft', windowsVirtualKeyCode: 17, modifiers: CTRL },
          ...press({ key: ']', code: 'BracketRight', windowsVirtualKeyCode: 221, modifiers: CTRL }),
          { type: 'keyUp' as const, key: 'Control', code: 'ControlLeft', windowsVirtualKeyCode: 17 },
        ]
      : press({ key: ch, text: ch }),
  );
  if (enter) events.push(...press({ key: 'Enter', text: '\r', code: 'Enter', windowsVirtualKeyCode: 13 }));
  // Stamped as a wedge types them, 2 ms apart, whenever the browser gets to them: the page joins a
  // code's keys by these times, so a busy host delivering them late does not cut the code.
  const typedAt = Date.now() / 1000;
  await Promise.all(events.map((e, i) => cdp.send('Input.dispatchKeyEvent', { ...e, timestamp: typedAt + i * 0.002 })));
}

/** The row of `table` that has a cell reading exactly `text`. */
export const rowWithCell = (table: Locator, text: string): Locator =>
  table.getByRole('row').filter({ has: table.page().getByRole('cell', { name: text, exact: true }) });

/** A row of `table` by the text of one of its cells, waiting until it is there. */
export async function rowOf(table: Locator, text: string): Promise<Locator> {
  const row = rowWithCell(table, text);
  await row.waitFor();
  return row;
}

/** The text of `row`'s cell under the column `header` of `table`, once the row is there (a table drawn after its call answers has no headers before). */
export async function cellText(table: Locator, row: Locator, header: string): Promise<string> {
  await row.waitFor();
  const headers = (await table.getByRole('columnheader').allTextContents()).map((h) => h.trim());
  const index = headers.indexOf(header);
  expect(index, `column ${header} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return ((await row.getByRole('cell').nth(index).textContent()) ?? '').trim();
}

/** `text` as a regular expression's source that matches it literally. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Waits until the scanning banner (the page's live region) reads exactly `text` (or matches it); answers its tone (the colour the clerk sees). */
export async function says(page: Page, text: string | RegExp): Promise<string | null> {
  const whole = typeof text === 'string' ? new RegExp(`^${escapeRegExp(text)}$`) : text;
  const banner = page.locator('[role="status"][data-tone]').filter({ hasText: whole });
  await banner.waitFor();
  return banner.getAttribute('data-tone');
}
