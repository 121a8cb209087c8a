// Payment applications through the real API on a real database (SPEC §2 /user/apply-list,
// /admin/apply-list; §4 "Payment application status"; §5 "Payment apply bonus"; §7 "Payments";
// DECISIONS "Money", "Roles"). The machine's rules per state are proven in the machine tests; here
// its paths are replayed against the API: what each call changes (application, task, parcels,
// withdraw lines), every refusal and its message, income in cents, ownership and the audit trail.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { paymentMessages } from '../../../machines/payment.machine.ts';
import { taskMessages } from '../../../machines/task.machine.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { bankCards, paymentApplies, withdrawOrderApplies, withdrawOrders, withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { tasks } from '../../../src/server/db/schema/tasks.ts';
import { paymentEntity } from '../../../src/server/entities/payment.ts';
import { transition } from '../../../src/server/entities/store.ts';
import { useTestApp } from '../support/harness.ts';
import {
  agreedApplication,
  agreePayment,
  appliedApplication,
  applyPayment,
  lockedTask,
  markWithdrawing,
  moneyWorld,
  scansOfTask,
  setPayment,
  storedPayment,
  type Member,
  type MoneyWorld,
  type PaymentApplyOut,
  type PaymentResult,
} from '../support/money-fixtures.ts';
import { claim, notFound, record, refused, scan, setTask, storedTask, UPC, type TaskOut } from '../support/task-fixtures.ts';
import { signIn } from '../support/board-fixtures.ts';
import { client } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const world = () => moneyWorld(t().app, t().database);
const db = () => t().database;
const confirm = (api: MoneyWorld['admin'], id: number) => api.post<PaymentResult>('/api/trade/admin/pay/confirm', { paymentApplyId: id });
const collect = (api: MoneyWorld['admin'], id: number) => api.post<PaymentResult>('/api/trade/user/collect/confirm', { paymentApplyId: id });
const paymentAudits = (id: number) =>
  db()
    .db.select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'payment'), eq(auditLog.entityId, id)))
    .orderBy(auditLog.id);
const allApplications = () => db().db.select().from(paymentApplies).orderBy(paymentApplies.id);
const auditCount = async () => (await db().db.select().from(auditLog)).length;
type Page = { content: PaymentApplyOut[]; totalPages: number };

/** A withdraw order of `member` holding `applyIds`, with `lines` lines (one card each), written straight into the tables. */
async function withdrawOrderOf(member: Member, applyIds: number[], lines = 2) {
  const d = db().db;
  const orderId = `WD${applyIds.join('-')}`;
  await d.insert(withdrawOrders).values({ orderId, userId: member.user.id });
  const out = [];
  for (let i = 0; i < lines; i++) {
    const [card] = await d
      .insert(bankCards)
      .values({ userId: member.user.id, paymentType: 'Zelle', accountNameEncrypt: 'x', accountNameLast4: 'Lee' })
      .returning();
    const [line] = await d
      .insert(withdrawRequests)
      .values({
        orderId,
        userId: member.user.id,
        cardId: card!.id,
        paymentType: 'Zelle',
        accountNameEncrypt: 'x',
        accountNameLast4: 'Lee',
        withdrawAmount: 100,
      })
      .returning();
    out.push(line!);
  }
  await d.insert(withdrawOrderApplies).values(applyIds.map((paymentApplyId) => ({ orderId, paymentApplyId })));
  return { orderId, lines: out };
}

