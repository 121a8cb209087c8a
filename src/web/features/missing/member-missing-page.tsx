// /user/missing-parcels (decision 077): the member's tracking ids recorded more than the setting's
// days ago that the warehouse has not scanned, oldest first, each with its carrier, age, task and
// item; the member writes a note on one or reports it lost (one dialog, one audited call) and the
// list loads again. Reached from the home's flag and the task list's flagged ids. Page and size live
// in the URL; the route's loader reads the page (skeletons while it does, the failure in the
// table's place). On a phone each parcel is a card with its button at the foot.
import { useMemo, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import type { TableFailure } from '../../components/ui/data-table';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { zh } from '../../i18n/zh';
import type { MissingParcelPage } from './missing-api';
import { missingColumns } from './missing-columns';
import { MissingReportDialog } from './missing-report-dialog';
import type { MemberMissingSearch } from './missing-search';
import type { MissingParcel } from './missing-api';
import { useRowDialog } from '../../lib/use-row-dialog';

const M = zh.missing;

export interface MemberMissingPageProps {
  search: MemberMissingSearch;
  result: MissingParcelPage;
  loading?: boolean;
  failure?: TableFailure | null;
  onSearch: (next: MemberMissingSearch) => void;
}

export function MemberMissingPage({ search, result, loading = false, failure = null, onSearch }: MemberMissingPageProps): JSX.Element {
  const reportingDialog = useRowDialog<MissingParcel>();
  const { row: reporting, open: setReporting } = reportingDialog;
  const columns = useMemo(
    () =>
      missingColumns({
        actions: (row) => (
          <Button variant="link" aria-label={M.reportNamed(row.typedTrackingId ?? row.trackingId)} onClick={() => setReporting(row)}>
            {M.report}
          </Button>
        ),
      }),
    [setReporting],
  );
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.userMissingParcels} description={M.intro(result.days)} />
      <PagedTable
        columns={columns}
        search={search}
        result={result}
        onSearch={onSearch}
        loading={loading}
        failure={failure}
        cards
        emptyText={M.empty}
        caption={M.caption}
      />
      {reporting && <MissingReportDialog key={reporting.id} parcel={reporting} onClose={reportingDialog.close} onSaved={reportingDialog.done} />}
    </div>
  );
}
