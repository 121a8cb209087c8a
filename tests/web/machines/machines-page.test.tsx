// @vitest-environment happy-dom
// The offline state charts (/admin/machines, docs/decisions/132): a machine drawn from its definition
// (its states, an event on an arrow, a guard by its name, nested states), a clicked state's
// dependents read from the code, and the tab's own running actors reported through the channel.
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MachinesPage } from '../../../src/web/features/machines/machines-page';
import { MACHINE_CATALOG } from '../../../src/web/features/machines/machine-catalog';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { eventDetail, statePaths } from '../../../src/web/inspect/tab-broadcast';
import { renderApp, userOf } from '../app-harness';

afterEach(() => {
  cleanup();
  clearToasts();
});

const chart = () => screen.getByTestId('machine-chart');
/** A state's box: a button named by what it shows, its name first. */
const state = (name: string) => within(chart()).getByRole('button', { name: new RegExp(`^${name}(?![A-Za-z])`) });
const arrowLabels = () => [...chart().querySelectorAll('[data-edge]')].map((e) => e.getAttribute('data-edge'));

describe('the chart of a machine', () => {
  it('draws the task machine: its states, the events on its arrows and the guards by their names', () => {
    render(<MachinesPage machine="task" onMachine={() => {}} />);
    for (const name of ['pending', 'open', 'unmatch', 'locked', 'processing', 'finished', 'closed', 'deleted']) expect(state(name)).toBeTruthy();
    expect(arrowLabels()).toContain('task.apply');
    // open -> deleted only when nothing arrived; open -> locked when matching says so.
    expect(arrowLabels().some((l) => l?.includes('task.delete [nothingArrived]'))).toBe(true);
    expect(arrowLabels().some((l) => l?.includes('task.match [outcomeLocked]'))).toBe(true);
    // A transition that stays in its state is listed inside the box.
    expect(within(state('locked')).getByText('↻ task.edit [byAdmin]')).toBeTruthy();
  });

  it('draws nested states inside their parent and invoked actors by name', () => {
    render(<MachinesPage machine="scan" onMachine={() => {}} />);
    expect(state('parcel').getAttribute('data-state')).toBe('parcel');
    expect(chart().querySelector('[data-state="parcel.save.submitting"]')).not.toBeNull();
    expect(within(state('submitting')).getByText('invoke createScans')).toBeTruthy();
    expect(arrowLabels()).toContain('done(lookupTracking)');
  });

  it('lists every machine of machines/', () => {
    const files = fs.readdirSync(path.resolve('machines')).filter((f) => f.endsWith('.machine.ts'));
    expect(MACHINE_CATALOG.length).toBe(files.length);
    render(<MachinesPage machine="task" onMachine={() => {}} />);
    const nav = screen.getByRole('navigation', { name: '状态机' });
    for (const { machine } of MACHINE_CATALOG) expect(within(nav).getByRole('button', { name: new RegExp(`^${machine.id} `) })).toBeTruthy();
  });
});

describe('what depends on a state', () => {
  it('names the exports that point at the clicked state, with the screens and calls that use them', async () => {
    render(<MachinesPage machine="task" onMachine={() => {}} />);
    expect(screen.getByText('点击图中的状态，查看依赖它的页面与接口。')).toBeTruthy();
    await userEvent.click(state('pending'));
    const uses = screen.getByTestId('state-uses');
    // CLAIM_PENDING_STATUS is 'pending': the admin home counts the claims waiting (its screen and its call).
    const row = within(uses).getByText('CLAIM_PENDING_STATUS').closest('div')!;
    expect(row.textContent).toContain('/admin/home');
    expect(row.textContent).toContain('getAdminHome');
    // The machine itself reads every state: its users are listed for every state.
    expect(within(uses).getByText(/taskMachine/)).toBeTruthy();
    expect(uses.textContent).toContain('acceptTask');
  });
});

describe('the running actors', () => {
  it("shows this tab's session actor in its current state, and only on the admin side", async () => {
    renderApp('/admin/machines?machine=session', { loggedInAs: userOf('admin') });
    // The session logs in, then reports over the channel: waited for as long as a busy machine needs.
    const shows = { timeout: 15_000 };
    const live = await screen.findByRole('list', { name: '本浏览器中运行的状态机' }, shows);
    // (Earlier files' session actors of this worker may be listed too: the newest is this test's.)
    expect((await within(live).findAllByText('loggedIn', {}, shows)).length).toBeGreaterThan(0);
    expect(chart().querySelector('[data-state="loggedIn"]')?.getAttribute('data-active')).toBe('true');
  });

  it('is not shown to a member', async () => {
    renderApp('/admin/machines', { loggedInAs: userOf('user') });
    await screen.findByRole('main', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('machine-chart')).toBeNull();
  });
});

describe('what a tab reports', () => {
  it('reports the active states of a nested value, parents first', () => {
    expect(statePaths('noTracking')).toEqual(['noTracking']);
    expect(statePaths({ parcel: { save: 'editing', catalog: 'idle' } })).toEqual([
      'parcel',
      'parcel.save',
      'parcel.save.editing',
      'parcel.catalog',
      'parcel.catalog.idle',
    ]);
  });

  it("logs an event's payload with nothing that looks like a secret", () => {
    const detail = eventDetail({ type: 'session.login', token: 'tok-123', user: { mailAddr: 'a@b.c', pwd: 'hunter2' }, code: '9400' });
    expect(detail).toContain('"code":"9400"');
    expect(detail).not.toContain('tok-123');
    expect(detail).not.toContain('hunter2');
  });
});
