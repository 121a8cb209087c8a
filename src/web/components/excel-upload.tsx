// The Excel upload of SPEC §2's upload pages (/user/upload, both tabs of /admin/upload): pick a
// spreadsheet (.xlsx, .xls, .ods, .csv; decision 068), send it with one of the page's actions, watch
// it go out, read the result (SPEC §3).
// - useExcelUpload: one upload's state (file, upload under way, refusal, result); the page owns it
//   and asks before leaving while `active`.
// - ExcelUploadForm: file input, a button per action, the progress bar (indeterminate once the file
//   is sent, until the server has processed it), a refusal beside the input.
// - ExcelUploadResult: the totals and every row, the ones that need attention first, paged in the
//   browser; a large file's fine rows (left out of its answer, decision 172) in a second table paged
//   by the server; 'clear' drops it.
import { useEffect, useId, useRef, useState, type JSX, type ReactNode } from 'react';
import { zh } from '../i18n/zh';
import { formatFileSize, isSheetFile, SHEET_ACCEPT } from '../lib/excel-file';
import type { LoadFineRows, UploadExcelOptions, UploadOutcome, UploadResult } from '../lib/excel-upload';
import { Button } from './ui/button';
import { FormError } from './ui/form';
import { Panel } from './ui/page';
import { ProgressBar } from './ui/progress-bar';
import { attentionFirst, UploadFineRowsTable, UploadResultTable, UploadTotals } from './upload-result-table';

const u = zh.uploads;

/** One button of the form: what it sends the file for. The first one is the primary button. */
export interface UploadAction<M extends string> {
  mode: M;
  label: string;
}

/** The result on screen; `serial` counts uploads, so a new result starts again at page 1. */
export interface ShownResult<M extends string> {
  serial: number;
  mode: M;
  fileName: string;
  result: UploadResult;
}

/** An upload under way: `percent` of the file sent (null while its size is unknown); `sent` once all is. */
export interface UploadInProgress<M extends string> {
  mode: M;
  fileName: string;
  percent: number | null;
  sent: boolean;
}

export interface ExcelUpload<M extends string> {
  file: File | null;
  fileError: string | null;
  uploading: UploadInProgress<M> | null;
  serverError: string | null;
  shown: ShownResult<M> | null;
  /** Leaving would lose something: an upload under way or a result on screen. */
  active: boolean;
  choose: (file: File | null) => void;
  start: (mode: M) => Promise<void>;
  clear: () => void;
  /** Pages a large upload's fine rows (lib/excel-upload.ts uploadResultPage). */
  loadFine?: LoadFineRows;
}

/** Sends `file` for `mode` (lib/excel-upload.ts uploadExcel with the page's path). */
export type SendExcel<M extends string> = (mode: M, file: File, options: UploadExcelOptions) => Promise<UploadOutcome>;

/** SPEC's '上传失败', then the server's reason when it gives one. */
function failedText(msg: string): string {
  return msg && msg !== u.uploadFailed ? u.uploadFailedWith(msg) : u.uploadFailed;
}

export function useExcelUpload<M extends string>(send: SendExcel<M>, loadFine?: LoadFineRows): ExcelUpload<M> {
  const serial = useRef(0);
  const running = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<UploadInProgress<M> | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [shown, setShown] = useState<ShownResult<M> | null>(null);

  // The page goes away (the leave was confirmed): stop sending the rest of the file.
  useEffect(() => () => running.current?.abort(), []);

  function choose(picked: File | null) {
    setFile(picked);
    setServerError(null);
    setFileError(picked && !isSheetFile(picked) ? u.fileNotSheet : null);
  }

  async function start(mode: M) {
    if (running.current) return;
    if (!file) {
      setFileError(u.fileRequired);
      return;
    }
    if (!isSheetFile(file)) {
      setFileError(u.fileNotSheet);
      return;
    }
    const controller = new AbortController();
    running.current = controller;
    setServerError(null);
    setUploading({ mode, fileName: file.name, percent: 0, sent: false });
    try {
      const outcome = await send(mode, file, {
        signal: controller.signal,
        onProgress: ({ percent }) => setUploading((now) => now && { ...now, percent, sent: percent === 100 }),
      });
      if (outcome.ok) setShown({ serial: ++serial.current, mode, fileName: file.name, result: outcome.data });
      else setServerError(failedText(outcome.msg));
    } catch {
      // No answer (offline, connection reset; silent, so no toast either), or the page went away.
      if (!controller.signal.aborted) setServerError(u.uploadFailed);
    } finally {
      running.current = null;
      setUploading(null);
    }
  }

  return {
    file,
    fileError,
    uploading,
    serverError,
    shown,
    active: uploading !== null || shown !== null,
    choose,
    start,
    clear: () => setShown(null),
    loadFine,
  };
}

