// /user/upload (SPEC §2, §3 Upload result row, §7 Uploads, §9 page sizes): the member records
// purchases in bulk from an .xlsx of the template. 'import' adds the file's records, 'update'
// changes the counts of existing ones. While the file goes out a progress bar shows how much of it
// has been sent (percent); once it is all sent the bar turns indeterminate until the server has
// processed it; then the result: totals succ, skip, error and every row, paged in the browser. The
// result exists only on this page, so leaving it (or the file still uploading) asks for
// confirmation first.
import { useId, useRef, useState, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/form';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { PageHeader, Panel } from '../../components/ui/page';
import { ProgressBar } from '../../components/ui/progress-bar';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../app/app-context';
import { failureText } from './task-outcomes';
import { PURCHASED_TEMPLATE_URL, uploadPurchasedExcel, type UploadMode, type UploadResult } from './tasks-api';
import { UploadResultTable, UploadTotals } from './upload-result-table';
import { useLeaveConfirmation } from './use-leave-confirmation';

const u = zh.uploads;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The file a member may send: an .xlsx (the server checks what is inside). */
export function isXlsx(file: Pick<File, 'name'>): boolean {
  return /\.xlsx$/i.test(file.name);
}

/** A file size for people: 12 KB, 3.4 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const MODE_LABEL: Record<UploadMode, string> = { import: u.import, update: u.update };

/** The result on screen; `serial` counts uploads, so a new result starts again at page 1. */
type Shown = { serial: number; mode: UploadMode; fileName: string; result: UploadResult };

/** An upload under way: `percent` of the file sent (null while its size is unknown); `sent` once all is. */
type Uploading = { mode: UploadMode; fileName: string; percent: number | null; sent: boolean };

export function UploadPage(): JSX.Element {
  const { api } = useAppContext();
  const inputId = useId();
  const serial = useRef(0);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<Uploading | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);

  useLeaveConfirmation(uploading !== null || shown !== null);

  function choose(picked: File | null) {
    setFile(picked);
    setServerError(null);
    setFileError(picked && !isXlsx(picked) ? u.fileNotXlsx : null);
  }

  async function upload(mode: UploadMode) {
    if (!file) {
      setFileError(u.fileRequired);
      return;
    }
    if (!isXlsx(file)) {
      setFileError(u.fileNotXlsx);
      return;
    }
    setServerError(null);
    setUploading({ mode, fileName: file.name, percent: 0, sent: false });
    try {
      const outcome = await uploadPurchasedExcel(api, mode, file, ({ percent }) =>
        setUploading((now) => now && { ...now, percent, sent: percent === 100 }),
      );
      if (outcome.ok) setShown({ serial: ++serial.current, mode, fileName: file.name, result: outcome.data });
      else setServerError(failureText(u.uploadFailed, outcome.msg));
    } finally {
      setUploading(null);
    }
  }

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
      <Panel>
        <div className="flex flex-col gap-4">
          <div>
            <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
              {u.file}
            </label>
            <input
              id={inputId}
              type="file"
              accept={`.xlsx,${XLSX_TYPE}`}
              disabled={uploading !== null}
              aria-invalid={fileError ? true : undefined}
              aria-describedby={`${inputId}-message`}
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
              className="block w-full max-w-xl text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-50"
            />
            {fileError ? (
              <p id={`${inputId}-message`} role="alert" className="mt-1 text-xs text-red-600">
                {fileError}
              </p>
            ) : (
              <p id={`${inputId}-message`} className="mt-1 text-xs text-slate-500">
                {file ? u.fileChosen(file.name, formatFileSize(file.size)) : u.modeHint}
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button loading={uploading?.mode === 'import'} disabled={uploading !== null} onClick={() => void upload('import')}>
              {u.import}
            </Button>
            <Button variant="secondary" loading={uploading?.mode === 'update'} disabled={uploading !== null} onClick={() => void upload('update')}>
              {u.update}
            </Button>
          </div>
          {uploading &&
            (uploading.sent ? (
              <ProgressBar label={u.processing(uploading.fileName)} percent={null} />
            ) : (
              <ProgressBar label={u.uploading(uploading.fileName, uploading.percent)} percent={uploading.percent} />
            ))}
          <FormError message={serverError} />
        </div>
      </Panel>
      {shown && (
        <Panel
          title={u.resultTitle(MODE_LABEL[shown.mode], shown.fileName)}
          actions={
            <Button variant="secondary" size="sm" onClick={() => setShown(null)}>
              {u.clear}
            </Button>
          }
        >
          <div className="flex flex-col gap-3">
            <UploadTotals result={shown.result} />
            <UploadResultTable key={shown.serial} rows={shown.result.rows} />
          </div>
        </Panel>
      )}
    </div>
  );
}
