// confirmDialog() can be awaited from anywhere (handlers, machines' provided actions). Requests queue
// in a small store and <ConfirmDialogHost />, mounted once next to <Toaster />, shows them one at a time.
import { useSyncExternalStore, type JSX } from 'react';
import { Button } from './button';
import { Modal } from './dialog';
import { UI_TEXT } from './ui-text';

export interface ConfirmOptions {
  title?: string;
  okText?: string;
  cancelText?: string;
  /** Paints the OK button red for destructive actions. */
  danger?: boolean;
}

interface ConfirmRequest extends ConfirmOptions {
  message: string;
  resolve: (ok: boolean) => void;
}

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

export function ConfirmDialogHost(): JSX.Element {
  const pending = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  const head = pending[0];
  return (
    <Modal
      open={head !== undefined}
      onClose={() => answer(false)}
      title={head?.title ?? UI_TEXT.confirmTitle}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => answer(false)}>
            {head?.cancelText ?? UI_TEXT.cancel}
          </Button>
          <Button variant={head?.danger ? 'danger' : 'primary'} onClick={() => answer(true)}>
            {head?.okText ?? UI_TEXT.ok}
          </Button>
        </>
      }
    >
      <p className="whitespace-pre-line">{head?.message}</p>
    </Modal>
  );
}