describe('the path of an application: apply, agree, withdraw, confirm, collect', () => {
  it('moves the application, its task and its parcels together, stamps the times and audits every step', async () => {
    const w = await world();
    const { task, trackingId } = await lockedTask(db(), w, w.a, { count: 3, buyIn: 12.34, punish: 0.05 });

    // Apply: income = 12.34 x 3 + 0.10 - 0.05 = 37.07, in cents.
    const applied = await applyPayment(w.a.api, { taskId: task.id, bonus: 0.1, note: '  加急  ' });
    expect(applied.body).toMatchObject({ code: 'A00000', msg: '申请成功', data: { status: 'succ', msg: '申请成功' } });
    const apply = applied.body.data!.paymentApply!;
    expect(apply).toMatchObject({
      taskId: task.id,
      mainId: task.mainId,
      subId: 0,
      userId: w.a.user.id,
      itemName: 'AirPods Pro',
      price: 249.99,
      buyIn: 12.34,
      count: 3,
      bonus: 0.1,
      punish: 0.05,
      income: 37.07,
      note: '加急',
      status: 'applied',
      existBonus: 0.1,
    });
    expect(await storedPayment(db(), apply.id)).toMatchObject({ buyIn: 1234, bonus: 10, punish: 5, income: 3707, askedBonus: 10, agreedAt: null });
    expect(await storedTask(db(), task.id)).toMatchObject({ status: 'processing' });
    expect(await scansOfTask(db(), task.id)).toMatchObject([{ trackingId, status: 'wait2pay', count: 3 }]);
    // The my-task page's "already applied" check.
    expect((await w.a.api.get(`/api/task/apply/exist?taskIds=${task.id}`)).body.data).toEqual({ applyRecords: { [task.id]: true } });

    // Agree, keeping the asked bonus.
    const agreed = await agreePayment(w.admin, { paymentApplyId: apply.id });
    expect(agreed.body).toMatchObject({
      code: 'A00000',
      msg: '操作成功',
      data: { status: 'succ', paymentApply: { status: 'agreed', bonus: 0.1, income: 37.07 } },
    });
    expect((await storedPayment(db(), apply.id)).agreedAt).toBeInstanceOf(Date);
    expect((await w.a.api.get('/api/user/balance')).body.data).toEqual({ balance: 37.07 });

    // Into a withdraw (the withdraw request's own call is the withdraw issue's): off the balance.
    await markWithdrawing(db(), w.a.actor, [apply.id]);
    expect((await w.a.api.get('/api/user/balance')).body.data).toEqual({ balance: 0 });

    // The admin confirms the payment: paid, the task finished, the parcel payed.
    const paid = await confirm(w.admin, apply.id);
    expect(paid.body).toMatchObject({ code: 'A00000', data: { status: 'succ', paymentApply: { status: 'paid' } } });
    expect(await storedTask(db(), task.id)).toMatchObject({ status: 'finished' });
    expect(await scansOfTask(db(), task.id)).toMatchObject([{ trackingId, status: 'payed' }]);
    expect((await storedPayment(db(), apply.id)).paidAt).toBeInstanceOf(Date);

    // The member confirms receipt.
    const got = await collect(w.a.api, apply.id);
    expect(got.body).toMatchObject({ code: 'A00000', data: { status: 'succ', paymentApply: { status: 'collected', income: 37.07 } } });
    expect((await storedPayment(db(), apply.id)).collectedAt).toBeInstanceOf(Date);

    // The trail: one entry per step of the application, the task's apply and pay, the parcel's two moves.
    expect(await paymentAudits(apply.id)).toMatchObject([
      {
        action: 'apply',
        opUid: w.a.user.id,
        userId: w.a.user.id,
        taskId: task.id,
        status: 'applied',
        before: null,
        after: { status: 'applied', income: 3707 },
      },
      { action: 'agree', opUid: w.adminUser.id, status: 'agreed', before: { status: 'applied' }, after: { status: 'agreed' } },
      { action: 'withdraw', opUid: w.a.user.id, status: 'withdrawing', before: { status: 'agreed' } },
      { action: 'confirm', opUid: w.adminUser.id, status: 'paid', before: { status: 'withdrawing' } },
      { action: 'collect', opUid: w.a.user.id, status: 'collected', before: { status: 'paid' } },
    ]);
    const taskEntries = await db()
      .db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'task'), eq(auditLog.taskId, task.id)))
      .orderBy(auditLog.id);
    expect(taskEntries.filter((e) => ['apply', 'pay'].includes(e.action))).toMatchObject([
      { action: 'apply', opUid: w.a.user.id, before: { status: 'locked' }, after: { status: 'processing' } },
      { action: 'pay', opUid: w.adminUser.id, before: { status: 'processing' }, after: { status: 'finished' } },
    ]);
    const scanEntries = await db()
      .db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'tracking'), eq(auditLog.trackingId, trackingId)))
      .orderBy(auditLog.id);
    expect(scanEntries.filter((e) => ['apply', 'confirm'].includes(e.action))).toMatchObject([
      { action: 'apply', taskId: task.id, before: { status: 'match' }, after: { status: 'wait2pay' } },
      { action: 'confirm', taskId: task.id, before: { status: 'wait2pay' }, after: { status: 'payed' } },
    ]);
  });

  it('a withdraw paid (pay.paid) pays the task the same way, and a released withdraw returns to the balance', async () => {
    const w = await world();
    const one = await agreedApplication(db(), w, w.a, { count: 1 });
    const two = await agreedApplication(db(), w, w.a, { count: 2 });
    await markWithdrawing(db(), w.a.actor, [one.apply.id, two.apply.id]);
    await db().db.transaction((tx) => transition(tx, paymentEntity, null, [two.apply.id], { type: 'pay.release' }));
    expect(await storedPayment(db(), two.apply.id)).toMatchObject({ status: 'agreed' });
    expect((await w.a.api.get('/api/user/balance')).body.data).toEqual({ balance: 25 });
    await db().db.transaction((tx) => transition(tx, paymentEntity, null, [one.apply.id], { type: 'pay.paid' }));
    expect(await storedPayment(db(), one.apply.id)).toMatchObject({ status: 'paid' });
    expect(await storedTask(db(), one.task.id)).toMatchObject({ status: 'finished' });
    expect(await scansOfTask(db(), one.task.id)).toMatchObject([{ status: 'payed' }]);
    expect(await storedTask(db(), two.task.id)).toMatchObject({ status: 'processing' });
  });

  it('pays the parcels its apply froze (record.pay); a parcel matched to the task after its apply is not part of the payment', async () => {
    const w = await world();
    const { task, trackingId, apply } = await agreedApplication(db(), w, w.a, { count: 1 });
    // What matching leaves when an admin raised the processing task's record and one more unit arrived.
    const late = await scan(db(), trackingId, UPC, 1);
    await db()
      .db.update(scanTrackings)
      .set({ status: 'match', taskId: task.id, userId: task.userId, mainId: task.mainId, subId: task.subId })
      .where(eq(scanTrackings.id, late.id));
    await markWithdrawing(db(), w.a.actor, [apply.id]);
    expect((await confirm(w.admin, apply.id)).body).toMatchObject({ code: 'A00000', data: { paymentApply: { status: 'paid' } } });
    expect((await scansOfTask(db(), task.id)).map((s) => [s.id === late.id, s.status])).toEqual([
      [false, 'payed'],
      [true, 'match'],
    ]);
  });
});

