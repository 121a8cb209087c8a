// Running one payment action at a time from a list (collect, confirm): the row it runs on (its
// buttons show the spinner and block a second click), the outcome's toast (SPEC §8: the server's
// msg or '操作成功' on success, the server's msg or '操作失败' on failure), then the list reloads after
// SPEC §9's 10 ms status-reload delay, whatever came of it (the row may have moved on meanwhile).
import { useCallback, useEffect, useRef, useState } from 'react';
import { toastOutcome } from '../../lib/toast-outcome';
import { zh } from '../../i18n/zh';
import { STATUS_RELOAD_DELAY_MS } from '../../lib/status-reload';
import type { PaymentAction } from './payment-rules';
import type { Outcome } from './payments-api';

const t = zh.payments;

/** Toasts what an action came to; true when it succeeded. */
export function reportOutcome(outcome: Outcome): boolean {
  return toastOutcome(outcome, { done: t.done, failed: t.failed });
}

export type Running = { id: number; action: PaymentAction } | null;

export function usePaymentAction(onChanged: () => void) {
  const [running, setRunning] = useState<Running>(null);
  const onChangedRef = useRef(onChanged);
  useEffect(() => {
    onChangedRef.current = onChanged;
  });

  const reload = useCallback(() => {
    setTimeout(() => onChangedRef.current(), STATUS_RELOAD_DELAY_MS);
  }, []);

  /** Runs `call` for row `id`; `call` answers null when it was called off (a declined confirmation). */
  const run = useCallback(
    async (id: number, action: PaymentAction, call: () => Promise<Outcome | null>) => {
      setRunning({ id, action });
      try {
        const outcome = await call();
        if (outcome === null) return;
        reportOutcome(outcome);
        reload();
      } finally {
        setRunning(null);
      }
    },
    [reload],
  );

  return { running, run, reload };
}
