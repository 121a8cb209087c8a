// /admin/withdraw-list (SPEC §2, §4 "Withdraw status", §7 Withdraw admin calls; admin only). Every
// member's withdraw lines, filtered and paged in the URL by the route. Each row offers what
// machines/withdraw.machine.ts accepts for it (withdraw-rules.ts), after a confirmation: agree or
// reject cancel (per order), mark paid; and always 收款信息 (the card's full details, revealed on the
// click, card-reveal-dialog.tsx) and 备注. Lines the admin may pay can be chosen (kept across pages,
// dropped when the filters change) for 批量标记已付款 (all or nothing; the refused lines are listed)
// and 导出付款文件; with none chosen, the header's 导出付款文件 takes every waited line the filters
// select. The header also exports the list to Excel and opens the Excel confirmation of paid lines.
import { useRouter } from '@tanstack/react-router';
import { useCallback, useMemo, useState, type JSX } from 'react';
import * as v from 'valibot';
import { WITHDRAW_STATUSES, type WithdrawStatus } from '../../../../machines/withdraw.machine';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatMoney } from '../../components/ui/format';
import { toast } from '../../components/ui/toast';
import type { RowSelectionState } from '../../components/ui/data-table';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { toastOutcome } from '../../lib/toast-outcome';
import { zh } from '../../i18n/zh';
import { idText, toId, userLabel, userOptions } from '../../lib/filter-fields';
import { timezoneOffsetHours } from '../../lib/timezone';
import { useAppContext } from '../../app/app-context';
import { useDownload } from '../../navigation/use-download';
import { AdminNoteDialog } from './admin-note-dialog';
import { CardRevealDialog, useCardReveal } from './card-reveal-dialog';
import { PaySelectionBar, RefusedLines } from './pay-selection-bar';
import { SwitchField } from './switch-field';
import {
  agreeWithdrawCancel,
  payWithdrawRequest,
  payWithdrawRequests,
  rejectWithdrawCancel,
  withdrawExcelUrl,
  withdrawPaymentFile,
  type AppUser,
  type BatchPayRow,
  type Outcome,
  type PaymentFileFilters,
  type WithdrawRequest,
  type WithdrawRequestPage as LinePage,
} from './withdraw-api';
import { withdrawCol, withdrawColumn } from './withdraw-columns';
import { WithdrawConfirmUpload } from './withdraw-confirm-upload';
import { formatCents, toCents } from '../../../../machines/cents';
import { adminMayPay, WITHDRAW_STATUS_OPTIONS, withdrawActions, type WithdrawAction } from './withdraw-rules';
import { adminWithdrawExportFilters, paymentFileFilters, WITHDRAW_SIZE_OPTIONS, type AdminWithdrawSearch } from './withdraw-search';
import { filterForm } from '../../lib/list-search';
import { useRowDialog } from '../../lib/use-row-dialog';
import { useReloading } from '../../navigation/use-reloading';

const W = zh.withdraw;
const A = W.admin;
const F = W.filter;

export interface AdminWithdrawListData {
  lines: LinePage;
  users: AppUser[];
}

export interface AdminWithdrawListPageProps {
  search: AdminWithdrawSearch;
  data: AdminWithdrawListData;
  onSearch: (next: AdminWithdrawSearch) => void;
}

type Running = { id: number; action: WithdrawAction } | null;

/** The member of a line: its nickName (admin views carry it), else the user list's, else '#id'. */
function memberOf(row: WithdrawRequest, users: readonly AppUser[]): string {
  return row.nickName ?? userLabel(users, row.userId);
}

function report(outcome: Outcome): void {
  toastOutcome(outcome, { done: W.done, failed: W.failed });
}

const NONE_CHOSEN: ReadonlyMap<number, WithdrawRequest> = new Map();

