// /user/upload (SPEC §2, §3 Upload result row, §7 Uploads, §9 page sizes): the member records
// purchases in bulk from a spreadsheet of the template (or their own task export). 'import' adds
// the file's records, 'update' changes the counts of existing ones. While the file goes out a progress bar shows how much of it
// has been sent (percent); once it is all sent the bar turns indeterminate until the server has
// processed it; then the result: totals succ, skip, error and every row, paged in the browser. The
// result exists only on this page, so leaving it (or the file still uploading) asks for
// confirmation first. The form, result and leave prompt are shared with /admin/upload
// (components/excel-upload.tsx, lib/use-leave-confirmation.ts).
import type { JSX } from 'react';
import { ExcelUploadForm, ExcelUploadResult, useExcelUpload, type UploadAction } from '../../components/excel-upload';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { PURCHASED_TEMPLATE_URL, PURCHASED_UPLOAD_PATHS, uploadExcel, uploadResultPage, type PurchasedUploadMode } from '../../lib/excel-upload';
import { useLeaveConfirmation } from '../../lib/use-leave-confirmation';
import { useAppContext } from '../../app/app-context';

const u = zh.uploads;

const ACTIONS: ReadonlyArray<UploadAction<PurchasedUploadMode>> = [
  { mode: 'import', label: u.import },
  { mode: 'update', label: u.update },
];

export function UploadPage(): JSX.Element {
  const { api } = useAppContext();
  const upload = useExcelUpload<PurchasedUploadMode>(
    (mode, file, options) => uploadExcel(api, PURCHASED_UPLOAD_PATHS[mode], file, options),
    (resultId, page, size) => uploadResultPage(api, resultId, page, size),
  );
  useLeaveConfirmation(upload.active);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.userUpload}
        description={u.intro}
        actions={
          <a href={PURCHASED_TEMPLATE_URL} download className={secondaryLinkClass}>
            {u.downloadTemplate}
          </a>
        }
      />
      <ExcelUploadForm upload={upload} actions={ACTIONS} hint={u.modeHint} />
      <ExcelUploadResult upload={upload} actions={ACTIONS} />
    </div>
  );
}