describe('applying for payment', () => {
  it('computes the income in cents, with bonus 0 when absent, and never below zero', async () => {
    const w = await world();
    // 12.50 x 2, no bonus.
    const plain = await appliedApplication(db(), w, w.a, { count: 2 });
    expect(plain.apply).toMatchObject({ bonus: 0, existBonus: 0, income: 25, note: '' });
    expect(await storedPayment(db(), plain.apply.id)).toMatchObject({ bonus: 0, askedBonus: 0, income: 2500 });
    // 0.07 x 3 + 0.01 - 0.03 = 0.19 (float arithmetic would not give exactly this).
    const small = await appliedApplication(db(), w, w.a, { count: 3, buyIn: 0.07, bonus: 0.01, punish: 0.03 });
    expect(small.apply.income).toBe(0.19);
    expect((await storedPayment(db(), small.apply.id)).income).toBe(19);
    // A punishment above the earnings leaves nothing to pay.
    const punished = await appliedApplication(db(), w, w.b, { count: 1, buyIn: 1, punish: 5 });
    expect(punished.apply).toMatchObject({ income: 0, punish: 5 });
  });

  it("refuses another member's task, a task that does not exist and a task that is not locked, changing nothing", async () => {
    const w = await world();
    const { task } = await lockedTask(db(), w, w.a);
    const open = await claim(w.a.api, w.boardTask.id, 1);
    const before = await auditCount();
    expect(await applyPayment(w.b.api, { taskId: task.id })).toMatchObject({ ...notFound, body: { code: 'A00004', msg: '任务不存在' } });
    expect(await applyPayment(w.a.api, { taskId: 999_999 })).toMatchObject({ ...notFound, body: { code: 'A00004', msg: '任务不存在' } });
    expect(await applyPayment(w.a.api, { taskId: open.id })).toMatchObject(refused(taskMessages.applyLockedOnly));
    expect(await applyPayment(w.a.api, { taskId: open.id })).toMatchObject(refused('只有已锁定的任务可以申请付款'));
    expect(await allApplications()).toEqual([]);
    expect(await storedTask(db(), task.id)).toMatchObject({ status: 'locked' });
    expect(await storedTask(db(), open.id)).toMatchObject({ status: 'open' });
    expect(await auditCount()).toBe(before);
  });

  it('answers a second application for the same task with failed 该任务已申请付款, changing nothing', async () => {
    const w = await world();
    const { task, apply } = await appliedApplication(db(), w, w.a, { bonus: 2 });
    const before = await auditCount();
    const again = await applyPayment(w.a.api, { taskId: task.id, bonus: 9 });
    expect(again).toMatchObject({
      status: 200,
      body: { code: 'A00000', msg: paymentMessages.alreadyApplied, data: { status: 'failed', msg: '该任务已申请付款' } },
    });
    expect(again.body.data!.paymentApply).toBeUndefined();
    expect(await allApplications()).toMatchObject([{ id: apply.id, bonus: 200, status: 'applied' }]);
    expect(await storedTask(db(), task.id)).toMatchObject({ status: 'processing' });
    expect(await auditCount()).toBe(before);
  });

  it('two applications for one task at the same time make one application', async () => {
    const w = await world();
    const { task } = await lockedTask(db(), w, w.a);
    const results = await Promise.all([applyPayment(w.a.api, { taskId: task.id, bonus: 1 }), applyPayment(w.a.api, { taskId: task.id, bonus: 2 })]);
    expect(results.map((r) => r.body.data?.status).sort()).toEqual(['failed', 'succ']);
    expect(await allApplications()).toHaveLength(1);
    expect(await storedTask(db(), task.id)).toMatchObject({ status: 'processing' });
  });

  it('refuses bad input (A00001) and the admin side (A00003), changing nothing', async () => {
    const w = await world();
    const { task } = await lockedTask(db(), w, w.a);
    const bad = [
      { body: { taskId: task.id, bonus: -1 }, msg: '参数错误：字段 bonus 不能小于 0' },
      { body: { taskId: task.id, bonus: 1.234 }, msg: '参数错误：字段 bonus 最多两位小数' },
      { body: { taskId: task.id, bonus: '1' }, msg: '参数错误：字段 bonus 类型应为 number' },
      { body: { taskId: task.id, note: 'x'.repeat(1001) }, msg: '参数错误：字段 note 最多 1000 个字符' },
      { body: { taskId: task.id, income: 100 }, msg: '参数错误：不允许的字段 income' },
      { body: { bonus: 1 }, msg: '参数错误：缺少字段 taskId' },
    ];
    for (const b of bad) expect(await w.a.api.post('/api/trade/user/pay/apply', b.body)).toMatchObject(refused(b.msg));
    expect(await applyPayment(w.admin, { taskId: task.id })).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await allApplications()).toEqual([]);
    expect(await storedTask(db(), task.id)).toMatchObject({ status: 'locked' });
    // A note of exactly 1000 characters is accepted.
    expect((await applyPayment(w.a.api, { taskId: task.id, note: 'x'.repeat(1000) })).body.data).toMatchObject({ status: 'succ' });
  });
});

