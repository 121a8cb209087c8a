// @vitest-environment happy-dom
// The interface speaks Chinese: every member and admin page (SPEC §2, and the admin home), the
// public pages and the dialogs where fields are typed (claim, records, bank card of every payment
// type, withdrawal, the admin's card reveal), rendered through the app harness on fake answers with
// representative data (every status, every audit action, every payment and card type, a task sent
// to the member's home), show no Latin word that is not data, an allowed acronym or a product's
// name (support/latin-words.ts): no field name, no code shown raw, no English label.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CARD_LABELS, CARD_TYPE_OPTIONS, KNOWN_PAYMENT_TYPES } from '../../machines/bank-card';
import { SCAN_STATUSES } from '../../machines/scan-record.machine';
import { TASK_STATUSES } from '../../machines/task.machine';
import { WITHDRAW_STATUSES } from '../../machines/withdraw.machine';
import { PAYMENT_STATUSES } from '../../machines/payment.machine';
import type { RoleType } from '../../machines/session.machine';
import { clearToasts } from '../../src/web/components/ui/toast';
import { zh } from '../../src/web/i18n/zh';
import { renderApp, renderLoginPage, userOf } from './app-harness';
import { aTask as anAdminTask, anAudit as aTaskAudit, createAdminTasksFake } from './admin-tasks/admin-tasks-fake';
import { aCard, createBankCardsFake } from './bank-cards/bank-cards-fake';
import { aBoard, aBoardTask, aTask as aBoardClaim, createBoardsFake } from './boards/boards-fake';
import { createCatalogFake, item } from './catalog/catalog-fake';
import { aBoard as aMemberBoard, aBoardTask as aMemberBoardTask, createMemberBoardsFake } from './member-boards/member-boards-fake';
import { anAmount, anApply, createPaymentsFake } from './payments/payments-fake';
import { adminUser, createPeopleFake } from './people/people-fake';
import { aScan, createReceivingFake } from './receiving/receiving-fake';
import { aRecord as aPurchase, aTask as aMyTask, createTasksFake } from './tasks/tasks-fake';
import { aRecord as aScanRecord, anAudit as aTrackingAudit, createTrackingFake } from './tracking/tracking-fake';
import { aLine, anApply as anAgreedApply, createWithdrawFake } from './withdraw/withdraw-fake';
import { ok, type Routes } from './support/fake-api';
import { dataTexts, latinWords, visibleLabels } from './support/latin-words';

afterEach(() => {
  cleanup();
  clearToasts();
});

/** A task shipped to the member's home: the claim's isHome, state, zip code and label count show. */
const HOME = { isHome: true, state: 'CA', zipCode: '94105', labelCount: 2 };
/** Every action the audit trail writes, in both logs. */
const ACTIONS = Object.keys(zh.audit.action);

// ---------------------------------------------------------------- representative data

/** A missing parcel of each state (decision 077), as both lists answer them. */
const MISSING_PAGE = {
  content: [
    {
      id: 61,
      taskId: 101,
      mainId: 101,
      subId: 0,
      itemName: '蓝牙耳机',
      userId: 21,
      nickName: 'alice',
      mailAddr: 'alice@demo.local',
      trackingId: '1Z999AA10123456784',
      productCount: 1,
      createdAt: 1_700_000_000_000,
      ageDays: 9,
      carrier: 'UPS',
      note: '',
      lostAt: null,
    },
    {
      id: 62,
      taskId: 102,
      mainId: 102,
      subId: 1,
      itemName: '保温杯',
      userId: 21,
      nickName: 'alice',
      mailAddr: 'alice@demo.local',
      trackingId: 'MISS0002',
      productCount: 2,
      createdAt: 1_700_000_000_000,
      ageDays: 12,
      carrier: null,
      note: '卖家补发',
      lostAt: 1_700_100_000_000,
    },
  ],
  totalPages: 1,
  totalElements: 2,
  days: 7,
};

