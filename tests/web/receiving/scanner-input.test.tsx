// @vitest-environment happy-dom
// The shared scanner piece: the hidden USB-scanner input (lib/use-scanner-input.ts). The camera has
// its own file (camera-scanner.test.tsx).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type JSX } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ENTER_FALLBACK_MS,
  ENTER_SUFFIX_STORAGE_KEY,
  SCANNER_DEBOUNCE_MS,
  isGroupSeparatorKey,
  isTypingTarget,
  useScannerInput,
} from '../../../src/web/lib/use-scanner-input';
import { canonicalTrackingId, GS1_SEPARATOR } from '../../../machines/tracking-id';
import { setScanSoundPlayer } from '../../../src/web/lib/scan-sounds';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  setScanSoundPlayer(null);
  localStorage.clear();
});

function ScannerHost({ onScan }: { onScan: (code: string) => void }): JSX.Element {
  const scanner = useScannerInput({ onScan, label: '扫码枪输入' });
  const [open, setOpen] = useState(false);
  return (
    <div>
      <input {...scanner.inputProps} />
      <label>
        备注
        <input type="text" />
      </label>
      <button type="button" onClick={() => setOpen(true)}>
        按钮
      </button>
      <button type="button">保存</button>
      {open && (
        <div role="dialog">
          <button type="button">对话框按钮</button>
        </div>
      )}
    </div>
  );
}

const hidden = () => screen.getByLabelText('扫码枪输入') as HTMLInputElement;

/** Characters as a wedge scanner types them: input events a few ms apart. */
function typeFast(code: string) {
  for (const ch of code) {
    hidden().value += ch;
    fireEvent.input(hidden());
  }
}

/**
 * The page's clock (performance.now, which the hook's timers read) under the test's hand: `tick`
 * moves it with the timers (a page that keeps up), `stall` moves it alone (a main thread busy for
 * that long: the timers due meanwhile run late, once the test advances them).
 */
function withClock(start: number) {
  let now = start;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  return {
    get now() {
      return now;
    },
    tick(ms: number) {
      for (let step = 0; step < ms; step += 5) {
        now += Math.min(5, ms - step);
        vi.advanceTimersByTime(Math.min(5, ms - step));
      }
    },
    stall(ms: number) {
      now += ms;
    },
  };
}

/** A wedge scanner's keys into the hidden input (time stamps 10 ms apart from `from`). */
function wedge(code: string, from: number) {
  [...code].forEach((ch, i) => {
    const event = new KeyboardEvent('keydown', { key: ch, bubbles: true, cancelable: true });
    Object.defineProperty(event, 'timeStamp', { value: from + i * 10 });
    hidden().dispatchEvent(event);
    hidden().value += ch;
    fireEvent.input(hidden());
  });
}

