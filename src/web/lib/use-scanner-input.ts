// A USB barcode scanner is a keyboard (a "wedge"): it types a code's characters within a few
// milliseconds and usually ends with Enter. This hook gives a page a hidden input that reports each
// code once, never cut in two (docs/decisions/080, 084):
// - once a scanner has ended a code with Enter, only Enter ends a code (a busy page cannot cut it);
// - a scanner without the suffix is served by SPEC §9's 100 ms debounce, and a timer that fired late
//   after a stall waits once more; short debounced buffers are stray key presses;
// - a few characters the silence ended are given back when the scanner's next key was typed within
//   the debounce of them, by the keys' own timestamps (when they were typed, not when the page got
//   them): a browser that hands a wedge's keys over late, in two bursts, does not cut a code's head;
// - focus returns to the hidden input every 100 ms (SPEC §9) unless the clerk types in a real field
//   or a dialog is open, and keys typed meanwhile on a button or the page are kept;
// - GS1's FNC1 reaches a keyboard as the control character GS, which a wedge types as Ctrl+] (or as
//   a key of its own) and the browser never inserts into a field: it is put in the code here, so the
//   tracking id's key can split the label's fields at it (decision 076, machines/tracking-id.ts).
//   const scanner = useScannerInput({ onScan: (code) => actor.send({ type: 'scan.code', code }) });
//   <input {...scanner.inputProps} />
import { useCallback, useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { GS1_SEPARATOR } from '../../../machines/tracking-id';

export const SCANNER_DEBOUNCE_MS = 100; // SPEC §9
export const FOCUS_CHECK_INTERVAL_MS = 100; // SPEC §9
export const MIN_DEBOUNCED_LENGTH = 4;
/** With the Enter suffix remembered, a buffer this long without Enter is a code of a scanner without it. */
export const ENTER_FALLBACK_MS = 1000;
/** A timer firing this much after its time was held up by a busy main thread. */
export const LATE_TIMER_MS = 30;
/** Where the station remembers that its scanner ends codes with Enter. */
export const ENTER_SUFFIX_STORAGE_KEY = 'ph.scanner.enterSuffix';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Whether this station's scanner has ended a code with Enter. */
export function rememberedEnterSuffix(): boolean {
  try {
    return storage()?.getItem(ENTER_SUFFIX_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberEnterSuffix(on: boolean): void {
  try {
    if (on) storage()?.setItem(ENTER_SUFFIX_STORAGE_KEY, '1');
    else storage()?.removeItem(ENTER_SUFFIX_STORAGE_KEY);
  } catch {
    // Without storage the station learns it again on the next page.
  }
}

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'number', 'email', 'password', 'tel', 'url', 'date', 'datetime-local', 'month', 'time', 'week']);

/** True when the element takes typing of its own (the scanner must not steal its focus). */
export function isTypingTarget(element: Element | null): boolean {
  if (!element || !(element instanceof HTMLElement)) return false;
  if (element.isContentEditable) return true;
  if (element.getAttribute('role') === 'combobox') return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return !element.disabled;
  if (element instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(element.type) && !element.disabled && !element.readOnly;
  return false;
}

/** GS as a keyboard wedge sends it: Ctrl+] (its ASCII control chord), or the character itself. */
export function isGroupSeparatorKey(event: Pick<globalThis.KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'altKey' | 'metaKey'>): boolean {
  if (event.key === GS1_SEPARATOR) return true;
  return event.ctrlKey && !event.altKey && !event.metaKey && (event.code === 'BracketRight' || event.key === ']');
}

/** The clerk is not typing in a field of their own and no dialog is open: the scanner input may have the keys. */
const scannerMayTakeFocus = () => !isTypingTarget(document.activeElement) && !document.querySelector('[role="dialog"]');

/** A timer held up this many times in a row is taken anyway (a page in the background runs timers late forever). */
const MAX_LATE_REARMS = 20;

export interface ScannerInputOptions {
  onScan: (code: string) => void;
  /** False pauses the focus check (the input still reports what it gets). Default true. */
  enabled?: boolean;
  label: string;
}

/** Keys typed on a button or the page while the scanner may have them go into its input (GS included); Enter ends the code. */
function useKeysTypedElsewhere(
  ref: RefObject<HTMLInputElement | null>,
  enabled: boolean,
  takeAtEnter: () => void,
  restartDebounce: () => void,
  keyTyped: (at: number) => void,
): void {
  useEffect(() => {
    if (!enabled) return;
    // Capture phase: before the focused button sees the key (Enter or Space would press it).
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const input = ref.current;
      if (!input || event.defaultPrevented) return;
      if (isGroupSeparatorKey(event) && (event.target === input || scannerMayTakeFocus())) {
        event.preventDefault();
        input.value += GS1_SEPARATOR;
        restartDebounce();
        input.focus({ preventScroll: true });
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      // The input types its own characters (and its onKeyDown takes Enter).
      if (event.target === input) return;
      if (!scannerMayTakeFocus()) return;
      if (event.key === 'Enter') {
        // A code's end; a lone Enter (nothing scanned) is the clerk's own and presses the button.
        if (!input.value) return;
        event.preventDefault();
        takeAtEnter();
      } else if (event.key.length === 1) {
        event.preventDefault();
        keyTyped(event.timeStamp);
        input.value += event.key;
        restartDebounce();
      } else return;
      input.focus({ preventScroll: true });
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [ref, enabled, takeAtEnter, restartDebounce, keyTyped]);
}

/** Focus returns to the scanner input every FOCUS_CHECK_INTERVAL_MS unless the clerk types in a field or a dialog is open. */
function useFocusReturn(ref: RefObject<HTMLInputElement | null>, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      const input = ref.current;
      if (!input || document.activeElement === input || !scannerMayTakeFocus()) return;
      input.focus({ preventScroll: true });
    };
    check();
    const id = setInterval(check, FOCUS_CHECK_INTERVAL_MS);
    return () => clearInterval(id);
  }, [ref, enabled]);
}

/**
 * The keys' own times: `keyTyped(at)` for a key typed at `at` (its event's timeStamp), before it goes
 * into the buffer; `drop(text)` for a buffer too short to be a code that the silence ended. An empty
 * buffer takes the dropped keys back when the next key followed them within the debounce (a stall
 * between the keys' delivery, not their typing); a later key starts afresh (they were stray).
 */
function useDroppedKeys(ref: RefObject<HTMLInputElement | null>) {
  const lastKeyAt = useRef(Number.NEGATIVE_INFINITY);
  const dropped = useRef<{ text: string; at: number } | null>(null);
  const keyTyped = useCallback(
    (at: number) => {
      const input = ref.current;
      const held = dropped.current;
      dropped.current = null;
      if (input && held && !input.value && at - held.at <= SCANNER_DEBOUNCE_MS) input.value = held.text;
      lastKeyAt.current = at;
    },
    [ref],
  );
  const drop = useCallback((text: string) => {
    dropped.current = { text, at: lastKeyAt.current };
  }, []);
  return { keyTyped, drop };
}

export function useScannerInput({ onScan, enabled = true, label }: ScannerInputOptions) {
  const ref = useRef<HTMLInputElement | null>(null);
  const onScanRef = useRef(onScan);
  useEffect(() => {
    onScanRef.current = onScan;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { keyTyped, drop } = useDroppedKeys(ref);
  /** This station's scanner ends its codes with Enter: only Enter ends a code. */
  const enterSuffix = useRef<boolean | null>(null);
  const waitsForEnter = () => (enterSuffix.current ??= rememberedEnterSuffix());

  const take = useCallback(
    (minLength: number) => {
      clearTimeout(timer.current);
      const input = ref.current;
      if (!input) return;
      const code = input.value.trim();
      input.value = '';
      if (code.length >= minLength) onScanRef.current(code);
      else if (code) drop(code);
    },
    [drop],
  );

  /** A code ended by Enter; a real one (not a stray key) teaches the station that its scanner sends Enter. */
  const takeAtEnter = useCallback(() => {
    if ((ref.current?.value.trim().length ?? 0) >= MIN_DEBOUNCED_LENGTH && !waitsForEnter()) {
      enterSuffix.current = true;
      rememberEnterSuffix(true);
    }
    take(1);
  }, [take]);

  /** A code that ended without Enter (silence): with the suffix remembered, the scanner has none after all. */
  const takeWithoutEnter = useCallback(() => {
    if ((ref.current?.value.trim().length ?? 0) >= MIN_DEBOUNCED_LENGTH && waitsForEnter()) {
      enterSuffix.current = false;
      rememberEnterSuffix(false);
    }
    take(MIN_DEBOUNCED_LENGTH);
  }, [take]);

  useEffect(() => () => clearTimeout(timer.current), []);

  /** (Re)starts the silence that ends a code; a timer that fires late waits again for the keys queued behind it. */
  const restartDebounce = useCallback(() => {
    clearTimeout(timer.current);
    const arm = (rearms: number) => {
      const wait = waitsForEnter() ? ENTER_FALLBACK_MS : SCANNER_DEBOUNCE_MS;
      const due = performance.now() + wait;
      timer.current = setTimeout(() => {
        if (performance.now() - due > LATE_TIMER_MS && rearms < MAX_LATE_REARMS) arm(rearms + 1);
        else takeWithoutEnter();
      }, wait);
    };
    arm(0);
  }, [takeWithoutEnter]);

  useKeysTypedElsewhere(ref, enabled, takeAtEnter, restartDebounce, keyTyped);
  useFocusReturn(ref, enabled);

  const focus = useCallback(() => {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== ref.current) active.blur();
    ref.current?.focus({ preventScroll: true });
  }, []);

  const inputProps = {
    ref,
    type: 'text',
    'aria-label': label,
    autoComplete: 'off',
    autoCorrect: 'off',
    spellCheck: false,
    inputMode: 'none' as const,
    // Off-screen but focusable (display:none could not take keys).
    className: 'fixed top-0 -left-[9999px] h-px w-px opacity-0',
    'data-scanner-input': '',
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) keyTyped(event.timeStamp);
      if (event.key !== 'Enter') return;
      event.preventDefault();
      takeAtEnter();
    },
    onInput: restartDebounce,
  };

  return { inputProps, focus };
}