function adminRoutes(): Routes {
  const people = createPeopleFake({
    users: [
      adminUser(21, { nickName: 'alice', groupIds: [1] }),
      adminUser(4, { nickName: 'carol', roleType: 'lowerAdmin' }),
      adminUser(3, { nickName: 'admin-name', roleType: 'admin' }),
    ],
    groups: [{ id: 1, groupName: '华东采购一组', remark: '老客户' }],
  });
  const catalog = createCatalogFake([item(7, { itemName: '蓝牙耳机', productId: 'P7' }), item(8, { itemName: '保温杯', status: 'close' })]);
  const boards = createBoardsFake({
    boards: [
      aBoard({ status: 'open' }),
      aBoard({ id: 2, uuid: 'b-uuid-2', boardName: '二月采购', status: 'close', expire: true }),
      aBoard({ id: 3, uuid: 'b-uuid-3', boardName: '三月采购' }),
    ],
    boardTasks: (['normal', 'urgent', 'full', 'closed'] as const).map((status, i) => aBoardTask({ id: 11 + i, status, claimCount: 40 * i })),
    bound: { 1: [1] },
    tasks: [aBoardClaim({ ...HOME }), aBoardClaim({ id: 502, mainId: 502, status: 'pending' })],
  });
  const tasks = createAdminTasksFake({
    tasks: TASK_STATUSES.map((status, i) => anAdminTask({ id: 501 + i, mainId: 501 + i, status, ...(i === 0 ? HOME : {}), trackingId: i ? `1Z50${i}` : '' })),
    audits: ACTIONS.map((action, i) =>
      aTaskAudit({ id: 9001 + i, action, entity: (['task', 'purchased'] as const)[i % 2]!, status: TASK_STATUSES[i % TASK_STATUSES.length] }),
    ),
  });
  const tracking = createTrackingFake({
    records: SCAN_STATUSES.map((status, i) => aScanRecord({ id: 11 + i, trackingId: `1Z10${i}`, status })),
    // A scan row's entry carries a scan status, a purchased record's its task's.
    audits: ACTIONS.map((action, i) =>
      aTrackingAudit(
        i % 2
          ? { id: 7001 + i, action, entity: 'purchased', status: TASK_STATUSES[i % TASK_STATUSES.length] }
          : { id: 7001 + i, action, entity: 'tracking', status: SCAN_STATUSES[i % SCAN_STATUSES.length] },
      ),
    ),
  });
  const payments = createPaymentsFake({
    viewer: 'admin',
    applies: PAYMENT_STATUSES.map((status, i) => anApply({ id: 1 + i, taskId: 100 + i, mainId: 100 + i, subId: i % 2, status })),
    amounts: [anAmount(), anAmount({ userId: 7, nickName: 'bob', mailAddr: 'bob@demo.local', amount: 12 })],
  });
  const withdraw = createWithdrawFake({ lines: WITHDRAW_STATUSES.map((status, i) => aLine({ id: 501 + i, orderId: 9001 + i, status, cardId: 31 + (i % 3) })) });
  const receiving = createReceivingFake({ records: [aScan()] });
  return {
    ...receiving.handlers,
    ...people.handlers,
    ...boards.handlers,
    ...catalog.handlers,
    ...tracking.handlers,
    ...payments.handlers,
    ...withdraw.handlers,
    ...tasks.handlers,
    'GET /api/home/admin': () =>
      ok({
        pendingClaims: 3,
        scannedTodayUnmatched: 1,
        notArrived: 5,
        notArrivedRecords: 5,
        notArrivedDays: 7,
        appliesToAgree: 2,
        contestedParcels: 0,
        parcelClaims: { unknown: 1, claimed: 1, days: 7 },
        withdrawalsWaiting: { count: 4, total: 1234.5 },
        requestedCancels: 1,
      }),
    'GET /api/notice/get': () => ok({ content: '本周五仓库盘点' }),
    'GET /api/admin/purchased/missing': () => ok(MISSING_PAGE),
    'GET /api/admin/purchased/claims': () => ok(CLAIM_PAGE),
  };
}

function memberRoutes(): Routes {
  const myTasks = TASK_STATUSES.map((status, i) =>
    aMyTask({ id: 100 + i, mainId: 100 + i, status, productCount: status === 'locked' ? 2 : 0, trackingId: `1Z99${i}`, ...(i === 1 ? HOME : {}) }),
  );
  const tasks = createTasksFake({
    tasks: myTasks,
    records: [
      aPurchase({ taskId: 101 }),
      aPurchase({ id: 2, taskId: 101, trackingId: '1Z998', status: 'match' }),
      aPurchase({ id: 3, taskId: 101, trackingId: '1Z997', status: 'unmatch', msg: '包裹与记录不符' }),
    ],
  });
  const boards = createMemberBoardsFake({
    boards: [aMemberBoard(), aMemberBoard({ id: 2, uuid: 'b-2', boardName: '十月采购', status: 'close', expire: true })],
    boardTasks: (['normal', 'urgent', 'full', 'closed'] as const).map((status, i) => aMemberBoardTask({ id: 12 + i, status, claimCount: 3 * i })),
    myTasks: [myTasks[1]!],
  });
  const payments = createPaymentsFake({ applies: PAYMENT_STATUSES.map((status, i) => anApply({ id: 1 + i, taskId: 100 + i, mainId: 100 + i, status })) });
  const cardsOfEveryType = KNOWN_PAYMENT_TYPES.map((paymentType, i) =>
    aCard({
      id: 31 + i,
      paymentType,
      cardType: paymentType === 'Billpay' ? CARD_TYPE_OPTIONS.Billpay[0] : paymentType === 'Check' ? CARD_TYPE_OPTIONS.Check[0] : '',
    }),
  );
  const withdraw = createWithdrawFake({
    cards: cardsOfEveryType,
    lines: WITHDRAW_STATUSES.map((status, i) => aLine({ id: 501 + i, orderId: 9001 + i, status, paymentType: KNOWN_PAYMENT_TYPES[i]! })),
    applies: [anAgreedApply()],
  });
  return {
    ...createBankCardsFake({ cards: cardsOfEveryType }).handlers,
    ...payments.handlers,
    ...withdraw.handlers,
    ...tasks.handlers,
    ...boards.handlers,
    'GET /api/notice/get': () => ok({ content: '本周五仓库盘点' }),
    'GET /api/purchased/user/missing': () => ok(MISSING_PAGE),
    'GET /api/purchased/user/unknown': () => ok(UNKNOWN_PAGE),
  };
}