describe('useScannerInput', () => {
  it('takes focus, and Enter ends a code: reported once, trimmed, the input cleared', async () => {
    const onScan = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    await waitFor(() => expect(document.activeElement).toBe(hidden()));
    await userEvent.setup({ delay: 2 }).keyboard(' 1Z999 {Enter}');
    expect(onScan).toHaveBeenCalledExactlyOnceWith('1Z999');
    expect(hidden().value).toBe('');
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan).toHaveBeenCalledTimes(1);
  });

  it(`without Enter a code ends after ${SCANNER_DEBOUNCE_MS} ms of silence; a stray key press is dropped`, () => {
    vi.useFakeTimers();
    const onScan = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    typeFast('0123456789012');
    vi.advanceTimersByTime(SCANNER_DEBOUNCE_MS - 1);
    expect(onScan).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onScan).toHaveBeenCalledExactlyOnceWith('0123456789012');
    typeFast('ab');
    vi.advanceTimersByTime(SCANNER_DEBOUNCE_MS);
    expect(onScan).toHaveBeenCalledTimes(1);
    expect(hidden().value).toBe('');
  });

  it('a debounce timer that runs late, after a stall of the page, lets the keys queued behind it in: the code is not cut', () => {
    vi.useFakeTimers();
    const clock = withClock(1000);
    const onScan = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    // The scanner types '1ZE2E', then the page's main thread is busy for 300 ms; the debounce timer
    // (due 100 ms after the last key) runs when it ends, before the rest of the code reaches the page.
    wedge('1ZE2E', clock.now);
    clock.stall(300);
    vi.advanceTimersByTime(SCANNER_DEBOUNCE_MS);
    expect(onScan).not.toHaveBeenCalled();
    wedge('00000940013', clock.now - 290);
    clock.tick(SCANNER_DEBOUNCE_MS);
    expect(onScan).toHaveBeenCalledExactlyOnceWith('1ZE2E00000940013');
    // A real pause (timers on time) still ends a code.
    wedge('1ZA01', clock.now);
    clock.tick(SCANNER_DEBOUNCE_MS);
    wedge('1ZA02', clock.now);
    clock.tick(SCANNER_DEBOUNCE_MS);
    expect(onScan.mock.calls.slice(1)).toEqual([['1ZA01'], ['1ZA02']]);
  });

  it("a code whose first key the browser hands over alone, the rest 150 ms later, keeps its head: the keys' own times join them", () => {
    vi.useFakeTimers();
    const clock = withClock(1000);
    const onScan = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    // A fresh station (no Enter remembered): the silence ends the lone first key, too short for a code.
    wedge('9', clock.now);
    clock.tick(150);
    expect(hidden().value).toBe('');
    // The rest was typed 10 ms after it and reaches the page now.
    wedge('400E2E0000000000002', 1010);
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan).toHaveBeenCalledExactlyOnceWith('9400E2E0000000000002');
  });

  it('a stray key the silence dropped stays out of a code typed half a second later', () => {
    vi.useFakeTimers();
    const clock = withClock(1000);
    const onScan = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    wedge('7', clock.now);
    clock.tick(150);
    wedge('1Z999AA1', clock.now + 350);
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan).toHaveBeenCalledExactlyOnceWith('1Z999AA1');
  });

  it('once the scanner has ended a code with Enter, the station waits for Enter: a slow code is not cut, and a new page remembers it', () => {
    vi.useFakeTimers();
    const clock = withClock(1000);
    const onScan = vi.fn();
    const first = render(<ScannerHost onScan={onScan} />);
    wedge('1ZE2E00000940001', clock.now);
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan).toHaveBeenCalledExactlyOnceWith('1ZE2E00000940001');
    expect(localStorage.getItem(ENTER_SUFFIX_STORAGE_KEY)).toBe('1');
    first.unmount();

    render(<ScannerHost onScan={onScan} />);
    // A busy machine: 300 ms between two keys of one code, the timers on time.
    wedge('1ZE2E', clock.now);
    clock.tick(300);
    wedge('00000940002', clock.now);
    clock.tick(300);
    expect(onScan).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan).toHaveBeenLastCalledWith('1ZE2E00000940002');
    // A stray key is dropped after a while; it does not stick to the next code.
    wedge('x', clock.now);
    clock.tick(ENTER_FALLBACK_MS);
    wedge('1ZE2E00000940003', clock.now);
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan.mock.calls.map(([code]) => code)).toEqual(['1ZE2E00000940001', '1ZE2E00000940002', '1ZE2E00000940003']);
  });

  it('with Enter remembered, a code that never gets one is still taken (another scanner), and the station forgets the suffix', () => {
    vi.useFakeTimers();
    const clock = withClock(1000);
    localStorage.setItem(ENTER_SUFFIX_STORAGE_KEY, '1');
    const onScan = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    wedge('0123456789012', clock.now);
    clock.tick(SCANNER_DEBOUNCE_MS);
    expect(onScan).not.toHaveBeenCalled();
    clock.tick(ENTER_FALLBACK_MS);
    expect(onScan).toHaveBeenCalledExactlyOnceWith('0123456789012');
    expect(localStorage.getItem(ENTER_SUFFIX_STORAGE_KEY)).toBeNull();
    wedge('0123456789013', clock.now);
    clock.tick(SCANNER_DEBOUNCE_MS);
    expect(onScan).toHaveBeenLastCalledWith('0123456789013');
  });

  it('focus comes back from a clicked button but not from a text field or an open dialog', async () => {
    render(<ScannerHost onScan={() => {}} />);
    const user = userEvent.setup();
    const note = screen.getByLabelText('备注');
    await user.click(note);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(document.activeElement).toBe(note);

    await user.click(screen.getByRole('button', { name: '按钮' }));
    const inDialog = within(screen.getByRole('dialog')).getByRole('button');
    act(() => inDialog.focus());
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(document.activeElement).toBe(inDialog);
  });

  it('keeps a code scanned right after a click, before the focus check: its first keys are not lost and its Enter presses nothing', async () => {
    const onScan = vi.fn();
    const pressed = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    const button = screen.getByRole('button', { name: '保存' });
    button.addEventListener('click', pressed);
    const user = userEvent.setup({ delay: 2 });
    // The wedge types into whatever has the focus: its first key lands on the button just clicked.
    await user.click(button);
    expect(pressed).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(button);
    await user.keyboard('1Z7 9{Enter}');
    expect(onScan).toHaveBeenCalledExactlyOnceWith('1Z7 9');
    expect(pressed).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(hidden());
    // Keys typed in a real field stay there.
    const note = screen.getByLabelText('备注') as HTMLInputElement;
    await user.click(note);
    await user.keyboard('ab');
    expect(note.value).toBe('ab');
    expect(hidden().value).toBe('');
  });

  it("takes GS1's FNC1 as a wedge types it (Ctrl+], or the GS key itself) into the code, where the browser would drop it; not from a real field", async () => {
    const onScan = vi.fn();
    render(<ScannerHost onScan={onScan} />);
    await waitFor(() => expect(document.activeElement).toBe(hidden()));
    const gsChord = () => fireEvent.keyDown(hidden(), { key: ']', code: 'BracketRight', ctrlKey: true });
    // A GS1-128 label: AI 421 (country + ZIP, variable length), FNC1, then the tracking id.
    typeFast(']C142184090210');
    gsChord();
    typeFast('9505511069605048600624');
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan).toHaveBeenLastCalledWith(`]C142184090210${GS1_SEPARATOR}9505511069605048600624`);
    expect(canonicalTrackingId(onScan.mock.lastCall![0] as string)).toBe('9505511069605048600624');
    // A wedge set to send the control character as a key of its own.
    typeFast('42090210');
    fireEvent.keyDown(hidden(), { key: GS1_SEPARATOR });
    typeFast('9400111899223408000000');
    fireEvent.keyDown(hidden(), { key: 'Enter' });
    expect(onScan).toHaveBeenLastCalledWith(`42090210${GS1_SEPARATOR}9400111899223408000000`);
    // Ctrl+] in the clerk's own field is the clerk's: the scanner takes nothing.
    const note = screen.getByLabelText('备注');
    const user = userEvent.setup();
    await user.click(note);
    fireEvent.keyDown(note, { key: ']', code: 'BracketRight', ctrlKey: true });
    expect(hidden().value).toBe('');
    expect(isGroupSeparatorKey({ key: ']', code: 'BracketRight', ctrlKey: true, altKey: true, metaKey: false })).toBe(false);
  });

  it('knows which elements take typing', () => {
    const el = (html: string) => {
      const host = document.createElement('div');
      host.innerHTML = html;
      document.body.append(host);
      return host.firstElementChild;
    };
    expect(isTypingTarget(el('<input type="text">'))).toBe(true);
    expect(isTypingTarget(el('<input type="number">'))).toBe(true);
    expect(isTypingTarget(el('<textarea></textarea>'))).toBe(true);
    expect(isTypingTarget(el('<select></select>'))).toBe(true);
    expect(isTypingTarget(el('<input role="combobox">'))).toBe(true);
    expect(isTypingTarget(el('<input type="checkbox">'))).toBe(false);
    expect(isTypingTarget(el('<input type="text" readonly>'))).toBe(false);
    expect(isTypingTarget(el('<button>x</button>'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
