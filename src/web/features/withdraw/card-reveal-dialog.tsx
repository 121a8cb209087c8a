// 收款信息 of /admin/withdraw-list (DECISIONS "Money": an admin may reveal the full details of the
// card a line pays to, because a payment cannot be made without them; the server writes each reveal
// to the admin log). The reveal is asked for on the click, not on render, so one click is one log
// entry. The details live only in this hook's state while the dialog is open: closing drops them,
// and an answer that arrives after the dialog closed (or for another line) is thrown away.
import { useCallback, useRef, useState, type JSX } from 'react';
import { cardTypeLabel, paymentTypeLabel } from '../../../../machines/bank-card';
import { errorText } from '../../../api/client';
import type { ApiOutcome } from '../../../api/outcome';
import { useAppContext } from '../../app/app-context';
import { Spinner } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { Modal } from '../../components/ui/dialog';
import { formatMoney } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import { revealWithdrawCard, type WithdrawCardDetails, type WithdrawRequest } from './withdraw-api';

const R = zh.withdraw.admin.reveal;

export interface CardReveal {
  line: WithdrawRequest;
  /** Undefined while the call is under way. */
  outcome?: ApiOutcome<WithdrawCardDetails>;
}

export function useCardReveal(): { reveal: CardReveal | null; open: (line: WithdrawRequest) => void; close: () => void } {
  const { api } = useAppContext();
  const [reveal, setReveal] = useState<CardReveal | null>(null);
  const ticket = useRef(0);

  const open = useCallback(
    (line: WithdrawRequest) => {
      const mine = ++ticket.current;
      setReveal({ line });
      void revealWithdrawCard(api, line.id).then((outcome) => {
        if (ticket.current === mine) setReveal({ line, outcome });
      });
    },
    [api],
  );

  const close = useCallback(() => {
    ticket.current++;
    setReveal(null);
  }, []);

  return { reveal, open, close };
}

const FIELDS = ['paymentType', 'accountName', 'cardNo', 'routingNumber', 'bankInfo', 'cardType', 'address'] as const satisfies ReadonlyArray<
  keyof WithdrawCardDetails & keyof typeof R.field
>;

/** Stored codes shown (and copied) in words. */
const SHOWN_AS: Partial<Record<(typeof FIELDS)[number], (value: string) => string>> = { paymentType: paymentTypeLabel, cardType: cardTypeLabel };

/** Read digit by digit when paying: set in a monospace font. */
const NUMBERS: ReadonlySet<string> = new Set(['cardNo', 'routingNumber']);

export function CardRevealDialog({ reveal, member, onClose }: { reveal: CardReveal | null; member: string; onClose: () => void }): JSX.Element {
  const line = reveal?.line;
  const outcome = reveal?.outcome;
  return (
    <Modal open={reveal !== null} onClose={onClose} title={line ? R.title(line.id) : ''} size="md">
      {line && <p className="mb-3 text-slate-600">{R.line(member, line.orderId, formatMoney(line.withdrawAmount))}</p>}
      {outcome === undefined ? (
        <p role="status" className="flex items-center gap-2 py-6 text-slate-500">
          <Spinner />
          {R.loading}
        </p>
      ) : outcome.ok ? (
        <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {FIELDS.map((field) => {
            const value = SHOWN_AS[field]?.(outcome.data[field]) ?? outcome.data[field];
            return (
              <div key={field} className="grid grid-cols-[6rem_1fr_auto] items-center gap-3 px-3 py-2">
                <dt className="text-slate-500">{R.field[field]}</dt>
                <dd className={`break-words text-slate-900 select-all ${NUMBERS.has(field) ? 'font-mono' : ''}`}>{value || R.empty}</dd>
                <dd>{value ? <CopyButton value={value} label={R.copy(R.field[field])} /> : null}</dd>
              </div>
            );
          })}
        </dl>
      ) : (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          <p className="font-medium">{R.failed}</p>
          <p className="mt-1">{outcome.code === null && !outcome.msg ? zh.common.networkError : errorText(outcome.code, outcome.msg)}</p>
        </div>
      )}
      <p className="mt-3 text-xs text-slate-500">{R.logged}</p>
    </Modal>
  );
}