/** An unknown parcel a member could claim (decision 169), and the claim an admin sees. */
const UNKNOWN_PAGE = {
  content: [
    {
      maskedTrackingId: '****456784',
      carrier: 'UPS',
      seenAt: 1_700_000_000_000,
      products: [{ itemName: '蓝牙耳机', upc: '194253397168', count: 2 }],
      myTasks: [{ id: 101, taskDisplayId: '101-0', itemName: '蓝牙耳机', room: 2 }],
    },
  ],
  totalPages: 1,
  totalElements: 1,
};
const CLAIM_PAGE = {
  content: [
    {
      id: 71,
      taskId: 101,
      taskDisplayId: '101-0',
      taskStatus: 'locked',
      itemName: '蓝牙耳机',
      userId: 21,
      nickName: 'alice',
      mailAddr: 'alice@demo.local',
      trackingId: '1Z999AA10123456784',
      productCount: 2,
      status: 'match',
      claimedAt: 1_700_000_000_000,
      undoable: true,
    },
  ],
  totalPages: 1,
  totalElements: 1,
};

// ---------------------------------------------------------------- rendering and reading

interface Rendered {
  data: Set<string>;
  user: ReturnType<typeof userEvent.setup>;
}

/** Renders `path` as `role` on `routes`, every answer's texts taken as data, once the page's heading is up and its lists are loaded. */
async function open(path: string, role: RoleType | null, routes: Routes, shows?: string | RegExp): Promise<Rendered> {
  const data = new Set<string>();
  const handlers: Routes = {};
  const all: Routes = role ? { 'GET /api/user/info': () => ok(userOf(role)), ...routes } : routes;
  for (const [key, handler] of Object.entries(all)) {
    handlers[key] = async (request) => {
      const response = await handler(request);
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => null);
      dataTexts(body, data);
      return response;
    };
  }
  renderApp(path, { handlers, ...(role ? { loggedInAs: userOf(role) } : {}) });
  await screen.findByRole('heading', { level: 1 });
  if (shows) await waitFor(() => expect(screen.getAllByText(shows).length).toBeGreaterThan(0));
  await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
  return { data, user: userEvent.setup() };
}

/** The labels of the page with a Latin word that is not data or allowed (empty when all is Chinese). */
const englishOn = (data: ReadonlySet<string>) => latinWords(visibleLabels(document.body), data);

// ---------------------------------------------------------------- the pages

const ADMIN_PAGES: [string, (string | RegExp)?][] = [
  ['/admin/home', /待审核的认领/],
  ['/admin/group-list', '华东采购一组'],
  ['/admin/group/1', 'alice'],
  ['/admin/group/new'],
  ['/admin/user-list', 'carol'],
  ['/admin/item-list', '保温杯'],
  ['/admin/item/7'],
  ['/admin/item/new'],
  ['/admin/board-list', '二月采购'],
  ['/admin/board/1', '待审核的认领'],
  ['/admin/board/new'],
  ['/admin/boardtask/1/11'],
  ['/admin/boardtask/1/new'],
  ['/admin/tracking-list', '1Z100'],
  ['/admin/scan'],
  ['/admin/scan2'],
  ['/admin/upload'],
  ['/admin/tasks', '1Z501'],
  ['/admin/missing-parcels', '卖家补发'],
  ['/admin/parcel-claims', '1Z999AA10123456784'],
  ['/admin/task/501'],
  ['/admin/apply-list', /102/],
  ['/admin/withdraw-list', '9001'],
  ['/admin/task-amount-list', 'bob'],
  // Every action of the audit trail on one page.
  ['/admin/tracking-audit?size=100', '7001'],
  ['/admin/task-audit?size=100', '9001'],
  ['/admin/invite'],
  ['/me', '本周五仓库盘点'],
];

