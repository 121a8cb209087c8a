// Every page of every role is accessible to WCAG 2 AA as axe-core measures it: a real server, a small
// world seeded through the API (an admin, a lowerAdmin, a member with a locked and paid-for task, an
// open task with a home label, a bound card and a waited withdrawal), then each page of SPEC §2 / §6
// (and /admin/home) opened as its role at 1400 px (the lowerAdmin on the pages its role changes), a
// few key pages at 390 px and the dialogs where fields are typed, and axe-core run on each.
// axe is evaluated through the test browser (the server's CSP stays as it is). A failure lists the
// page, the rule and the nodes. Each page is audited once its heading and its data are on screen.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { inviteAndRegister, newPage, openLoggedIn, type BrowserPage, useStage } from './setup.ts';

const ADMIN = { mail: 'a11y-admin@e2e.test', password: 'a11y-admin-1' };
const LOWER = { mail: 'a11y-lower@e2e.test', password: 'a11y-lower-1', nickName: '仓库小王' };
const MEMBER = { mail: 'a11y-member@e2e.test', password: 'a11y-member-1', nickName: '采购员小张' };
const ITEM = { itemName: 'E2E 无障碍耳机', productId: 'E2E-A11Y-1', upc: '690000000777', price: 19.99 };
const TRACKING = { arrived: '9400A11Y0000000000001', expected: '9400A11Y0000000000002', stray: '9400A11Y0000000000009' };

/** The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, as axe-core tags them. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const AXE_SOURCE = fs.readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
const WIDE = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };

const stage = useStage({ admin: ADMIN });
const { server, sink, browser, api } = stage;

/** What the seed made, for the pages' paths and what they show. */
const world = { itemId: 0, groupId: 0, boardId: 0, boardUuid: '', boardTaskId: 0, lockedTaskId: 0 };

interface Audited {
  who: string;
  path: string;
  width: number;
  violations: { rule: string; impact: string; help: string; nodes: string[] }[];
}
const audited: Audited[] = [];

beforeAll(seed);

afterAll(async () => {
  const count = audited.reduce((n, a) => n + a.violations.length, 0);
  const rules = new Set(audited.flatMap((a) => a.violations.map((v) => v.rule)));
  const pages = audited.filter((a) => a.violations.length > 0).length;
  console.log(`axe: ${audited.length} pages audited, ${pages} with violations, ${count} violations of ${rules.size} rules ${[...rules].join(' ')}`);
});

async function seed() {
  const adminToken = stage.adminToken;
  const memberId = await inviteAndRegister(server, sink, adminToken, MEMBER);
  const lowerId = await inviteAndRegister(server, sink, adminToken, LOWER);
  await api.post(adminToken, '/api/admin/user/update', { id: lowerId, roleType: 'lowerAdmin' });
  await api.post(adminToken, '/api/notice/save', { content: '本周五仓库盘点，扫描暂停半天。', isMail: false });

  const item = await api.post<{ id: number }>(adminToken, '/api/item/info', { ...ITEM, url: 'shop.example.com/a11y', status: 'open' });
  const group = await api.post<{ id: number }>(adminToken, '/api/usergroup/update', { groupName: 'E2E 无障碍组', remark: '测试' });
  expect(await api.post<boolean>(adminToken, `/api/usergroup/${group.id}/user?uids=${memberId}`)).toBe(true);
  const board = await api.post<{ id: number; uuid: string }>(adminToken, '/api/board/info', {
    boardName: 'E2E 无障碍看板',
    remark: '耳机',
    publishAt: Date.now() - 3_600_000,
    expireAt: Date.now() + 7 * 86_400_000,
  });
  const { boardTask } = await api.post<{ boardTask: { id: number } }>(adminToken, `/api/boardtask/${board.id}/info`, {
    itemId: item.id,
    buyIn: 12.5,
    show: 10,
  });
  expect(await api.post<boolean>(adminToken, `/api/board/${board.id}/add?groupIds=${group.id}`)).toBe(true);
  await api.post(adminToken, `/api/boardtask/publish/${board.id}`);
  Object.assign(world, { itemId: item.id, groupId: group.id, boardId: board.id, boardUuid: board.uuid, boardTaskId: boardTask.id });

  // A task whose parcel arrived, applied for, agreed and withdrawn to a card (a waited line).
  const memberToken = await api.login(MEMBER.mail, MEMBER.password);
  const locked = await api.post<{ task: { id: number } }>(memberToken, `/api/task/${boardTask.id}/user/create/2`);
  world.lockedTaskId = locked.task.id;
  await api.post(memberToken, `/api/purchased/user/${locked.task.id}/create`, { trackingId: TRACKING.arrived, productCount: 2 });
  await api.post(adminToken, `/api/scan/admin/tracking/${TRACKING.arrived}/create`, { items: [{ upc: ITEM.upc, count: 2, itemId: item.id }] });
  await api.post(memberToken, '/api/trade/user/pay/apply', { taskId: locked.task.id, bonus: 1, note: '已到货' });
  const applies = await api.get<{ content: { id: number; income: number }[] }>(adminToken, '/api/apply/list/page?page=0&size=20');
  await api.post(adminToken, '/api/trade/admin/pay/agree', { paymentApplyId: applies.content[0]!.id });
  const bound = await api.post<{ card: { id: number } }>(memberToken, '/api/withdraw/user/bind/card', {
    paymentType: 'Wire',
    accountName: 'Zhang San',
    cardNo: '000123456789',
    bankInfo: 'E2E First Bank',
    routingNumber: '021000021',
    address: '1 Market St, San Francisco, CA',
  });
  await api.post(memberToken, '/api/withdraw/user/request', {
    requests: [{ cardId: bound.card.id, withdrawAmount: applies.content[0]!.income, userNote: '谢谢' }],
    taskIds: [locked.task.id],
  });

  // An open task shipped to the member's home, its parcel recorded and not arrived; a stray parcel.
  const open = await api.post<{ task: { id: number } }>(memberToken, `/api/task/${boardTask.id}/user/create/3/label/1`, {
    isHome: true,
    state: 'CA',
    zipCode: '94105',
  });
  await api.post(memberToken, `/api/purchased/user/${open.task.id}/create`, { trackingId: TRACKING.expected, productCount: 3 });
  await api.post(adminToken, `/api/scan/admin/tracking/${TRACKING.stray}/create`, { items: [{ upc: ITEM.upc, count: 1, itemId: item.id }] });
}

