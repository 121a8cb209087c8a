// @vitest-environment happy-dom
// The camera (components/camera-scanner.tsx, lib/camera-reads.ts; docs/decisions/082): a read counts
// when two frames agree, once per presentation, and only in the field it can fill. A fake decoder
// stands in for the camera and hands the panel frames as a real one does, several a second, each
// with the codes found in it; the clock is set per frame.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCameraReaderFactory, FRAME_INTERVAL_MS, type FrameHandler } from '../../../src/web/components/camera-scanner';
import {
  AGREE_FRAMES,
  EMPTY_VIEW,
  FIELD_SYMBOLOGIES,
  GONE_FRAMES,
  GONE_MS,
  fieldAccepts,
  readFrame,
  type CameraView,
  type Symbology,
} from '../../../src/web/lib/camera-reads';
import { SCAN_COMMANDS } from '../../../machines/scan-station';
import { setScanSoundPlayer } from '../../../src/web/lib/scan-sounds';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { scan2StorageKey } from '../../../src/web/features/scan/scan2-storage';
import { renderApp, userOf } from '../app-harness';
import { aScan, createReceivingFake } from './receiving-fake';

const admin = userOf('admin');

afterEach(() => {
  cleanup();
  clearToasts();
  vi.useRealTimers();
  setCameraReaderFactory(null);
  setScanSoundPlayer(null);
  localStorage.clear();
});

/** Feeds frames to readFrame, FRAME_INTERVAL_MS apart; returns every code read. */
function decoder() {
  let view: CameraView = EMPTY_VIEW;
  let now = 0;
  const reads: string[] = [];
  return {
    reads,
    frames(codes: readonly string[], count = 1) {
      for (let i = 0; i < count; i++) {
        now += FRAME_INTERVAL_MS;
        const read = readFrame(view, codes, now);
        view = read.view;
        reads.push(...read.fresh);
      }
    },
    /** No frame at all for `ms` (the page stalled, or the decoder is slow). */
    stall(ms: number) {
      now += ms;
    },
  };
}

/** Enough frames, far enough apart, for a code to have left the view. */
const LEAVE_FRAMES = Math.max(GONE_FRAMES, Math.ceil(GONE_MS / FRAME_INTERVAL_MS));

describe('one read per presentation (readFrame)', () => {
  it('a code held in view is read once, however long it is held', () => {
    const camera = decoder();
    camera.frames(['UPC5'], 43); // 8.6 s of frames
    expect(camera.reads).toEqual(['UPC5']);
  });

  it('the same code is read again only after it has left the view', () => {
    const camera = decoder();
    camera.frames(['UPC5'], 5);
    camera.frames([], LEAVE_FRAMES);
    camera.frames(['UPC5'], 5);
    expect(camera.reads).toEqual(['UPC5', 'UPC5']);
  });

  it('a code the decoder misses for a few frames has not left (blur, glare)', () => {
    const camera = decoder();
    camera.frames(['UPC5'], 3);
    camera.frames([], GONE_FRAMES - 1);
    camera.frames(['UPC5'], 3);
    expect(camera.reads).toEqual(['UPC5']);
  });

  it('a stall of the page is not a departure: the code must be missing from enough frames', () => {
    const camera = decoder();
    camera.frames(['UPC5'], 3);
    camera.stall(5_000);
    camera.frames([], 1);
    camera.frames(['UPC5'], 3);
    expect(camera.reads).toEqual(['UPC5']);
  });

  it('missing frames in quick succession are not a departure either: it must be gone for GONE_MS', () => {
    let view: CameraView = EMPTY_VIEW;
    view = readFrame(view, ['UPC5'], 0).view;
    expect(readFrame(view, ['UPC5'], 0).fresh).toEqual(['UPC5']);
    view = readFrame(view, ['UPC5'], 0).view;
    for (let i = 1; i <= GONE_FRAMES * 2; i++) view = readFrame(view, [], i).view;
    expect(readFrame(view, ['UPC5'], GONE_FRAMES * 2 + 1).fresh).toEqual([]);
  });

  it('a different code is read at once, while the first is still in view', () => {
    const camera = decoder();
    camera.frames(['UPC5'], 3);
    camera.frames(['UPC5', 'UPC6'], 1);
    camera.frames(['UPC6'], 1);
    camera.frames(['UPC5'], 1);
    expect(camera.reads).toEqual(['UPC5', 'UPC6']);
  });

  it('a code found in one frame only does not count: a misread of a soft or noisy frame', () => {
    const camera = decoder();
    camera.frames(['19426471'], 1);
    camera.frames(['194253397168'], 1);
    camera.frames(['194253397168'], 3);
    expect(camera.reads).toEqual(['194253397168']);
    expect(AGREE_FRAMES).toBe(2);
  });

  it('two finds with one frame between them agree (a noisy frame); with two between, they do not', () => {
    const camera = decoder();
    camera.frames(['1Z001'], 1);
    camera.frames([], 1);
    camera.frames(['1Z001'], 1);
    camera.frames(['1Z002'], 1);
    camera.frames([], 2);
    camera.frames(['1Z002'], 1);
    expect(camera.reads).toEqual(['1Z001']);
    camera.frames(['1Z002'], 1);
    expect(camera.reads).toEqual(['1Z001', '1Z002']);
  });

  it('blank and padded codes are the same code, and empty ones are none', () => {
    const camera = decoder();
    camera.frames([' UPC5 ', ''], 1);
    camera.frames(['UPC5'], 1);
    expect(camera.reads).toEqual(['UPC5']);
  });
});