describe('agreeing (admin side)', () => {
  it('keeps the asked bonus when none is given, or replaces it and computes the income again', async () => {
    const w = await world();
    const lower = await signIn(t().app, db(), 'lower@x.test', { roleType: 'lowerAdmin' });
    const lowerApi = client(t().app, lower.token);
    // 12.34 x 3 + 0.10 - 0.05 = 37.07; agreed with 1.50: 37.02 + 1.50 - 0.05 = 38.47.
    const a = await appliedApplication(db(), w, w.a, { count: 3, buyIn: 12.34, punish: 0.05, bonus: 0.1 });
    const res = await agreePayment(lowerApi, { paymentApplyId: a.apply.id, bonus: 1.5 });
    // existBonus stays what the member asked for, beside the agreed bonus.
    expect(res.body.data!.paymentApply).toMatchObject({ status: 'agreed', bonus: 1.5, existBonus: 0.1, income: 38.47 });
    expect(await storedPayment(db(), a.apply.id)).toMatchObject({ bonus: 150, askedBonus: 10, income: 3847 });
    // Bonus 0 removes it.
    const b = await appliedApplication(db(), w, w.a, { count: 3, buyIn: 12.34, punish: 0.05, bonus: 0.1 });
    expect((await agreePayment(w.admin, { paymentApplyId: b.apply.id, bonus: 0 })).body.data!.paymentApply).toMatchObject({ bonus: 0, income: 36.97 });
    expect((await paymentAudits(b.apply.id))[1]).toMatchObject({ action: 'agree', before: { bonus: 10, income: 3707 }, after: { bonus: 0, income: 3697 } });
  });

  it('agrees only applied rows, refuses unknown ids, bad bonuses and members, changing nothing', async () => {
    const w = await world();
    const { apply } = await agreedApplication(db(), w, w.a);
    const fresh = await appliedApplication(db(), w, w.a);
    const before = await auditCount();
    expect(await agreePayment(w.admin, { paymentApplyId: apply.id, bonus: 3 })).toMatchObject(refused(paymentMessages.agreeAppliedOnly));
    expect(await agreePayment(w.admin, { paymentApplyId: apply.id })).toMatchObject(refused('只有已申请的记录可以同意'));
    expect(await agreePayment(w.admin, { paymentApplyId: 999_999 })).toMatchObject({ status: 404, body: { code: 'A00004', msg: '付款申请不存在' } });
    expect(await agreePayment(w.admin, { paymentApplyId: fresh.apply.id, bonus: -0.01 })).toMatchObject(refused('参数错误：字段 bonus 不能小于 0'));
    expect(await agreePayment(w.admin, { paymentApplyId: fresh.apply.id, bonus: 0.001 })).toMatchObject(refused('参数错误：字段 bonus 最多两位小数'));
    expect(await agreePayment(w.a.api, { paymentApplyId: fresh.apply.id })).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await storedPayment(db(), apply.id)).toMatchObject({ status: 'agreed', bonus: 0 });
    expect(await storedPayment(db(), fresh.apply.id)).toMatchObject({ status: 'applied', agreedAt: null });
    expect(await auditCount()).toBe(before);
  });
});