interface PageToAudit {
  path: string;
  /** A text the page shows once its data has arrived (the heading alone is enough without one). */
  shows?: string;
}

const adminPages = (): PageToAudit[] => [
  { path: '/admin/home' },
  { path: '/admin/group-list', shows: 'E2E 无障碍组' },
  { path: `/admin/group/${world.groupId}`, shows: MEMBER.mail },
  { path: '/admin/group/new' },
  { path: '/admin/user-list', shows: MEMBER.nickName },
  { path: '/admin/item-list', shows: ITEM.itemName },
  { path: `/admin/item/${world.itemId}` },
  { path: '/admin/item/new' },
  { path: '/admin/board-list', shows: 'E2E 无障碍看板' },
  { path: `/admin/board/${world.boardId}`, shows: ITEM.itemName },
  { path: '/admin/board/new' },
  { path: `/admin/boardtask/${world.boardId}/${world.boardTaskId}` },
  { path: `/admin/boardtask/${world.boardId}/new` },
  { path: '/admin/tracking-list', shows: TRACKING.stray },
  { path: '/admin/scan' },
  { path: '/admin/scan2' },
  { path: '/admin/upload' },
  { path: '/admin/tasks', shows: ITEM.itemName },
  { path: '/admin/missing-parcels' },
  { path: '/admin/parcel-claims' },
  { path: `/admin/task/${world.lockedTaskId}`, shows: ITEM.itemName },
  { path: '/admin/apply-list', shows: ITEM.itemName },
  { path: '/admin/withdraw-list', shows: MEMBER.nickName },
  { path: '/admin/task-amount-list', shows: MEMBER.nickName },
  { path: '/admin/tracking-audit', shows: TRACKING.stray },
  { path: '/admin/task-audit', shows: ITEM.itemName },
  { path: '/admin/invite' },
  { path: '/admin/machines?machine=scan', shows: '本浏览器中运行的状态机' },
  { path: '/me', shows: '本周五仓库盘点' },
];

const memberPages = (): PageToAudit[] => [
  { path: '/user/board-list', shows: 'E2E 无障碍看板' },
  { path: '/' },
  { path: `/user/board/${world.boardUuid}`, shows: ITEM.itemName },
  { path: `/user/boardtask/${world.boardId}/${world.boardTaskId}`, shows: ITEM.itemName },
  { path: '/user/my-task', shows: TRACKING.expected },
  { path: '/user/missing-parcels' },
  { path: '/user/unknown-parcels', shows: '****000009' },
  { path: '/user/apply-list', shows: ITEM.itemName },
  { path: '/user/upload' },
  { path: '/user/bank-card', shows: 'E2E First Bank' },
  { path: '/user/withdraw-request', shows: '谢谢' },
  { path: '/user/withdraw-orders', shows: '谢谢' },
  { path: '/me', shows: '本周五仓库盘点' },
];

