// A USB barcode scanner is a keyboard (a "wedge"): it types the code's characters within a few
// milliseconds and usually ends with Enter. This hook gives a page a hidden input that takes those
// keystrokes and reports each code once:
// - Enter ends a code at once; a scanner set up without the Enter suffix is covered by the 100 ms
//   debounce of SPEC §9 (no key for 100 ms ends the code). A debounced buffer shorter than
//   MIN_DEBOUNCED_LENGTH is a stray key press, not a scan, and is dropped.
// - Every 100 ms (SPEC §9 focus check) focus returns to the hidden input, unless the clerk is typing
//   in a real field (text inputs, selects, text areas, comboboxes) or a dialog is open, so clicking a
//   button or the page never leaves the scanner typing into nothing.
// - Between two checks a scan is not lost either: keys typed while the focus is on something that
//   takes no typing (a button just clicked, the page) are taken into the hidden input, which takes
//   the focus at once; so the first characters of a code scanned right after a click are kept, and
//   the scanner's Enter never presses the button that had the focus.
//
//   const scanner = useScannerInput({ onScan: (code) => actor.send({ type: 'scan.code', code }) });
//   <input {...scanner.inputProps} />
import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';

export const SCANNER_DEBOUNCE_MS = 100; // SPEC §9
export const FOCUS_CHECK_INTERVAL_MS = 100; // SPEC §9
export const MIN_DEBOUNCED_LENGTH = 4;

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

/** The clerk is not typing in a field of their own and no dialog is open: the scanner input may have the keys. */
const scannerMayTakeFocus = () => !isTypingTarget(document.activeElement) && !document.querySelector('[role="dialog"]');

export interface ScannerInputOptions {
  onScan: (code: string) => void;
  /** False pauses the focus check (the input still reports what it gets). Default true. */
  enabled?: boolean;
  label: string;
}

export function useScannerInput({ onScan, enabled = true, label }: ScannerInputOptions) {
  const ref = useRef<HTMLInputElement | null>(null);
  const onScanRef = useRef(onScan);
  useEffect(() => {
    onScanRef.current = onScan;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const take = useCallback((minLength: number) => {
    clearTimeout(timer.current);
    const input = ref.current;
    if (!input) return;
    const code = input.value.trim();
    input.value = '';
    if (code.length >= minLength) onScanRef.current(code);
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  const restartDebounce = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => take(MIN_DEBOUNCED_LENGTH), SCANNER_DEBOUNCE_MS);
  }, [take]);

  useEffect(() => {
    if (!enabled) return;
    // Capture phase: before the focused button sees the key (Enter or Space would press it).
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const input = ref.current;
      if (!input || event.target === input || event.defaultPrevented) return;
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (!scannerMayTakeFocus()) return;
      if (event.key === 'Enter') {
        // A code's end; a lone Enter (nothing scanned) is the clerk's own and presses the button.
        if (!input.value) return;
        event.preventDefault();
        take(1);
      } else if (event.key.length === 1) {
        event.preventDefault();
        input.value += event.key;
        restartDebounce();
      } else return;
      input.focus({ preventScroll: true });
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [enabled, take, restartDebounce]);

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
  }, [enabled]);

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
      if (event.key !== 'Enter') return;
      event.preventDefault();
      take(1);
    },
    onInput: restartDebounce,
  };

  return { inputProps, focus };
}
