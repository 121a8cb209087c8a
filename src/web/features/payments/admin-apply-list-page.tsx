// /admin/apply-list (SPEC §2, §4 "Payment application status", §7 Payments): every member's payment
// applications with the applicant, filtered by status, applicant, task (mainId) and sorted by the
// time of the application (listPaymentApplies). Each row offers what the payment machine accepts
// for its status (payment-rules.ts):
// - 同意 (pay.agree, applied): the agree dialog, with a new bonus or blank to keep the one asked for;
// - 确认付款 (pay.confirm, withdrawing): after a confirmation, POST /api/trade/admin/pay/confirm.
// Each outcome is a toast (SPEC §8: '操作成功' or the server's msg) and the list reloads.
// Filters, sort, page and size live in the URL: this page reads them from `search` and changes
// them through `onSearch`; the route's loader fetches the page they describe.
import { taskDisplayId } from '../../../../machines/task.machine';
import { useRouter } from '@tanstack/react-router';
import { useMemo, useState, type JSX } from 'react';
import * as v from 'valibot';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../../machines/payment.machine';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { zh } from '../../i18n/zh';
import { idText, toId, userLabel, userOptions } from '../../lib/filter-fields';
import { useAppContext } from '../../app/app-context';
import { AgreePaymentDialog } from './agree-payment-dialog';
import { applyCol, applyColumns } from './apply-columns';
import { APPLY_LIST_SIZE_OPTIONS, type AdminApplyListSearch } from './apply-list-search';
import { ADMIN_PAYMENT_ACTIONS, paymentActions, type PaymentAction } from './payment-rules';
import { confirmPayment, type AppUser, type PaymentApply, type PaymentApplyPage } from './payments-api';
import { usePaymentAction } from './use-payment-action';
import { filterForm } from '../../lib/list-search';
import { useReloading } from '../../navigation/use-reloading';

const t = zh.payments;
const A = t.admin;
const C = t.col;

export interface AdminApplyListData {
  applies: PaymentApplyPage;
  users: AppUser[];
}

export interface AdminApplyListPageProps {
  search: AdminApplyListSearch;
  data: AdminApplyListData;
  onSearch: (next: AdminApplyListSearch) => void;
}

/** The applicant: the row's nickName (admin views carry it), else the user list's, else '#id'. */
function applicantOf(row: PaymentApply, users: readonly AppUser[]): string {
  return row.nickName ?? userLabel(users, row.userId);
}

const ACTION_NAME: Record<PaymentAction, (row: PaymentApply) => string> = {
  agree: (row) => A.agreeNamed(taskDisplayId(row)),
  confirm: (row) => A.confirmNamed(taskDisplayId(row)),
  collect: () => '',
};
const ACTION_TEXT: Record<PaymentAction, string> = { agree: A.agree, confirm: A.confirm, collect: '' };