const visitorPages = (): PageToAudit[] => [
  { path: '/login' },
  { path: '/forgot-password' },
  { path: `/signup?mailAddr=${encodeURIComponent('new@e2e.test')}&token=no-such-token` },
  { path: '/reset?token=no-such-token' },
];

/** Waits for the page's heading, its data and its transitions: no fixed sleeps, only what the page shows. */
async function settle(page: Page, target: PageToAudit) {
  await page.locator('main h1').first().waitFor();
  if (target.shows) await page.getByText(target.shows).filter({ visible: true }).first().waitFor();
  await page.waitForFunction(() => {
    // The page and any dialog open on it: a dialog loads its own data (its button turns enabled then).
    if (!document.querySelector('main') || document.querySelector('[aria-busy="true"]')) return false;
    if ([...document.querySelectorAll('[role="status"]')].some((el) => (el.textContent ?? '').includes('加载中'))) return false;
    // A colour still changing (a button leaving its busy look) is measured at its end, as a user reads it.
    return document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
  });
}

/** Runs axe-core on the page as it is and records what it found. */
async function audit(page: Page, who: string, target: PageToAudit, width: number): Promise<Audited> {
  await settle(page, target);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    interface AxeViolation {
      id: string;
      impact: string;
      help: string;
      nodes: { target: string[]; failureSummary?: string }[];
    }
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`),
    }));
  }, WCAG_AA);
  const found = { who, path: target.path, width, violations };
  audited.push(found);
  return found;
}

function report(found: readonly Audited[]): string {
  return found
    .filter((a) => a.violations.length > 0)
    .flatMap((a) => a.violations.map((v) => `${a.who} ${a.path} @${a.width}px: ${v.rule} (${v.impact}) ${v.help}\n    ${v.nodes.join('\n    ')}`))
    .join('\n');
}

/**
 * Opens `path` as the app's own links do (TanStack Router's navigate, which a link calls), so the
 * document stays and with it the axe-core already evaluated in it; resolves once the route has loaded
 * and a frame has been drawn (settle then waits for what the page shows). A page outside the app
 * (the login page is a document of its own) is loaded.
 */
async function open(page: Page, path: string) {
  const inApp = await page.evaluate(async (to) => {
    const router = (window as unknown as { __TSR_ROUTER__?: { navigate: (o: { href: string }) => Promise<void> } }).__TSR_ROUTER__;
    if (!router) return false;
    await router.navigate({ href: to });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    return true;
  }, path);
  if (!inApp) await page.goto(`${server.url}${path}`);
}

/** Logs `account` in on the first page, then opens each page in turn in the same tab and audits it. */
async function auditAll(who: string, pages: readonly PageToAudit[], account: { mail: string; password: string } | null, viewport = WIDE): Promise<Audited[]> {
  const bp: BrowserPage = await newPage(browser, viewport);
  const found: Audited[] = [];
  try {
    for (const [i, target] of pages.entries()) {
      if (i === 0 && account) await openLoggedIn(bp.page, server, target.path, account);
      else if (i === 0) await bp.page.goto(`${server.url}${target.path}`);
      else await open(bp.page, target.path);
      found.push(await audit(bp.page, who, target, viewport.width));
    }
    expect(bp.errors, 'uncaught errors').toEqual([]);
  } finally {
    await bp.close();
  }
  return found;
}

const noViolations = (found: readonly Audited[]) => expect(report(found), 'axe violations').toBe('');

// A role's pages are audited in one test (up to ~25 pages, each loaded and audited): a ceiling for a
// busy machine, not a timing claim (the project's 60 s ran close to full with two browser files at once).
describe('WCAG 2 AA (axe-core) on every page of every role', { timeout: 180_000 }, () => {
  it('admin, at 1400 px', async () => {
    noViolations(await auditAll('admin', adminPages(), ADMIN));
  });

  // A lowerAdmin sees the admin's pages in the same frame, less the withdraw list; what the role
  // changes is the frame's menu, the home and the user list's edit rights: those pages are audited.
  it('lowerAdmin, at 1400 px (the pages the role changes: the menu, the home, the user list)', async () => {
    const pages = adminPages().filter((p) => ['/admin/home', '/admin/user-list', '/admin/tasks', '/me'].includes(p.path));
    noViolations(await auditAll('lowerAdmin', pages, LOWER));
  });

  it('member, at 1400 px', async () => {
    noViolations(await auditAll('member', memberPages(), MEMBER));
  });

  it('a visitor, at 1400 px', async () => {
    noViolations(await auditAll('visitor', visitorPages(), null));
  });

  it('the dialogs where a member types (claim, records, bank card, withdrawal) and the admin reads a card, at 1400 px', async () => {
    const found: Audited[] = [];
    const member = await newPage(browser, WIDE);
    try {
      const m = member.page;
      /** Opens `path`, clicks `open` and audits the dialog it shows. */
      const dialogOf = async (path: string, shows: string, open: (page: Page) => Promise<void>, name: string) => {
        if (found.length === 0) await openLoggedIn(m, server, path, MEMBER);
        else await m.goto(`${server.url}${path}`);
        await settle(m, { path, shows });
        await open(m);
        await m.getByRole('dialog').getByRole('heading').first().waitFor();
        found.push(await audit(m, 'member', { path: `${path} ${name}` }, WIDE.width));
      };
      await dialogOf(`/user/board/${world.boardUuid}`, ITEM.itemName, (p) => p.getByRole('button', { name: '认领', exact: true }).first().click(), '认领');
      await dialogOf(
        '/user/my-task',
        TRACKING.expected,
        async (p) => {
          await p.getByRole('row').filter({ hasText: TRACKING.expected }).getByRole('button', { name: '记录', exact: true }).click();
          await p.getByRole('dialog').getByText(TRACKING.expected).first().waitFor();
        },
        '采购记录',
      );
      await dialogOf(
        '/user/bank-card',
        'E2E First Bank',
        async (p) => {
          await p.getByRole('button', { name: '添加银行卡' }).click();
          await p.getByRole('dialog').getByLabel('付款方式', { exact: true }).selectOption('Check');
        },
        '添加银行卡',
      );
      await dialogOf('/user/withdraw-request', '谢谢', (p) => p.getByRole('button', { name: '申请提现', exact: true }).click(), '申请提现');
    } finally {
      await member.close();
    }
    const admin = await newPage(browser, WIDE);
    try {
      const a = admin.page;
      await openLoggedIn(a, server, '/admin/withdraw-list', ADMIN);
      await settle(a, { path: '/admin/withdraw-list', shows: MEMBER.nickName });
      await a
        .getByRole('button', { name: /^收款信息/ })
        .first()
        .click();
      await a.getByRole('dialog').getByText('E2E First Bank').waitFor();
      found.push(await audit(a, 'admin', { path: '/admin/withdraw-list 收款信息' }, WIDE.width));
    } finally {
      await admin.close();
    }
    noViolations(found);
  });

  it('key pages at 390 px (a phone)', async () => {
    const memberKeys = ['/user/board-list', `/user/board/${world.boardUuid}`, '/user/my-task', '/user/apply-list', '/user/bank-card', '/user/withdraw-request'];
    const adminKeys = ['/admin/home', '/admin/scan', '/admin/tasks', '/admin/withdraw-list'];
    noViolations([
      ...(await auditAll(
        'member',
        memberPages().filter((p) => memberKeys.includes(p.path)),
        MEMBER,
        PHONE,
      )),
      ...(await auditAll(
        'admin',
        adminPages().filter((p) => adminKeys.includes(p.path)),
        ADMIN,
        PHONE,
      )),
      ...(await auditAll('visitor', [{ path: '/login' }], null, PHONE)),
    ]);
  });

  it('a wide table that found nothing says so where a phone shows it (390 px, the user log filtered to no item)', async () => {
    const bp = await newPage(browser, PHONE);
    try {
      await openLoggedIn(bp.page, server, '/admin/task-audit?itemName=%E6%97%A0%E6%AD%A4%E5%95%86%E5%93%81', ADMIN);
      const empty = bp.page.getByText('暂无日志', { exact: true });
      await empty.waitFor();
      // The table is wider than the phone: centred on its whole width, the words sat off-screen.
      const region = bp.page.getByRole('region').filter({ has: empty });
      const shown = (await region.boundingBox())!;
      expect(shown.width).toBeLessThanOrEqual(PHONE.width);
      expect(await region.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
      const words = await empty.evaluate((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const r = range.getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
      expect(words.left).toBeGreaterThanOrEqual(shown.x);
      expect(words.right).toBeLessThanOrEqual(shown.x + shown.width);
      expect(bp.errors).toEqual([]);
    } finally {
      await bp.close();
    }
  });
});