export interface ExcelUploadFormProps<M extends string> {
  upload: ExcelUpload<M>;
  actions: ReadonlyArray<UploadAction<M>>;
  /** Under the file input until a file is chosen: what each action does. */
  hint: ReactNode;
  /** The panel's title and header buttons (a template link, say). */
  title?: ReactNode;
  headerActions?: ReactNode;
}

export function ExcelUploadForm<M extends string>({ upload, actions, hint, title, headerActions }: ExcelUploadFormProps<M>): JSX.Element {
  const inputId = useId();
  const { file, fileError, uploading, serverError } = upload;
  return (
    <Panel title={title} actions={headerActions}>
      <div className="flex flex-col gap-4">
        <div>
          <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
            {u.file}
          </label>
          <input
            id={inputId}
            type="file"
            accept={SHEET_ACCEPT}
            disabled={uploading !== null}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`${inputId}-message`}
            onChange={(e) => upload.choose(e.target.files?.[0] ?? null)}
            className="block w-full max-w-xl text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-50"
          />
          {fileError ? (
            <p id={`${inputId}-message`} role="alert" className="mt-1 text-xs text-red-600">
              {fileError}
            </p>
          ) : (
            <p id={`${inputId}-message`} className="mt-1 text-xs text-slate-500">
              {file ? u.fileChosen(file.name, formatFileSize(file.size)) : hint}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {actions.map((action, index) => (
            <Button
              key={action.mode}
              variant={index === 0 ? 'primary' : 'secondary'}
              loading={uploading?.mode === action.mode}
              disabled={uploading !== null}
              onClick={() => void upload.start(action.mode)}
            >
              {action.label}
            </Button>
          ))}
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
  );
}

export interface ExcelUploadResultProps<M extends string> {
  upload: ExcelUpload<M>;
  /** The same actions as the form's: the result is titled by the one that made it. */
  actions: ReadonlyArray<UploadAction<M>>;
  /** Show each row's upc (the tracking upload reports it). */
  showUpc?: boolean;
}

/** The result of the last upload, or nothing when there is none on screen. */
export function ExcelUploadResult<M extends string>({ upload, actions, showUpc = false }: ExcelUploadResultProps<M>): JSX.Element | null {
  const { shown } = upload;
  if (!shown) return null;
  const label = actions.find((action) => action.mode === shown.mode)?.label ?? shown.mode;
  const { fine = 0, resultId } = shown.result;
  return (
    <Panel
      title={u.resultTitle(label, shown.fileName)}
      actions={
        <Button variant="secondary" size="sm" onClick={upload.clear}>
          {u.clear}
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        <UploadTotals result={shown.result} />
        {fine > 0 && <h3 className="text-sm font-medium text-slate-700">{u.attentionHeading(shown.result.rows.length)}</h3>}
        {(fine === 0 || shown.result.rows.length > 0) && (
          <UploadResultTable
            key={shown.serial}
            rows={attentionFirst(shown.result.rows)}
            caption={fine > 0 ? u.attentionCaption : u.caption}
            showUpc={showUpc}
          />
        )}
        {fine > 0 && resultId && upload.loadFine && (
          <>
            <h3 className="text-sm font-medium text-slate-700">{u.fineCaption(fine)}</h3>
            <UploadFineRowsTable key={shown.serial} resultId={resultId} fine={fine} load={upload.loadFine} showUpc={showUpc} />
          </>
        )}
      </div>
    </Panel>
  );
}