/** The admin's columns: the applicant after the task, the creation time after the status, and the actions the machine offers. */
function adminApplyColumns(
  users: readonly AppUser[],
  running: { id: number; action: PaymentAction } | null,
  perform: (row: PaymentApply, action: PaymentAction) => void,
) {
  return applyColumns({
    afterTaskId: [
      applyCol.display({
        id: 'user',
        header: C.user,
        meta: { className: 'whitespace-nowrap' },
        cell: ({ row }) => (
          <div className="flex flex-col">
            <span>{applicantOf(row.original, users)}</span>
            <span className="text-xs text-slate-500 tabular-nums">#{row.original.userId}</span>
          </div>
        ),
      }),
    ],
    afterStatus: [
      applyCol.accessor('createdAt', { header: C.createdAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
    ],
    actions: (row) => (
      <div className="flex gap-3">
        {paymentActions(row.status, ADMIN_PAYMENT_ACTIONS).map((action) => (
          <Button
            key={action}
            variant="link"
            aria-label={ACTION_NAME[action](row)}
            loading={running?.id === row.id && running.action === action}
            disabled={running?.id === row.id}
            onClick={() => perform(row, action)}
          >
            {ACTION_TEXT[action]}
          </Button>
        ))}
      </div>
    ),
  });
}

export function AdminApplyListPage({ search, data, onSearch }: AdminApplyListPageProps): JSX.Element {
  const router = useRouter();
  const { api } = useAppContext();
  const loading = useReloading();
  const [agreeing, setAgreeing] = useState<PaymentApply | null>(null);
  const { running, run, reload } = usePaymentAction(() => void router.invalidate());

  const columns = useMemo(() => {
    const perform = (row: PaymentApply, action: PaymentAction) => {
      if (action === 'agree') {
        setAgreeing(row);
        return;
      }
      void run(row.id, action, async () => {
        const question = A.confirmPay(taskDisplayId(row), applicantOf(row, data.users), formatMoney(row.income));
        if (!(await confirmDialog(question))) return null;
        return confirmPayment(api, row.id);
      });
    };
    return adminApplyColumns(data.users, running, perform);
  }, [api, data.users, run, running]);

  const filters = filterForm(search, onSearch);
  const filterKey = filters.key;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminApplyList} />
      <ApplyFilters key={filterKey} search={search} users={data.users} onApply={filters.onApply} onReset={filters.onReset} />
      <PagedTable
        columns={columns}
        search={search}
        result={data.applies}
        onSearch={onSearch}
        sizeOptions={APPLY_LIST_SIZE_OPTIONS}
        loading={loading}
        emptyText={A.empty}
        caption={A.caption}
      />
      {agreeing && (
        <AgreePaymentDialog
          key={agreeing.id}
          apply={agreeing}
          applicant={applicantOf(agreeing, data.users)}
          onClose={() => setAgreeing(null)}
          onAgreed={() => {
            setAgreeing(null);
            reload();
          }}
        />
      )}
    </div>
  );
}

// ---------------------------------------------------------------- filters

const SORTS = ['desc', 'asc'] as const;

const filterSchema = v.object({
  status: v.union([v.literal(''), v.picklist(PAYMENT_STATUSES)]),
  userId: v.union([v.literal(''), v.number()]),
  mainId: idText(A.idInvalid),
  sort: v.picklist(SORTS),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<AdminApplyListSearch, 'page' | 'size'>;

const STATUS_OPTIONS = PAYMENT_STATUSES.map((status) => ({ value: status, label: t.status[status] }));

function ApplyFilters({
  search,
  users,
  onApply,
  onReset,
}: {
  search: AdminApplyListSearch;
  users: AppUser[];
  onApply: (filters: Filters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      status: search.status ?? '',
      userId: search.userId ?? '',
      mainId: search.mainId === undefined ? '' : String(search.mainId),
      sort: search.isDesc ? 'desc' : 'asc',
    },
  });

  function apply(values: FilterValues) {
    onApply({
      status: values.status === '' ? undefined : values.status,
      userId: values.userId === '' ? undefined : values.userId,
      mainId: toId(values.mainId),
      isDesc: values.sort === 'desc',
    });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-5">
      <SelectField<FilterInput, 'status', PaymentStatus> name="status" label={A.status} options={STATUS_OPTIONS} placeholder={A.allStatuses} />
      <SelectField<FilterInput, 'userId', number> name="userId" label={A.userId} options={userOptions(users)} placeholder={A.allUsers} />
      <TextField<FilterInput, 'mainId'> name="mainId" label={A.mainId} placeholder={A.mainIdHint} inputMode="numeric" autoComplete="off" />
      <SelectField<FilterInput, 'sort', (typeof SORTS)[number]>
        name="sort"
        label={A.sort}
        placeholder={false}
        options={[
          { value: 'desc', label: A.sortDesc },
          { value: 'asc', label: A.sortAsc },
        ]}
      />
    </FilterBar>
  );
}