export function AdminWithdrawListPage({ search, data, onSearch }: AdminWithdrawListPageProps): JSX.Element {
  const router = useRouter();
  const loading = useReloading();
  const notingDialog = useRowDialog<WithdrawRequest>();
  const { row: noting, open: setNoting } = notingDialog;
  const [confirming, setConfirming] = useState(false);
  const cardReveal = useCardReveal();
  const openReveal = cardReveal.open;
  const filters = filterForm(search, onSearch);
  const filterKey = filters.key;
  const chosen = useChosenLines(filterKey, data.lines.content);
  const pay = useBatchPay(chosen);
  const { running, perform } = useLineAction(data.users);
  const columns = useMemo(
    () => adminWithdrawColumns({ users: data.users, running, perform, onReveal: openReveal, onNote: setNoting }),
    [data.users, running, perform, openReveal, setNoting],
  );

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.adminWithdrawList}
        actions={
          <HeaderActions
            search={search}
            anyChosen={chosen.rows.length > 0}
            paymentFile={pay.paymentFile}
            exportPaymentFile={pay.exportPaymentFile}
            confirming={confirming}
            onToggleConfirming={() => setConfirming((open) => !open)}
          />
        }
      />
      {confirming && <WithdrawConfirmUpload onConfirmed={() => void router.invalidate()} />}
      <AdminFilters key={filterKey} search={search} users={data.users} onApply={filters.onApply} onReset={filters.onReset} />
      {pay.refused.length > 0 && <RefusedLines rows={pay.refused} onDismiss={() => pay.setRefused([])} />}
      {chosen.rows.length > 0 && (
        <PaySelectionBar
          count={chosen.rows.length}
          total={chosen.total}
          paying={pay.paying}
          exporting={pay.paymentFile.busy}
          onPay={() => void pay.payChosen()}
          onExport={() => void pay.exportPaymentFile({ ids: chosen.rows.map((row) => row.id) })}
          onClear={chosen.clear}
        />
      )}
      <PagedTable
        columns={columns}
        search={search}
        result={data.lines}
        onSearch={onSearch}
        sizeOptions={WITHDRAW_SIZE_OPTIONS}
        loading={loading}
        rowSelection={chosen.rowSelection}
        onRowSelectionChange={chosen.choose}
        canSelectRow={adminMayPay}
        emptyText={A.empty}
        caption={A.caption}
        cards
      />
      <CardRevealDialog reveal={cardReveal.reveal} member={cardReveal.reveal ? memberOf(cardReveal.reveal.line, data.users) : ''} onClose={cardReveal.close} />
      {noting && <AdminNoteDialog key={noting.id} line={noting} onClose={notingDialog.close} onSaved={notingDialog.done} />}
    </div>
  );
}

/** The header's buttons: the payment file of every waited line (none chosen), the Excel confirmation, the Excel export. */
function HeaderActions({
  search,
  anyChosen,
  paymentFile,
  exportPaymentFile,
  confirming,
  onToggleConfirming,
}: {
  search: AdminWithdrawSearch;
  anyChosen: boolean;
  paymentFile: { busy: boolean };
  exportPaymentFile: (selection: PaymentFileFilters) => unknown;
  confirming: boolean;
  onToggleConfirming: () => void;
}): JSX.Element {
  const { api } = useAppContext();
  const exporting = useDownload();
  const waitedFilters = paymentFileFilters(search);
  return (
    <>
      {!anyChosen && (
        <Button
          variant="secondary"
          loading={paymentFile.busy}
          disabled={waitedFilters === null}
          title={waitedFilters === null ? A.paymentFile.onlyWaited : A.paymentFile.hint}
          onClick={() => waitedFilters && void exportPaymentFile(waitedFilters)}
        >
          {A.paymentFile.button}
        </Button>
      )}
      <Button variant="secondary" aria-expanded={confirming} onClick={onToggleConfirming}>
        {confirming ? A.upload.close : A.upload.open}
      </Button>
      <Button
        variant="secondary"
        loading={exporting.busy}
        onClick={() => void exporting.download(() => withdrawExcelUrl(api, adminWithdrawExportFilters(search), timezoneOffsetHours()))}
      >
        {A.exportExcel}
      </Button>
    </>
  );
}

interface ChosenLines {
  rows: WithdrawRequest[];
  total: string;
  rowSelection: RowSelectionState;
  choose: (selection: RowSelectionState) => void;
  clear: () => void;
}

/**
 * The chosen lines, kept across pages and dropped when the filters change (`filterKey`); a line this
 * page shows is read fresh, and one the admin may no longer pay (paid meanwhile) drops out.
 */
