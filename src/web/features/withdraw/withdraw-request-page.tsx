// /user/withdraw-request (SPEC §2, §3 withdraw request, §4 "Withdraw status", §7 Withdraw): the
// member's withdraw lines, the balance, the request dialog (withdraw-request-dialog.tsx), a link to
// the orders, the filters and the table (20/50/100/500/1000 a page, SPEC §9; a card a line on a phone).
// Each row offers what machines/withdraw.machine.ts accepts for it (withdraw-rules.ts): 更换银行卡,
// 申请取消 (the whole order), 确认到账 (the member's word for marking the line paid: the money arrived), 确认收款 (withdraw-request-receipt-dialog.tsx); each after
// a confirmation where it changes money. Toasts say the server's msg (SPEC §8), '操作成功' /
// '操作失败' when it gave none; the list and the balance reload after every change.
// Filters, sort, page and size live in the URL (`search`, `onSearch`); the route's loader fetches them.
import { Link, useRouter } from '@tanstack/react-router';
import { useCallback, useMemo, useState, type JSX } from 'react';
import * as v from 'valibot';
import { WITHDRAW_STATUSES, type WithdrawStatus } from '../../../../machines/withdraw.machine';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatMoney } from '../../components/ui/format';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import type { TableFailure } from '../../components/ui/data-table';
import { toastOutcome } from '../../lib/toast-outcome';
import { zh } from '../../i18n/zh';
import { idText, toId } from '../../lib/filter-fields';
import { useAppContext } from '../../app/app-context';
import { ChangeCardDialog } from './change-card-dialog';
import { SwitchField } from './switch-field';
import { cancelWithdrawOrder, markWithdrawPaid, type BankCard, type Outcome, type WithdrawRequest, type WithdrawRequestPage as LinePage } from './withdraw-api';
import { withdrawCol, withdrawColumn } from './withdraw-columns';
import { WithdrawRequestDialog } from './withdraw-request-dialog';
import { ReceiptDialog } from './withdraw-request-receipt-dialog';
import { cardLabel, mayConfirmReceipt, WITHDRAW_STATUS_OPTIONS, withdrawActions, type WithdrawAction } from './withdraw-rules';
import { WITHDRAW_SIZE_OPTIONS, type WithdrawRequestSearch } from './withdraw-search';
import { filterForm } from '../../lib/list-search';
import { useRowDialog } from '../../lib/use-row-dialog';

const W = zh.withdraw;
const R = W.request;
const F = W.filter;

export interface WithdrawRequestData {
  lines: LinePage;
  /** null when it could not be read. */
  balance: number | null;
  cards: BankCard[];
  /** How many of the member's applications wait for their receipt to be confirmed (0: no 确认收款 is offered). */
  awaitingReceipt: number;
}

export interface WithdrawRequestPageProps {
  search: WithdrawRequestSearch;
  data: WithdrawRequestData;
  loading?: boolean;
  /** The lines could not be loaded: said in the table's place. */
  failure?: TableFailure | null;
  onSearch: (next: WithdrawRequestSearch) => void;
}

type Running = { id: number; action: WithdrawAction } | null;

/** Toasts what a change came to (SPEC §8: the server's msg, else '操作成功' / '操作失败'). */
function report(outcome: Outcome): void {
  toastOutcome(outcome, { done: W.done, failed: W.failed });
}

export function WithdrawRequestPage({ search, data, loading = false, failure = null, onSearch }: WithdrawRequestPageProps): JSX.Element {
  const router = useRouter();
  const [requesting, setRequesting] = useState(false);
  const changingDialog = useRowDialog<WithdrawRequest>();
  const { row: changing, open: setChanging } = changingDialog;
  const receivingDialog = useRowDialog<WithdrawRequest>();
  const { row: receiving, open: setReceiving } = receivingDialog;
  const offerReceipt = data.awaitingReceipt > 0;
  const { running, perform } = useLineAction(setChanging);
  const columns = useMemo(
    () => memberWithdrawColumns({ offerReceipt, running, perform, onReceive: setReceiving }),
    [offerReceipt, running, perform, setReceiving],
  );

  const filters = filterForm(search, onSearch);
  const filterKey = filters.key;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.userWithdrawRequest}
        actions={
          <>
            <Link to="/user/withdraw-orders" className={secondaryLinkClass}>
              {R.ordersLink}
            </Link>
            <Button onClick={() => setRequesting(true)}>{R.button}</Button>
          </>
        }
      />
      <h2 className="text-lg font-semibold text-slate-800 tabular-nums">{data.balance === null ? R.balanceUnknown : R.balance(formatMoney(data.balance))}</h2>
      <RequestFilters key={filterKey} search={search} cards={data.cards} onApply={filters.onApply} onReset={filters.onReset} />
      <PagedTable
        columns={columns}
        search={search}
        result={data.lines}
        onSearch={onSearch}
        sizeOptions={WITHDRAW_SIZE_OPTIONS}
        loading={loading}
        failure={failure}
        cards
        emptyText={R.empty}
        caption={R.caption}
      />
      {requesting && (
        <WithdrawRequestDialog
          cards={data.cards}
          onClose={() => setRequesting(false)}
          onRequested={() => {
            setRequesting(false);
            void router.invalidate();
          }}
        />
      )}
      {receiving && <ReceiptDialog key={receiving.id} line={receiving} onClose={receivingDialog.close} onDone={receivingDialog.done} />}
      {changing && <ChangeCardDialog key={changing.id} line={changing} cards={data.cards} onClose={changingDialog.close} onDone={changingDialog.done} />}
    </div>
  );
}

