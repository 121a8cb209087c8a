// /user/apply-list (SPEC §2): the member's own payment applications, newest first, 20 a page. The
// columns of SPEC §2 (apply-columns.tsx) and, where the payment machine accepts pay.collect (status
// paid), a '确认收款' button: POST /api/trade/user/collect/confirm, then the server's msg as a toast
// and the list again. Page and size live in the URL; the route's loader fetches the page (and while it
// does, or when it fails, the route shows this page with skeletons or the failure in the table). On
// a phone each application is a card: item, status, amounts and the button.
// Receipt can be confirmed from /user/withdraw-request too, for a paid withdrawal's applications.
import { taskDisplayId } from '../../../../machines/task.machine';
import { useRouter } from '@tanstack/react-router';
import { useMemo, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import type { TableFailure } from '../../components/ui/data-table';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { applyColumns } from './apply-columns';
import type { UserApplyListSearch } from './apply-list-search';
import { MEMBER_PAYMENT_ACTIONS, paymentActions } from './payment-rules';
import type { PaymentApplyPage } from './payments-api';
import { confirmCollect } from '../../lib/task-calls';
import { usePaymentAction } from './use-payment-action';

const t = zh.payments;

export interface UserApplyListPageProps {
  search: UserApplyListSearch;
  result: PaymentApplyPage;
  loading?: boolean;
  /** The page could not be loaded: said in the table's place. */
  failure?: TableFailure | null;
  onSearch: (next: UserApplyListSearch) => void;
}

export function UserApplyListPage({ search, result, loading = false, failure = null, onSearch }: UserApplyListPageProps): JSX.Element {
  const router = useRouter();
  const { api } = useAppContext();
  const { running, run } = usePaymentAction(() => void router.invalidate());

  const columns = useMemo(
    () =>
      applyColumns({
        actions: (row) =>
          paymentActions(row.status, MEMBER_PAYMENT_ACTIONS).map((action) => (
            <Button
              key={action}
              variant="link"
              aria-label={t.user.collectNamed(taskDisplayId(row))}
              loading={running?.id === row.id && running.action === action}
              disabled={running?.id === row.id}
              onClick={() => void run(row.id, action, () => confirmCollect(api, row.id))}
            >
              {t.user.collect}
            </Button>
          )),
      }),
    [api, run, running],
  );

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.userApplyList} />
      <PagedTable
        columns={columns}
        search={search}
        result={result}
        onSearch={onSearch}
        loading={loading}
        failure={failure}
        cards
        emptyText={t.user.empty}
        caption={t.user.caption}
      />
    </div>
  );
}