function useChosenLines(filterKey: string, content: readonly WithdrawRequest[]): ChosenLines {
  const [chosenOf, setChosenOf] = useState<{ key: string; rows: ReadonlyMap<number, WithdrawRequest> }>({ key: filterKey, rows: NONE_CHOSEN });
  const kept = chosenOf.key === filterKey ? chosenOf.rows : NONE_CHOSEN;
  const onPage = useMemo(() => new Map(content.map((row) => [row.id, row])), [content]);
  const rows = [...kept.values()].map((row) => onPage.get(row.id) ?? row).filter(adminMayPay);

  function choose(selection: RowSelectionState) {
    const next = new Map<number, WithdrawRequest>();
    for (const [id, on] of Object.entries(selection)) {
      const row = on ? (onPage.get(Number(id)) ?? kept.get(Number(id))) : undefined;
      if (row) next.set(row.id, row);
    }
    setChosenOf({ key: filterKey, rows: next });
  }

  return {
    rows,
    total: formatCents(rows.reduce((sum, row) => sum + toCents(row.withdrawAmount), 0)),
    rowSelection: Object.fromEntries(rows.map((row) => [String(row.id), true])),
    choose,
    clear: () => setChosenOf({ key: filterKey, rows: NONE_CHOSEN }),
  };
}

/** 批量标记已付款 of the chosen lines (after a confirmation; the refused ones are kept to list) and the payment file. */
function useBatchPay(chosen: ChosenLines) {
  const router = useRouter();
  const { api } = useAppContext();
  const paymentFile = useDownload();
  const [paying, setPaying] = useState(false);
  const [refused, setRefused] = useState<BatchPayRow[]>([]);

  function exportPaymentFile(selection: { ids: number[] } | PaymentFileFilters) {
    return paymentFile.download(async () => {
      const file = await withdrawPaymentFile(api, selection, timezoneOffsetHours());
      if (file) toast.info(A.paymentFile.ready(file.count));
      return file?.url ?? null;
    });
  }

  async function payChosen() {
    const ids = chosen.rows.map((row) => row.id);
    if (!(await confirmDialog(A.batchPay.confirm(ids.length, chosen.total), { title: A.batchPay.title, okText: A.batchPay.ok }))) return;
    setPaying(true);
    try {
      const outcome = await payWithdrawRequests(api, ids);
      setRefused(outcome.refused);
      if (outcome.ok) {
        toast.success(outcome.msg || A.batchPay.done(ids.length));
        chosen.clear();
      } else {
        toast.error(outcome.msg || A.batchPay.failed);
      }
    } finally {
      setPaying(false);
      void router.invalidate();
    }
  }

  return { paymentFile, exportPaymentFile, payChosen, paying, refused, setRefused };
}

/** A row's action (agree or reject its cancel, mark it paid) after a confirmation naming the member; `running` is the one under way. */
function useLineAction(users: readonly AppUser[]) {
  const router = useRouter();
  const { api } = useAppContext();
  const [running, setRunning] = useState<Running>(null);
  const perform = useCallback(
    async (row: WithdrawRequest, action: WithdrawAction) => {
      const member = memberOf(row, users);
      const question =
        action === 'agreeCancel'
          ? A.agreeCancelConfirm(row.orderId, member)
          : action === 'rejectCancel'
            ? A.rejectCancelConfirm(row.orderId, member)
            : A.markPaidConfirm(row.id, member, formatMoney(row.withdrawAmount));
      if (!(await confirmDialog(question))) return;
      setRunning({ id: row.id, action });
      try {
        const call =
          action === 'agreeCancel'
            ? agreeWithdrawCancel(api, row.orderId)
            : action === 'rejectCancel'
              ? rejectWithdrawCancel(api, row.orderId)
              : payWithdrawRequest(api, row.id);
        report(await call);
      } finally {
        setRunning(null);
        void router.invalidate();
      }
    },
    [api, router, users],
  );
  return { running, perform };
}

const ACTION_TEXT: Partial<Record<WithdrawAction, string>> = { agreeCancel: A.agreeCancel, rejectCancel: A.rejectCancel, pay: A.markPaid };

