// The state charts for QA, offline (/admin/machines, docs/decisions/132), in a browser that may reach
// nothing but the test server: every request to another origin is aborted and listed, and the list
// must stay empty. The viewer is open in one tab, /admin/scan in a second tab of the same browser;
// a parcel scanned with the scanner's keystrokes moves the scan machine's current state on the chart
// and its events appear in the viewer's log. Each step waits on what the viewer shows.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { newPage, openLoggedIn, scanKeys, shot, stationKnowsEnter, useStage } from './setup.ts';

const ADMIN = { mail: 'charts@e2e.test', password: 'charts-pass-1' };
const PRODUCT = { itemName: 'E2E 状态图商品', productId: 'E2E-SC-301', upc: '690000000301' };
const TRACKING = '9400E2E0000000000301';
const SHOWS = { timeout: 20_000 };

const stage = useStage({ admin: ADMIN });
const { server, browser, api } = stage;

beforeAll(async () => {
  await api.post(stage.adminToken, '/api/item/info', { ...PRODUCT, url: `shop.example.com/${PRODUCT.productId}`, status: 'open' });
});

/** Aborts every request that leaves the test server; the aborted addresses. */
async function offline(context: BrowserContext): Promise<string[]> {
  const origin = new URL(server.url).origin;
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  return blocked;
}

/** The scripts a page fetched. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)));
  return scripts;
}

describe('the state charts, with no request leaving the machine', () => {
  it('follows a scan on /admin/scan from a second tab', async () => {
    const { page: viewer, errors, close } = await newPage(browser);
    const blocked = await offline(viewer.context());
    await stationKnowsEnter(viewer);
    const viewerScripts = scriptsOf(viewer);
    try {
      await openLoggedIn(viewer, server, '/admin/machines?machine=scan', ADMIN);
      const chart = viewer.getByTestId('machine-chart');
      await chart.locator('[data-state="parcel.save.submitting"]').waitFor(SHOWS);
      // Its code is a chunk of its own, fetched for this route and not by the login page before it.
      const viewerChunk = viewerScripts.find((s) => /\/assets\/machines-[\w-]+\.js$/.test(s));
      expect(viewerChunk, 'the viewer chunk').toBeDefined();

      // The second tab of the same browser: /admin/scan (logged in by the stored token).
      const station = await viewer.context().newPage();
      const stationScripts = scriptsOf(station);
      await station.goto(`${server.url}/admin/scan`);
      await station.getByText('请扫描包裹的快递单号').first().waitFor(SHOWS);
      const scanActor = viewer.getByRole('button', { name: /^scan \/admin\/scan/ });
      await expect.poll(() => scanActor.getByTestId('actor-state').textContent(), SHOWS).toBe('noTracking');
      await scanActor.click();
      await expect.poll(() => chart.locator('[data-state="noTracking"]').getAttribute('data-active'), SHOWS).toBe('true');

      await scanKeys(station, TRACKING);
      await expect.poll(() => scanActor.getByTestId('actor-state').textContent(), SHOWS).toContain('parcel.save.editing');
      await expect.poll(() => chart.locator('[data-state="parcel.save.editing"]').getAttribute('data-active'), SHOWS).toBe('true');
      expect(await chart.locator('[data-state="noTracking"]').getAttribute('data-active')).toBeNull();
      const log = viewer.getByRole('list', { name: '事件记录' });
      await expect.poll(() => log.textContent(), SHOWS).toContain(`scan.code {"code":"${TRACKING}"}`);
      expect(await log.textContent()).toContain('xstate.done.actor');

      await scanKeys(station, PRODUCT.upc);
      await expect.poll(() => log.textContent(), SHOWS).toContain(`{"code":"${PRODUCT.upc}"}`);

      // What depends on a state: the scan page uses the scan machine.
      await chart.locator('[data-state="parcel"]').click({ position: { x: 40, y: 12 } }); // its name: its middle is its children's
      await expect.poll(() => viewer.getByTestId('state-uses').textContent(), SHOWS).toContain('/admin/scan');
      await shot(viewer, 'machines-viewer-1400');
      // A lifecycle machine the server runs: drawn, never live.
      await viewer
        .getByRole('navigation', { name: '状态机' })
        .getByRole('button', { name: /^task / })
        .click();
      await chart.locator('[data-state="processing"]').waitFor(SHOWS);
      await chart.locator('[data-state="deleted"]').click();
      await expect.poll(() => viewer.getByTestId('state-uses').textContent(), SHOWS).toContain('DELETED_TASK_STATUS');
      await shot(viewer, 'machines-viewer-task-1400');
      // On a phone the chart scrolls sideways to the current state.
      await viewer.setViewportSize({ width: 390, height: 844 });
      await viewer
        .getByRole('navigation', { name: '状态机' })
        .getByRole('button', { name: /^scan / })
        .click();
      const editing = chart.locator('[data-state="parcel.save.editing"][data-active="true"]');
      await editing.waitFor(SHOWS);
      await expect
        .poll(() => editing.evaluate((el) => el.getBoundingClientRect().left >= 0 && el.getBoundingClientRect().right <= window.innerWidth), SHOWS)
        .toBe(true);
      await shot(viewer, 'machines-viewer-390');

      expect(stationScripts.filter((s) => s === viewerChunk)).toEqual([]);
      expect(blocked).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