/** A row's action: 更换银行卡 opens its dialog (`onChangeCard`); the others after a confirmation, `running` the one under way. */
function useLineAction(onChangeCard: (row: WithdrawRequest) => void) {
  const router = useRouter();
  const { api } = useAppContext();
  const [running, setRunning] = useState<Running>(null);
  const perform = useCallback(
    async (row: WithdrawRequest, action: WithdrawAction) => {
      if (action === 'changeCard') {
        onChangeCard(row);
        return;
      }
      const question = action === 'requestCancel' ? R.cancelConfirm(row.orderId) : R.markPaidConfirm(row.id, formatMoney(row.withdrawAmount));
      if (!(await confirmDialog(question))) return;
      setRunning({ id: row.id, action });
      try {
        report(action === 'requestCancel' ? await cancelWithdrawOrder(api, row.orderId) : await markWithdrawPaid(api, row.id));
      } finally {
        setRunning(null);
        void router.invalidate();
      }
    },
    [api, router, onChangeCard],
  );
  return { running, perform };
}

const ACTION_LABEL: Record<WithdrawAction, string> = {
  changeCard: R.changeCard,
  requestCancel: R.requestCancel,
  pay: R.markPaid,
  agreeCancel: '',
  rejectCancel: '',
};

function actionName(row: WithdrawRequest, action: WithdrawAction): string {
  return action === 'changeCard' ? R.changeCardNamed(row.id) : action === 'requestCancel' ? R.requestCancelNamed(row.id, row.orderId) : R.markPaidNamed(row.id);
}

/** The member's columns: the line's fields, then 确认收款 (when a receipt waits) and the actions the machine offers. */
function memberWithdrawColumns({
  offerReceipt,
  running,
  perform,
  onReceive,
}: {
  offerReceipt: boolean;
  running: Running;
  perform: (row: WithdrawRequest, action: WithdrawAction) => Promise<void>;
  onReceive: (row: WithdrawRequest) => void;
}) {
  return withdrawCol.columns([
    withdrawColumn.id,
    withdrawColumn.orderId,
    withdrawColumn.paymentType,
    withdrawColumn.accountNameEncrypt,
    withdrawColumn.cardNoEncrypt,
    withdrawColumn.address,
    withdrawColumn.withdrawAmount,
    withdrawColumn.userNote,
    withdrawColumn.status,
    withdrawCol.display({
      id: 'actions',
      header: W.col.actions,
      meta: { card: 'actions' },
      cell: ({ row }) => (
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {offerReceipt && mayConfirmReceipt(row.original) && (
            <Button variant="link" aria-label={R.collectNamed(row.original.id, row.original.orderId)} onClick={() => onReceive(row.original)}>
              {R.collect}
            </Button>
          )}
          {withdrawActions(row.original, 'member').map((action) => (
            <Button
              key={action}
              variant="link"
              aria-label={actionName(row.original, action)}
              loading={running?.id === row.original.id && running.action === action}
              disabled={running !== null}
              onClick={() => void perform(row.original, action)}
            >
              {ACTION_LABEL[action]}
            </Button>
          ))}
        </div>
      ),
    }),
  ]);
}

// ---------------------------------------------------------------- filters

const filterSchema = v.object({
  isDesc: v.boolean(),
  status: v.union([v.literal(''), v.picklist(WITHDRAW_STATUSES)]),
  cardId: v.union([v.literal(''), v.number()]),
  orderId: idText(F.idInvalid),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<WithdrawRequestSearch, 'page' | 'size'>;

function RequestFilters({
  search,
  cards,
  onApply,
  onReset,
}: {
  search: WithdrawRequestSearch;
  cards: readonly BankCard[];
  onApply: (filters: Filters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      isDesc: search.isDesc,
      status: search.status ?? '',
      cardId: search.cardId ?? '',
      orderId: search.orderId === undefined ? '' : String(search.orderId),
    },
  });

  function apply(values: FilterValues) {
    onApply({
      isDesc: values.isDesc,
      status: values.status === '' ? undefined : values.status,
      cardId: values.cardId === '' ? undefined : values.cardId,
      orderId: toId(values.orderId),
    });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-5">
      <SwitchField<FilterInput, 'isDesc'> name="isDesc" label={F.isDesc} />
      <SelectField<FilterInput, 'status', WithdrawStatus> name="status" label={F.status} options={WITHDRAW_STATUS_OPTIONS} placeholder={F.allStatuses} />
      <SelectField<FilterInput, 'cardId', number>
        name="cardId"
        label={F.card}
        options={cards.map((card) => ({ value: card.id, label: cardLabel(card) }))}
        placeholder={F.allCards}
      />
      <TextField<FilterInput, 'orderId'> name="orderId" label={F.orderId} inputMode="numeric" autoComplete="off" />
    </FilterBar>
  );
}