describe('confirming payment (admin side)', () => {
  it('confirms only withdrawing applications', async () => {
    const w = await world();
    const applied = await appliedApplication(db(), w, w.a);
    const agreed = await agreedApplication(db(), w, w.a);
    const before = await auditCount();
    expect(await confirm(w.admin, applied.apply.id)).toMatchObject(refused(paymentMessages.confirmWithdrawingOnly));
    expect(await confirm(w.admin, agreed.apply.id)).toMatchObject(refused('只有提现中的付款申请可以确认付款'));
    expect(await confirm(w.admin, 999_999)).toMatchObject({ status: 404, body: { code: 'A00004', msg: '付款申请不存在' } });
    expect(await confirm(w.a.api, agreed.apply.id)).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await storedTask(db(), agreed.task.id)).toMatchObject({ status: 'processing' });
    expect(await scansOfTask(db(), agreed.task.id)).toMatchObject([{ status: 'wait2pay' }]);
    expect(await auditCount()).toBe(before);
  });

  it('ends the cancel option of every line of its withdraw order (payment has started), audited', async () => {
    const w = await world();
    const one = await agreedApplication(db(), w, w.a, { count: 1 });
    const two = await agreedApplication(db(), w, w.a, { count: 1 });
    const other = await agreedApplication(db(), w, w.a, { count: 1 });
    const order = await withdrawOrderOf(w.a, [one.apply.id, two.apply.id], 2);
    const otherOrder = await withdrawOrderOf(w.a, [other.apply.id], 1);
    await markWithdrawing(db(), w.a.actor, [one.apply.id, two.apply.id, other.apply.id]);

    expect((await confirm(w.admin, one.apply.id)).body.data).toMatchObject({ status: 'succ', paymentApply: { status: 'paid' } });
    const lines = await db().db.select().from(withdrawRequests).orderBy(withdrawRequests.id);
    expect(lines.map((l) => [l.orderId, l.cancelFlag, l.status])).toEqual([
      [order.orderId, false, 'waited'],
      [order.orderId, false, 'waited'],
      [otherOrder.orderId, true, 'waited'],
    ]);
    const entries = await db().db.select().from(auditLog).where(eq(auditLog.entity, 'withdraw')).orderBy(auditLog.id);
    expect(entries).toMatchObject(
      order.lines.map((l) => ({ entityId: l.id, action: 'confirm', opUid: w.adminUser.id, before: { cancelFlag: true }, after: { cancelFlag: false } })),
    );
    // The other application of the order is still withdrawing; confirming it too changes no line again.
    expect((await confirm(w.admin, two.apply.id)).body.data).toMatchObject({ status: 'succ' });
    expect(await db().db.select().from(auditLog).where(eq(auditLog.entity, 'withdraw'))).toHaveLength(2);
  });
});

