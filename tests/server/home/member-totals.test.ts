// The member home's money at a glance (decision 111; src/server/home/member-totals.ts): claimed /
// recorded / arrived from the member's live tasks (units, buyIn x units), paid and withdrawable from
// their applications (units paid for, income), against tasks and applications in each state, and
// none of another member's.
import { describe, expect, it } from 'vitest';
import { CLAIM_PENDING_STATUS } from '../../../machines/task.machine.ts';
import { useTestApp } from '../support/harness.ts';
import { agreedApplication, lockedTask, markWithdrawing, setPayment } from '../support/money-fixtures.ts';
import { claim, record, setTask, taskWorld, type Client } from '../support/task-fixtures.ts';

const t = useTestApp();

interface Figure {
  units: number;
  amount: number;
}
interface Totals {
  claimed: Figure;
  recorded: Figure;
  arrived: Figure;
  paid: Figure;
  withdrawable: Figure;
}
const totalsOf = async (api: Client) => (await api.get<{ totals: Totals; balance: number }>('/api/home/user')).body.data!;

describe("the member home's totals", () => {
  it('sums each state of the member’s own tasks and applications, in units and yuan', async () => {
    const { app, database } = t();
    const w = await taskWorld(app, database);
    const bt = w.boardTask.id; // buyIn 12.50; boardTask2: 20.00
    const a = w.a;
    const empty = await totalsOf(a.api);
    expect(empty.totals).toEqual({
      claimed: { units: 0, amount: 0 },
      recorded: { units: 0, amount: 0 },
      arrived: { units: 0, amount: 0 },
      paid: { units: 0, amount: 0 },
      withdrawable: { units: 0, amount: 0 },
    });

    await claim(a.api, bt, 3); // claimed only
    const oneOfFour = await claim(a.api, bt, 4);
    await record(a.api, oneOfFour.id, 'TOT1', 1); // 1 of 4 recorded
    await claim(a.api, w.boardTask2.id, 1); // another price
    const pending = await claim(a.api, bt, 1);
    await setTask(database, pending.id, { status: CLAIM_PENDING_STATUS }); // a claim waiting counts as claimed
    const deleted = await claim(a.api, bt, 2);
    await record(a.api, deleted.id, 'TOTDEL', 2);
    await a.api.del(`/api/task/info/user/${deleted.id}`); // counts nowhere
    await lockedTask(database, w, a, { count: 2 }); // recorded and arrived, not applied
    const paid = await agreedApplication(database, w, a, { count: 1 });
    await setPayment(database, paid.apply.id, { status: 'paid' }); // paid out
    await agreedApplication(database, w, a, { count: 3, bonus: 5 }); // withdrawable: 37.50 + 5
    const held = await agreedApplication(database, w, a, { count: 1 });
    await markWithdrawing(database, w.adminActor, [held.apply.id]); // in a withdraw: neither
    // b's tasks and money never count for a.
    await claim(w.b.api, bt, 5);
    await agreedApplication(database, w, w.b, { count: 2 });

    const h = await totalsOf(a.api);
    // Claimed 3 + 4 + 1 (at 20) + 1 (pending) + 2 + 1 + 3 + 1 = 16 units; 15 x 12.50 + 20.
    expect(h.totals.claimed).toEqual({ units: 16, amount: 207.5 });
    // Recorded 1 + 2 + 1 + 3 + 1 = 8 units x 12.50.
    expect(h.totals.recorded).toEqual({ units: 8, amount: 100 });
    // Arrived 2 + 1 + 3 + 1 = 7 units x 12.50.
    expect(h.totals.arrived).toEqual({ units: 7, amount: 87.5 });
    expect(h.totals.paid).toEqual({ units: 1, amount: 12.5 });
    expect(h.totals.withdrawable).toEqual({ units: 3, amount: 42.5 });
    expect(h.balance).toBe(42.5);

    // The recorded tile opens /user/my-task?recorded=true: the tasks whose records it sums (not the
    // deleted one, nor those without records), their recorded units the tile's 8.
    type Listed = { id: number; trackings: { productCount: number }[] };
    const listed = (await a.api.get<{ content: Listed[]; totalElements: number }>('/api/task/info/user/list?recorded=true&size=100')).body.data!;
    expect(listed.totalElements).toBe(5);
    expect(listed.content.map((x) => x.id)).toContain(oneOfFour.id);
    expect(listed.content.map((x) => x.id)).not.toContain(deleted.id);
    expect(listed.content.flatMap((x) => x.trackings).reduce((n, r) => n + r.productCount, 0)).toBe(h.totals.recorded.units);
    // The claimed tile opens /user/my-task?claimed=true: every task but the deleted one, their units the tile's 16.
    type Claimed = { id: number; count: number };
    const claimed = (await a.api.get<{ content: Claimed[]; totalElements: number }>('/api/task/info/user/list?claimed=true&size=100')).body.data!;
    expect(claimed.totalElements).toBe(8);
    expect(claimed.content.map((x) => x.id)).not.toContain(deleted.id);
    expect(claimed.content.reduce((n, x) => n + x.count, 0)).toBe(h.totals.claimed.units);
    // false is no filter (all 9 of a's tasks, the deleted one too); b's recorded list holds none of a's.
    expect((await a.api.get<{ totalElements: number }>('/api/task/info/user/list?recorded=false&size=100')).body.data!.totalElements).toBe(9);
    expect((await a.api.get<{ totalElements: number }>('/api/task/info/user/list?claimed=false&size=100')).body.data!.totalElements).toBe(9);
    expect((await w.b.api.get<{ totalElements: number }>('/api/task/info/user/list?recorded=true')).body.data!.totalElements).toBe(1);

    const b = await totalsOf(w.b.api);
    expect(b.totals.claimed).toEqual({ units: 7, amount: 87.5 });
    expect(b.totals.withdrawable).toEqual({ units: 2, amount: 25 });
    expect(b.totals.paid).toEqual({ units: 0, amount: 0 });
  });
});