describe('a field reads only the symbologies it can be (fieldAccepts)', () => {
  it('a tracking id is never a UPC/EAN, a product never a courier label; the command barcodes are read in both', () => {
    expect(fieldAccepts('tracking', { text: '19426471', format: 'ean_8' })).toBe(false);
    expect(fieldAccepts('tracking', { text: '194253397168', format: 'upc_a' })).toBe(false);
    expect(fieldAccepts('tracking', { text: '1Z999AA10123456784', format: 'code_128' })).toBe(true);
    expect(fieldAccepts('tracking', { text: '9400111899223100012345', format: 'data_matrix' })).toBe(true);
    expect(fieldAccepts('product', { text: '1Z999AA10123456784', format: 'code_128' })).toBe(false);
    expect(fieldAccepts('product', { text: '194253397168', format: 'upc_a' })).toBe(true);
    expect(fieldAccepts('product', { text: SCAN_COMMANDS.submit, format: 'code_128' })).toBe(true);
  });
});

/** A fake camera the panel reads from; `show` hands it frames FRAME_INTERVAL_MS apart on the clock. */
function fakeCamera() {
  const camera = {
    onFrame: null as FrameHandler | null,
    /** The symbologies the panel asks the decoder for now. */
    wanted: (() => []) as () => readonly Symbology[],
    started: 0,
    stopped: 0,
    /** `frames` frames with `codes` in them, each read as `format` (what the decoder found). */
    show(codes: readonly string[], frames = 1, format: Symbology = 'code_128') {
      act(() => {
        for (let i = 0; i < frames; i++) {
          vi.setSystemTime(Date.now() + FRAME_INTERVAL_MS);
          camera.onFrame!(codes.map((text) => ({ text, format })));
        }
      });
    },
  };
  vi.useFakeTimers({ toFake: ['Date'] });
  setCameraReaderFactory(async (_video, onFrame, wanted) => {
    camera.started++;
    camera.onFrame = onFrame;
    camera.wanted = wanted;
    return { stop: () => void camera.stopped++ };
  });
  return camera;
}

const bannerText = () => screen.getAllByRole('status').find((el) => el.hasAttribute('data-tone'))!;
function countOf(upc: string): HTMLInputElement {
  const row = screen.getByRole('table', { name: '新扫描的商品' }).querySelector(`tr[data-upc="${upc}"]`) as HTMLElement;
  return within(row).getByLabelText(`数量 ${upc}`) as HTMLInputElement;
}

async function openCamera() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: '摄像头扫码' }));
  return { user, panel: await screen.findByRole('region', { name: '摄像头扫码' }) };
}