describe('confirming receipt (member)', () => {
  it("collects only an own paid application; another member's reads as not existing", async () => {
    const w = await world();
    const { apply } = await agreedApplication(db(), w, w.a);
    expect(await collect(w.a.api, apply.id)).toMatchObject(refused(paymentMessages.collectPaidOnly));
    await markWithdrawing(db(), w.a.actor, [apply.id]);
    await confirm(w.admin, apply.id);
    const before = await auditCount();
    expect(await collect(w.b.api, apply.id)).toMatchObject({ status: 404, body: { code: 'A00004', msg: paymentMessages.notFound } });
    expect(await collect(w.a.api, 999_999)).toMatchObject({ status: 404, body: { code: 'A00004', msg: '付款申请不存在' } });
    expect(await collect(w.admin, apply.id)).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await storedPayment(db(), apply.id)).toMatchObject({ status: 'paid', collectedAt: null });
    expect(await auditCount()).toBe(before);
    expect((await collect(w.a.api, apply.id)).body.data).toMatchObject({ status: 'succ', paymentApply: { status: 'collected' } });
    expect(await collect(w.a.api, apply.id)).toMatchObject(refused('只有已付款的记录可以确认收款'));
  });
});

describe('payment transitions (all or nothing)', () => {
  it('refuses the whole set when one row is refused, and a member moving another member’s application', async () => {
    const w = await world();
    const agreed = await agreedApplication(db(), w, w.a);
    const applied = await appliedApplication(db(), w, w.a);
    const before = await auditCount();
    await expect(markWithdrawing(db(), w.a.actor, [agreed.apply.id, applied.apply.id])).rejects.toMatchObject({
      code: 'A00001',
      message: paymentMessages.withdrawAgreedOnly,
    });
    await expect(markWithdrawing(db(), w.b.actor, [agreed.apply.id])).rejects.toMatchObject({ code: 'A00004', message: paymentMessages.notFound });
    expect(await storedPayment(db(), agreed.apply.id)).toMatchObject({ status: 'agreed' });
    expect(await auditCount()).toBe(before);
  });

  it('rolls the application back when its task refuses to be paid', async () => {
    const w = await world();
    const { apply, task } = await agreedApplication(db(), w, w.a);
    await markWithdrawing(db(), w.a.actor, [apply.id]);
    await setTask(db(), task.id, { status: 'locked' });
    expect(await confirm(w.admin, apply.id)).toMatchObject(refused(taskMessages.payProcessingOnly));
    expect(await storedPayment(db(), apply.id)).toMatchObject({ status: 'withdrawing', paidAt: null });
    expect(await scansOfTask(db(), task.id)).toMatchObject([{ status: 'wait2pay' }]);
  });
});

describe('lists and balance', () => {
  it('a member lists only their own applications, whatever userId says; the admin side lists all with nickName and filters', async () => {
    const w = await world();
    const a1 = await appliedApplication(db(), w, w.a, { count: 1 });
    const a2 = await agreedApplication(db(), w, w.a, { count: 2 });
    const b1 = await appliedApplication(db(), w, w.b, { count: 3 });
    await setPayment(db(), a1.apply.id, { createdAt: new Date('2024-03-01T00:00:00Z') });
    await setPayment(db(), a2.apply.id, { createdAt: new Date('2024-03-02T00:00:00Z') });
    await setPayment(db(), b1.apply.id, { createdAt: new Date('2024-03-03T00:00:00Z') });

    const mine = await w.a.api.get<Page>(`/api/apply/list/page?userId=${w.b.user.id}`);
    expect(mine.body.data).toMatchObject({ totalPages: 1, content: [{ id: a2.apply.id, status: 'agreed' }, { id: a1.apply.id }] });
    expect(mine.body.data!.content[0]).not.toHaveProperty('nickName');
    expect((await w.b.api.get<Page>('/api/apply/list/page')).body.data!.content.map((r) => r.id)).toEqual([b1.apply.id]);

    const all = await w.admin.get<Page>('/api/apply/list/page');
    expect(all.body.data).toMatchObject({
      totalPages: 1,
      content: [
        { id: b1.apply.id, nickName: '小B', userId: w.b.user.id },
        { id: a2.apply.id, nickName: '小A' },
        { id: a1.apply.id, nickName: '小A' },
      ],
    });
    const ids = async (q: string) => (await w.admin.get<Page>(`/api/apply/list/page?${q}`)).body.data!.content.map((r) => r.id);
    expect(await ids('isDesc=false')).toEqual([a1.apply.id, a2.apply.id, b1.apply.id]);
    expect(await ids('status=applied')).toEqual([b1.apply.id, a1.apply.id]);
    expect(await ids(`userId=${w.a.user.id}`)).toEqual([a2.apply.id, a1.apply.id]);
    expect(await ids(`mainId=${a2.task.mainId}`)).toEqual([a2.apply.id]);
    expect(await ids(`status=agreed&userId=${w.b.user.id}`)).toEqual([]);
    const paged = await w.admin.get<Page>('/api/apply/list/page?size=2&page=1');
    expect(paged.body.data).toMatchObject({ totalPages: 2, content: [{ id: a1.apply.id }] });
    expect(await w.admin.get('/api/apply/list/page?status=done')).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });

  it('the withdrawable list and the balance hold only the member’s own agreed applications', async () => {
    const w = await world();
    // 12.50 x 1 + 0.25 = 12.75 and 12.50 x 2 = 25.00; one applied, one withdrawing, and b's.
    const one = await agreedApplication(db(), w, w.a, { count: 1, bonus: 0.25 });
    const two = await agreedApplication(db(), w, w.a, { count: 2 });
    await appliedApplication(db(), w, w.a, { count: 1 });
    const out = await agreedApplication(db(), w, w.a, { count: 3 });
    await markWithdrawing(db(), w.a.actor, [out.apply.id]);
    await agreedApplication(db(), w, w.b, { count: 4 });

    const list = await w.a.api.get<{ paymentApplies: PaymentApplyOut[] }>('/api/apply/user/withdraw');
    expect(list.body.data!.paymentApplies.map((r) => [r.id, r.income]).sort()).toEqual(
      [
        [one.apply.id, 12.75],
        [two.apply.id, 25],
      ].sort(),
    );
    expect((await w.a.api.get('/api/user/balance')).body.data).toEqual({ balance: 37.75 });
    expect((await w.b.api.get('/api/user/balance')).body.data).toEqual({ balance: 50 });
    expect((await w.b.api.get<{ paymentApplies: PaymentApplyOut[] }>('/api/apply/user/withdraw')).body.data!.paymentApplies).toHaveLength(1);
    expect(await w.admin.get('/api/user/balance')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await w.admin.get('/api/apply/user/withdraw')).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });
});

