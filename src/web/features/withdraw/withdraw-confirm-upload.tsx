// The admin's confirmation of paid withdraw lines by Excel upload (SPEC §4 "the admin confirms
// payment orders by Excel upload", §7 "Admin: ... confirm (file upload)", §8 "Withdraw-confirm upload
// failure: '上传错误'"), on /admin/withdraw-list: the shared upload form and result
// (components/excel-upload.tsx) with one action. The server applies the file all or nothing and
// reports every row; the result table shows that report.
// - every row confirmed: the server's msg as a success toast, and the list reloads;
// - a row in error (nothing was changed), a refused file, or no answer: the error toast '上传错误'
//   (the form shows the server's reason beside the file input; the rows say what is wrong).
import type { JSX } from 'react';
import { ExcelUploadForm, ExcelUploadResult, useExcelUpload, type UploadAction } from '../../components/excel-upload';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { confirmWithdrawUpload } from './withdraw-api';

const U = zh.withdraw.admin.upload;

type ConfirmMode = 'confirm';
const ACTIONS: ReadonlyArray<UploadAction<ConfirmMode>> = [{ mode: 'confirm', label: U.action }];

export function WithdrawConfirmUpload({ onConfirmed }: { onConfirmed: () => void }): JSX.Element {
  const { api } = useAppContext();
  const upload = useExcelUpload<ConfirmMode>(async (_mode, file, options) => {
    try {
      const outcome = await confirmWithdrawUpload(api, file, options);
      if (outcome.ok && outcome.data.error === 0) {
        toast.success(outcome.msg || zh.withdraw.done);
        onConfirmed();
      } else {
        toast.error(zh.withdraw.uploadError);
      }
      return outcome;
    } catch (error) {
      if (!options.signal?.aborted) toast.error(zh.withdraw.uploadError);
      throw error;
    }
  });

  return (
    <>
      <ExcelUploadForm upload={upload} actions={ACTIONS} hint={U.hint} title={U.title} />
      <ExcelUploadResult upload={upload} actions={ACTIONS} />
    </>
  );
}