describe('the camera on /admin/scan', () => {
  it('a product held in view counts once; taken away and shown again, it counts again', async () => {
    const camera = fakeCamera();
    setScanSoundPlayer({ play: () => {} });
    renderApp('/admin/scan', {
      loggedInAs: admin,
      handlers: createReceivingFake({ records: [aScan({ id: 40, upc: 'UPC6', itemId: 6, itemName: '商品6' })] }).handlers,
    });
    const { panel } = await openCamera();
    await within(panel).findByText('将条码对准取景框');

    // The tracking tab: the decoder looks for courier labels; a product's UPC is not a tracking id.
    expect(camera.wanted()).toEqual(FIELD_SYMBOLOGIES.tracking);
    camera.show(['UPC6'], 3, 'upc_a');
    expect(screen.queryByRole('table', { name: '已添加的商品' })).toBeNull();
    camera.show(['1Z001'], 3);
    await within(await screen.findByRole('table', { name: '已添加的商品' })).findByText('UPC6');
    // The products: UPC/EAN (and Code 128 for the command barcodes); the label still in view is not a product.
    await waitFor(() => expect(camera.wanted()).toEqual([...FIELD_SYMBOLOGIES.product, 'code_128']));
    camera.show(['1Z001'], 3);
    expect(bannerText().textContent).not.toMatch(/1Z001 数量/);
    camera.show([], LEAVE_FRAMES);
    camera.show(['UPC5'], 43, 'upc_a'); // held for 8.6 s of frames
    await waitFor(() => expect(countOf('UPC5').value).toBe('1'));
    expect(within(panel).getByText('UPC5')).toBeTruthy();
    expect(within(panel).getByText(/仍在画面中/)).toBeTruthy();
    // The panel is in the page, not a dialog over it: the banner and the rows are there to see.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bannerText().textContent).toBe('UPC5 数量 1');

    camera.show([], LEAVE_FRAMES);
    camera.show(['UPC5'], 5, 'upc_a');
    await waitFor(() => expect(countOf('UPC5').value).toBe('2'));
    expect(bannerText().textContent).toBe('UPC5 数量 2');
  });

  it('says so when the camera cannot be used', async () => {
    setCameraReaderFactory(() => Promise.reject(new Error('NotAllowedError')));
    renderApp('/admin/scan', { loggedInAs: admin, handlers: createReceivingFake().handlers });
    const { panel } = await openCamera();
    expect((await within(panel).findByRole('alert')).textContent).toContain('无法使用摄像头');
  });

  it('says so on a device without camera support', async () => {
    setCameraReaderFactory(
      async () => ({ stop: () => {} }),
      () => false,
    );
    renderApp('/admin/scan', { loggedInAs: admin, handlers: createReceivingFake().handlers });
    const { panel } = await openCamera();
    expect((await within(panel).findByRole('alert')).textContent).toContain('不支持摄像头扫码');
  });
});

describe('the camera on /admin/scan2', () => {
  it('a label held in view is one row, not a duplicate; closing the camera stops it', async () => {
    const camera = fakeCamera();
    setScanSoundPlayer({ play: () => {} });
    localStorage.setItem(scan2StorageKey(admin.id), JSON.stringify({ item: { id: 5, itemName: '商品5', upc: 'UPC5' }, rows: [], nextKey: 1 }));
    renderApp('/admin/scan2', { loggedInAs: admin, handlers: createReceivingFake().handlers });
    const { user } = await openCamera();
    await waitFor(() => expect(camera.onFrame).not.toBeNull());
    // A product is chosen: the next scan is a tracking id, and a UPC/EAN (the soft UPC-A misread as
    // an EAN-8) is no row.
    expect(camera.wanted()).toEqual(FIELD_SYMBOLOGIES.tracking);
    camera.show(['19426471'], 3, 'ean_8');
    camera.show(['1Z004'], 3);
    const table = screen.getByRole('table', { name: '扫描记录' });
    expect(within(table).queryByText('19426471')).toBeNull();
    await within(table).findByText('1Z004');
    camera.show(['1Z004'], 20);
    expect(bannerText().textContent).not.toMatch(/tracking已提交过|等待提交/);
    expect(within(table).getAllByText('1Z004')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: '关闭摄像头' }));
    await waitFor(() => expect(camera.stopped).toBe(1));
    expect(screen.queryByRole('region', { name: '摄像头扫码' })).toBeNull();
  });
});