describe('paying for what arrived, in one step (decision 053)', () => {
  const applyArrived = (api: MoneyWorld['admin'], body: { taskId: number; bonus?: number; note?: string }) =>
    api.post<PaymentResult & { tasks?: TaskOut[] }>('/api/trade/user/pay/apply-arrived', body);

  /** A task of `member` claiming `count` units of which `arrived` arrived (open, canSplit), on parcel `trackingId`. */
  async function partlyArrived(w: MoneyWorld, member: Member, count: number, arrived: number, trackingId: string) {
    const task = await claim(member.api, w.boardTask.id, count);
    await scan(db(), trackingId, UPC, arrived);
    await record(member.api, task.id, trackingId, count);
    const stored = await storedTask(db(), task.id);
    if (stored.status !== 'open' || !stored.canSplit) throw new Error(`partlyArrived: ${JSON.stringify(stored)}`);
    return stored;
  }

  it('splits the arrived units into a sub-task and applies for it, the original keeping the rest', async () => {
    const w = await world();
    const task = await partlyArrived(w, w.a, 5, 2, 'ARR1');
    await setTask(db(), task.id, { punish: 100 });
    const res = await applyArrived(w.a.api, { taskId: task.id, bonus: 5, note: ' 先付到货的 ' });
    expect(res.body).toMatchObject({ code: 'A00000', msg: '申请成功', data: { status: 'succ', msg: '申请成功' } });
    const [original, sub] = res.body.data!.tasks!;
    // 12.50 x 2 + 5.00 = 30.00: the claim's discount stays with the original, as a split leaves it.
    expect(res.body.data!.paymentApply).toMatchObject({
      taskId: sub!.id,
      mainId: task.mainId,
      subId: 1,
      count: 2,
      bonus: 5,
      existBonus: 5,
      punish: 0,
      income: 30,
      note: '先付到货的',
      status: 'applied',
    });
    expect(original).toMatchObject({ id: task.id, subId: 0, count: 3, productCount: 0, status: 'open', canSplit: false, punish: 1 });
    expect(sub).toMatchObject({ mainId: task.mainId, subId: 1, count: 2, productCount: 2, status: 'processing', trackingId: 'ARR1' });
    expect(await storedTask(db(), sub!.id)).toMatchObject({ status: 'processing' });
    expect(await storedTask(db(), task.id)).toMatchObject({ status: 'open', count: 3 });
    // The arrived units' parcel moved with the sub-task into the payment; the original still expects 3 on ARR1.
    expect(await scansOfTask(db(), sub!.id)).toMatchObject([{ trackingId: 'ARR1', status: 'wait2pay', count: 2 }]);
    const records = await w.a.api.get<{ purchasedItems: { trackingId: string; productCount: number; status: string }[] }>(
      `/api/purchased/${task.id}/taskTracking`,
    );
    expect(records.body.data!.purchasedItems).toMatchObject([{ trackingId: 'ARR1', productCount: 3 }]);
    // The trail: the split (task and records), the sub-task's apply, the application.
    const actions = (await db().db.select().from(auditLog).orderBy(auditLog.id)).map((a) => `${a.entity}:${a.action}`);
    expect(actions).toEqual(expect.arrayContaining(['task:split.create', 'task:split', 'task:apply', 'payment:apply', 'tracking:apply']));
  });

  it("shows the bonus asked for and the agreed one on the member's task list", async () => {
    const w = await world();
    const task = await partlyArrived(w, w.a, 3, 1, 'ARR2');
    const res = await applyArrived(w.a.api, { taskId: task.id, bonus: 5 });
    const sub = res.body.data!.tasks![1]!;
    const row = async () => (await w.a.api.get<{ content: TaskOut[] }>('/api/task/info/user/list')).body.data!.content.find((x) => x.id === sub.id)!;
    expect(await row()).toMatchObject({ bonus: 0, askedBonus: 5, agreedBonus: null });
    await agreePayment(w.admin, { paymentApplyId: res.body.data!.paymentApply!.id, bonus: 3.5 });
    expect(await row()).toMatchObject({ askedBonus: 5, agreedBonus: 3.5 });
    const original = (await w.a.api.get<{ content: TaskOut[] }>('/api/task/info/user/list')).body.data!.content.find((x) => x.id === task.id)!;
    expect(original).toMatchObject({ askedBonus: null, agreedBonus: null });
  });

  it('two at once for one task make one sub-task and one application', async () => {
    const w = await world();
    const task = await partlyArrived(w, w.a, 4, 3, 'ARR-TWICE');
    const results = await Promise.all([applyArrived(w.a.api, { taskId: task.id, bonus: 1 }), applyArrived(w.a.api, { taskId: task.id, bonus: 2 })]);
    expect(results.map((r) => r.body.data?.status ?? r.body.msg).sort()).toEqual([taskMessages.applyArrivedPartialOnly, 'succ'].sort());
    expect(await allApplications()).toHaveLength(1);
    const family = await db().db.select().from(tasks).where(eq(tasks.mainId, task.mainId));
    expect(family.map((x) => [x.subId, x.count, x.status]).sort()).toEqual([
      [0, 1, 'open'],
      [1, 3, 'processing'],
    ]);
  });

  it('refuses what the machines refuse - nothing arrived, all arrived, already applied - and another member’s task, changing nothing', async () => {
    const w = await world();
    const nothing = await claim(w.a.api, w.boardTask.id, 2);
    const { task: locked } = await lockedTask(db(), w, w.a);
    const partB = await partlyArrived(w, w.b, 3, 1, 'ARR-B');
    const before = { audits: await auditCount(), applications: await allApplications() };
    expect(await applyArrived(w.a.api, { taskId: nothing.id })).toMatchObject(refused(taskMessages.applyArrivedPartialOnly));
    expect(await applyArrived(w.a.api, { taskId: locked.id })).toMatchObject(refused(taskMessages.applyArrivedUseApply));
    expect(await applyArrived(w.a.api, { taskId: partB.id })).toMatchObject({ ...notFound, body: { code: 'A00004', msg: '任务不存在' } });
    expect(await applyArrived(w.a.api, { taskId: 999_999 })).toMatchObject(notFound);
    expect(await applyArrived(w.admin, { taskId: partB.id })).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await w.a.api.post('/api/trade/user/pay/apply-arrived', { taskId: nothing.id, bonus: -1 })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await auditCount()).toBe(before.audits);
    expect(await allApplications()).toEqual(before.applications);
    expect(await storedTask(db(), partB.id)).toMatchObject({ status: 'open', count: 3, productCount: 1 });

    // After one pay-for-arrived: the sub-task has its application, the original nothing arrived.
    const done = await applyArrived(w.b.api, { taskId: partB.id });
    const sub = done.body.data!.tasks![1]!;
    const again = await applyArrived(w.b.api, { taskId: sub.id });
    expect(again).toMatchObject({ status: 200, body: { code: 'A00000', data: { status: 'failed', msg: paymentMessages.alreadyApplied } } });
    expect(await applyArrived(w.b.api, { taskId: partB.id })).toMatchObject(refused(taskMessages.applyArrivedPartialOnly));
    expect(await allApplications()).toHaveLength(before.applications.length + 1);
  });
});
