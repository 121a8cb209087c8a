// confirmDialog() can be awaited from anywhere (handlers, machines' provided actions). Requests queue
// in a small store and <ConfirmDialogHost />, mounted once next to <Toaster />, shows them one at a time.
// The dialog itself (confirm-dialog.tsx, with Headless UI) loads when the first request comes, or
// earlier by preloadConfirmDialog() (the logged-in layout does): the login page never loads it.
import { useSyncExternalStore, type JSX } from 'react';
import type { ConfirmOptions, ConfirmRequest } from './confirm-request';
import { onDemand, useOnDemand } from './on-demand';

let queue: readonly ConfirmRequest[] = [];
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function confirmDialog(message: string, options: ConfirmOptions = {}): Promise<boolean> {
  // Without a mounted host nobody could ever answer; fall back to the browser's own dialog
  // (absent in some test DOMs, where nothing is confirmed).
  if (listeners.size === 0) {
    return Promise.resolve(typeof window.confirm === 'function' ? window.confirm(message) : false);
  }
  return new Promise<boolean>((resolve) => {
    queue = [...queue, { ...options, message, resolve }];
    emit();
  });
}

function answer(ok: boolean) {
  const [head, ...rest] = queue;
  if (!head) return;
  queue = rest;
  emit();
  head.resolve(ok);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSnapshot = () => queue;

const dialog = onDemand(() => import('./confirm-dialog'));

/** Loads the dialog's code ahead of the first request, so it opens at once. */
export function preloadConfirmDialog(): void {
  void dialog.load();
}

export function ConfirmDialogHost(): JSX.Element | null {
  const pending = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  const head = pending[0];
  const loaded = useOnDemand(dialog, head !== undefined);
  return loaded && <loaded.ConfirmDialog request={head} onAnswer={answer} />;
}
