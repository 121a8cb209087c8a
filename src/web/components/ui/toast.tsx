// A tiny toast store that lives outside React, so the API client middleware can raise toasts
// (SPEC §8) without a hook; <Toaster /> renders it once near the root.
// The toasts are portalled to document.body, beside the app root rather than inside it: while a
// Headless UI dialog is open, the app root is inert and aria-hidden, so a toast inside it would not
// be announced and a click on it would count as a click outside the dialog and close it. Headless UI
// leaves other children of body alone and counts them as part of the dialog's layer.
// A toast for the page a full page load opens next (toast.onNextPage: signup's success, then the
// login page, which is a page of its own) waits in session storage until that page's Toaster mounts.
import { useEffect, useSyncExternalStore, type JSX } from 'react';
import { createPortal } from 'react-dom';
import { UI_TEXT } from './ui-text';

export type ToastTone = 'success' | 'error' | 'info';
export interface ToastItem {
  id: number;
  tone: ToastTone;
  message: string;
}

export const TOAST_DURATION_MS = 3000;
const MAX_VISIBLE = 5;

let items: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function push(tone: ToastTone, message: string) {
  const id = nextId++;
  items = [...items, { id, tone, message }].slice(-MAX_VISIBLE);
  emit();
  setTimeout(() => dismissToast(id), TOAST_DURATION_MS);
}

export function dismissToast(id: number): void {
  if (!items.some((t) => t.id === id)) return;
  items = items.filter((t) => t.id !== id);
  emit();
}

export function clearToasts(): void {
  items = [];
  emit();
}

const NEXT_PAGE_KEY = 'toast.nextPage';

export const toast = {
  success(msg: string): void {
    push('success', msg);
  },
  error(msg: string): void {
    push('error', msg);
  },
  info(msg: string): void {
    push('info', msg);
  },
  /** Shown by the next page's Toaster: call it right before a full page load. */
  onNextPage(tone: ToastTone, msg: string): void {
    try {
      sessionStorage.setItem(NEXT_PAGE_KEY, JSON.stringify({ tone, message: msg }));
    } catch {
      // storage blocked: the toast is lost with the page, as it would have been anyway
    }
  },
};

/** The toast the previous page left for this one (toast.onNextPage), shown once. */
function showCarriedToast(): void {
  try {
    const carried = sessionStorage.getItem(NEXT_PAGE_KEY);
    if (carried === null) return;
    sessionStorage.removeItem(NEXT_PAGE_KEY);
    const { tone, message } = JSON.parse(carried) as { tone: ToastTone; message: string };
    if (tone in TONE_CLASS && typeof message === 'string') push(tone, message);
  } catch {
    // storage blocked or a value of some other writer: nothing to show
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSnapshot = () => items;

const TONE_CLASS: Record<ToastTone, string> = {
  success: 'border-green-200 bg-green-50 text-green-800',
  error: 'border-red-200 bg-red-50 text-red-800',
  info: 'border-slate-200 bg-white text-slate-800',
};

export function Toaster(): JSX.Element {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  useEffect(showCarriedToast, []);
  return createPortal(
    <section aria-label={UI_TEXT.notifications} className="pointer-events-none fixed top-4 right-4 z-[100] flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2">
      {toasts.map((t) => (
        <div
          key={t.id}
          role={t.tone === 'error' ? 'alert' : 'status'}
          data-tone={t.tone}
          className={`pointer-events-auto flex items-start gap-3 rounded-md border px-4 py-3 text-sm shadow-md ${TONE_CLASS[t.tone]}`}
        >
          <p className="flex-1 break-words">{t.message}</p>
          <button
            type="button"
            aria-label={UI_TEXT.close}
            onClick={() => dismissToast(t.id)}
            className="-mr-1 rounded px-1 leading-none focus-visible:outline-2 focus-visible:outline-current"
          >
            ×
          </button>
        </div>
      ))}
    </section>,
    document.body,
  );
}