const MEMBER_PAGES: [string, (string | RegExp)?][] = [
  ['/user/board-list', '十一月采购'],
  ['/user/board/b-1', '限购2件'],
  ['/user/boardtask/1/12', '限购2件'],
  ['/user/my-task', '1Z990'],
  ['/user/missing-parcels', '卖家补发'],
  ['/user/unknown-parcels', '****456784'],
  ['/user/apply-list', /103/],
  ['/user/upload'],
  ['/user/bank-card', '****1111'],
  ['/user/withdraw-request', '9001'],
  ['/user/withdraw-orders', '9001'],
  ['/me', '本周五仓库盘点'],
];

describe('no English on any page: every label is Chinese, data, an allowed acronym or a product name', () => {
  it.each(ADMIN_PAGES)('admin %s', async (path, shows) => {
    const { data } = await open(path, 'admin', adminRoutes(), shows);
    expect(englishOn(data)).toEqual([]);
  });

  it.each(MEMBER_PAGES)('member %s', async (path, shows) => {
    const { data } = await open(path, 'user', memberRoutes(), shows);
    expect(englishOn(data)).toEqual([]);
  });

  it('a visitor /login (the login page, a page of its own)', async () => {
    renderLoginPage();
    await screen.findByRole('heading', { level: 1 });
    expect(englishOn(new Set())).toEqual([]);
  });

  it.each([['/forgot-password'], ['/signup?mailAddr=new%40example.com&token=abc123'], ['/reset?token=abc123']])('a visitor %s', async (path) => {
    const routes: Routes = {
      'GET /ext/login/token/exist': () => ok({ status: 'succ', mail: 'new@example.com' }),
    };
    const { data } = await open(path, null, routes);
    expect(englishOn(data)).toEqual([]);
  });
});

describe('no English in the dialogs where fields are typed', () => {
  it('the claim dialog, shipping to the home (寄到家, 州, 邮编, 标签数量)', async () => {
    const { data, user } = await open('/user/board/b-1', 'user', memberRoutes(), '限购2件');
    await user.click(screen.getAllByRole('button', { name: /^认领/ })[0]!);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText(zh.memberBoards.isHome));
    await within(dialog).findByLabelText(zh.memberBoards.zipCode);
    expect(englishOn(data)).toEqual([]);
  });

  it('the task record dialog and the edit-count dialog of a task sent home', async () => {
    const { data, user } = await open('/user/my-task', 'user', memberRoutes(), '1Z990');
    const row = () => screen.getByText('1Z991').closest('tr')!;
    await user.click(within(row()).getByRole('button', { name: zh.tasks.action.records }));
    const records = await screen.findByRole('dialog');
    await within(records).findByText('1Z997');
    expect(englishOn(data)).toEqual([]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(row()).getByRole('button', { name: zh.tasks.action.edit }));
    const edit = await screen.findByRole('dialog');
    await within(edit).findByText(zh.tasks.homeFieldsFixed);
    expect(englishOn(data)).toEqual([]);
  });

  it.each(KNOWN_PAYMENT_TYPES)('the bank card dialog for %s', async (paymentType) => {
    const { data, user } = await open('/user/bank-card', 'user', memberRoutes(), '****1111');
    await user.click(screen.getByRole('button', { name: zh.bankCards.add }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByLabelText(CARD_LABELS.paymentType), paymentType);
    await user.click(within(dialog).getByRole('button', { name: zh.bankCards.dialog.save }));
    await within(dialog).findAllByRole('alert');
    // The holder name's message is SPEC §5's exact text ('请填写Account Holder Name'): data here.
    expect(englishOn(new Set([...data, '请填写Account Holder Name']))).toEqual([]);
  });

  it('the withdrawal request dialog', async () => {
    const { data, user } = await open('/user/withdraw-request', 'user', memberRoutes(), '9001');
    await user.click(screen.getByRole('button', { name: zh.withdraw.request.button }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(zh.withdraw.dialog.lines);
    expect(englishOn(data)).toEqual([]);
  });

  it("the admin's card reveal", async () => {
    const { data, user } = await open('/admin/withdraw-list', 'admin', adminRoutes(), '9001');
    await user.click(screen.getAllByRole('button', { name: /^收款信息/ })[0]!);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(zh.withdraw.admin.reveal.field.routingNumber);
    expect(englishOn(data)).toEqual([]);
  });
});