function actionName(row: WithdrawRequest, action: WithdrawAction): string {
  return action === 'agreeCancel'
    ? A.agreeCancelNamed(row.id, row.orderId)
    : action === 'rejectCancel'
      ? A.rejectCancelNamed(row.id, row.orderId)
      : A.markPaidNamed(row.id);
}

/** The admin's columns: the line's fields, its member, and the actions the machine offers on it. */
function adminWithdrawColumns({
  users,
  running,
  perform,
  onReveal,
  onNote,
}: {
  users: readonly AppUser[];
  running: Running;
  perform: (row: WithdrawRequest, action: WithdrawAction) => Promise<void>;
  onReveal: (row: WithdrawRequest) => void;
  onNote: (row: WithdrawRequest) => void;
}) {
  return withdrawCol.columns([
    withdrawColumn.id,
    withdrawColumn.orderId,
    withdrawCol.display({
      id: 'user',
      header: W.col.user,
      meta: { className: 'whitespace-nowrap' },
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span>{memberOf(row.original, users)}</span>
          <span className="text-xs text-slate-500 tabular-nums">#{row.original.userId}</span>
        </div>
      ),
    }),
    withdrawColumn.paymentType,
    withdrawColumn.accountNameEncrypt,
    withdrawColumn.cardNoEncrypt,
    withdrawColumn.address,
    withdrawColumn.withdrawAmount,
    withdrawColumn.userNote,
    withdrawColumn.status,
    withdrawColumn.adminNote,
    withdrawColumn.adminNote2,
    withdrawColumn.createdAt,
    withdrawCol.display({
      id: 'actions',
      header: W.col.actions,
      meta: { card: 'actions' },
      cell: ({ row }) => (
        <div className="flex flex-wrap gap-x-3 gap-y-2">
          {withdrawActions(row.original, 'admin').map((action) => (
            <Button
              key={action}
              variant="link"
              aria-label={actionName(row.original, action)}
              loading={running?.id === row.original.id && running.action === action}
              disabled={running !== null}
              onClick={() => void perform(row.original, action)}
            >
              {ACTION_TEXT[action]}
            </Button>
          ))}
          <Button variant="link" aria-label={A.reveal.named(row.original.id)} onClick={() => onReveal(row.original)}>
            {A.reveal.button}
          </Button>
          <Button variant="link" aria-label={A.editNotesNamed(row.original.id)} onClick={() => onNote(row.original)}>
            {A.editNotes}
          </Button>
        </div>
      ),
    }),
  ]);
}

// ---------------------------------------------------------------- filters

const filterSchema = v.object({
  orderId: idText(F.idInvalid),
  status: v.union([v.literal(''), v.picklist(WITHDRAW_STATUSES)]),
  userId: v.union([v.literal(''), v.number()]),
  cardId: idText(F.idInvalid),
  isDesc: v.boolean(),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<AdminWithdrawSearch, 'page' | 'size'>;

function AdminFilters({
  search,
  users,
  onApply,
  onReset,
}: {
  search: AdminWithdrawSearch;
  users: readonly AppUser[];
  onApply: (filters: Filters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      orderId: search.orderId === undefined ? '' : String(search.orderId),
      status: search.status ?? '',
      userId: search.userId ?? '',
      cardId: search.cardId === undefined ? '' : String(search.cardId),
      isDesc: search.isDesc,
    },
  });

  function apply(values: FilterValues) {
    onApply({
      orderId: toId(values.orderId),
      status: values.status === '' ? undefined : values.status,
      userId: values.userId === '' ? undefined : values.userId,
      cardId: toId(values.cardId),
      isDesc: values.isDesc,
    });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
      <TextField<FilterInput, 'orderId'> name="orderId" label={F.orderId} inputMode="numeric" autoComplete="off" />
      <SelectField<FilterInput, 'status', WithdrawStatus> name="status" label={F.status} options={WITHDRAW_STATUS_OPTIONS} placeholder={F.allStatuses} />
      <SelectField<FilterInput, 'userId', number> name="userId" label={F.userId} options={userOptions([...users])} placeholder={F.allUsers} />
      <TextField<FilterInput, 'cardId'> name="cardId" label={F.cardId} inputMode="numeric" autoComplete="off" />
      <SwitchField<FilterInput, 'isDesc'> name="isDesc" label={F.isDesc} />
    </FilterBar>
  );
}
