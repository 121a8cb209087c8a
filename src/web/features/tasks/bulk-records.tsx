// The paste box (decision 105): many `tracking [quantity]` lines recorded for one task in one call
// (POST /api/purchased/user/{taskId}/bulk). What is typed is parsed at once by the parser the server
// uses (machines/purchased-record.ts parsePurchasedLines), checked against what the page knows of the
// task (its tracking ids, count and recorded units) and previewed line by line; it is sent only when
// every line passes. The server decides again under its locks, all or nothing: its per-line answer
// replaces the preview until the text changes. One form for the record dialog (its task) and for
// /user/my-task, where the task is chosen first among all the member's tasks that can take records,
// read from the server when the dialog opens, whatever page or filter the table shows (decision 108).
import { useState, type JSX } from 'react';
import { useWatch } from 'react-hook-form';
import * as v from 'valibot';
import { trackingCarrierHint } from '../../components/carrier-hint';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, FormError, SelectField, TextArea, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { saysSucc } from '../../../api/outcome';
import { BULK_MAX_TEXT, parsePurchasedLines, pasteIsClean, unitsLeftToRecord, type PastedLine } from '../../../../machines/purchased-record';
import { useRemote } from '../../lib/use-remote';
import { taskDisplayId } from './task-actions';
import { failureText } from './task-outcomes';
import { createPurchasedBulk, loadRecordableTasks, type Task } from './tasks-api';

const t = zh.tasks;
const b = zh.tasks.bulk;

/** What the box needs of a task: who it is, its count and the records it has. */
export type BulkTask = Pick<Task, 'id' | 'mainId' | 'subId' | 'itemName' | 'count'> & {
  trackings: readonly { trackingId: string; productCount: number }[];
};

const bulkSchema = v.object({
  taskId: v.union([v.number(), v.literal('')]),
  text: v.pipe(v.string(), v.maxLength(BULK_MAX_TEXT)),
});
type BulkInput = v.InferInput<typeof bulkSchema>;

const recordedUnitsOf = (task: BulkTask) => task.trackings.reduce((n, r) => n + r.productCount, 0);

/** How many more units the task's records may hold. */
const unitsLeftOf = (task: BulkTask) => unitsLeftToRecord({ count: task.count, recordedUnits: recordedUnitsOf(task) });

/** The preview of `text` for `task`: the server's own rules, on what the page knows of the task. */
export function previewLines(text: string, task: BulkTask | undefined) {
  return parsePurchasedLines(
    text,
    task && {
      recorded: task.trackings.map((r) => r.trackingId),
      count: task.count,
      recordedUnits: recordedUnitsOf(task),
    },
  );
}

export interface BulkRecordsFormProps {
  /** One task (the record dialog's), or the tasks to choose from (/user/my-task). */
  tasks: readonly BulkTask[];
  /** Called after the lines were recorded. */
  onSaved: () => void;
  onCancel?: () => void;
}

export function BulkRecordsForm({ tasks, onSaved, onCancel }: BulkRecordsFormProps): JSX.Element {
  const { api } = useAppContext();
  const single = tasks.length === 1 && onCancel === undefined;
  const form = useValibotForm(bulkSchema, { defaultValues: { taskId: tasks.length === 1 ? tasks[0]!.id : '', text: '' } });
  const [taskId, text] = useWatch({ control: form.control, name: ['taskId', 'text'] });
  const task = tasks.find((x) => x.id === taskId);
  const [answered, setAnswered] = useState<{ taskId: number; text: string; rows: PastedLine[] } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const parsed = previewLines(text ?? '', task);
  const server = answered && answered.text === text && answered.taskId === taskId ? answered.rows : null;
  const rows = server ?? parsed.lines;
  const typed = (text ?? '').trim() !== '';
  const sendable = task !== undefined && pasteIsClean(parsed);

  async function submit(values: v.InferOutput<typeof bulkSchema>) {
    if (values.taskId === '' || !sendable) return;
    setSaving(true);
    setFailure(null);
    try {
      const outcome = await createPurchasedBulk(api, values.taskId, values.text);
      if (!outcome.ok) {
        setFailure(failureText(t.failed, outcome.msg));
        return;
      }
      if (saysSucc(outcome.data)) {
        toast.success(outcome.data.msg || t.createSuccess);
        setAnswered(null);
        form.reset({ taskId: values.taskId, text: '' });
        onSaved();
        return;
      }
      setAnswered({ taskId: values.taskId, text: values.text, rows: outcome.data.rows });
      setFailure(outcome.data.msg ? t.withReason(b.serverRefused, outcome.data.msg) : b.serverRefused);
    } finally {
      setSaving(false);
    }
  }

  const refused = rows.filter((r) => !r.ok).length;
  return (
    <Form form={form} onSubmit={(values) => void submit(values)} aria-label={b.title} className="flex flex-col gap-3">
      {!single && (
        <SelectField<BulkInput, 'taskId', number>
          name="taskId"
          label={b.task}
          placeholder={b.taskPlaceholder}
          options={tasks.map((x) => ({ value: x.id, label: b.taskOption(t.taskSubject(taskDisplayId(x), x.itemName), unitsLeftOf(x)) }))}
        />
      )}
      <TextArea<BulkInput, 'text'>
        name="text"
        label={b.text}
        hint={b.hint}
        rows={6}
        maxLength={BULK_MAX_TEXT}
        inputClassName="font-mono text-sm"
        spellCheck={false}
      />
      {typed && (parsed.error && !server ? <p className="text-sm text-red-700">{parsed.error}</p> : <Preview rows={rows} refused={refused} />)}
      <FormError message={failure} />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="secondary" disabled={saving} onClick={onCancel}>
            {b.cancel}
          </Button>
        )}
        <Button type="submit" loading={saving} disabled={!sendable}>
          {sendable ? b.submit(parsed.lines.length) : b.submitEmpty}
        </Button>
      </div>
    </Form>
  );
}

/** The carrier of a pasted line's id and its check-digit warning (decision 097), when a carrier writes it so. */
function CarrierLine({ tracking }: { tracking: string }): JSX.Element | null {
  const hint = trackingCarrierHint(tracking);
  return hint && <div className="font-sans text-slate-500">{hint}</div>;
}

function Preview({ rows, refused }: { rows: readonly PastedLine[]; refused: number }): JSX.Element {
  return (
    <div className="flex flex-col gap-2">
      <p role="status" className={`text-sm ${refused ? 'text-red-700' : 'text-slate-700'}`}>
        {b.counts(rows.length, refused)}
      </p>
      <div className="max-h-64 overflow-auto rounded-md border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{b.previewCaption}</caption>
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              {[b.colLine, t.colRecordTracking, b.colQty, b.colCheck].map((label) => (
                <th key={label} scope="col" className="px-3 py-1.5 text-left font-medium whitespace-nowrap text-slate-600">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.line} className={row.ok ? '' : 'bg-red-50'}>
                <td className="px-3 py-1.5 text-right text-slate-600 tabular-nums">{row.line}</td>
                <td className="px-3 py-1.5 font-mono text-xs break-all">
                  {row.tracking}
                  <CarrierLine tracking={row.tracking} />
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums">{row.qty ?? ''}</td>
                <td className={`px-3 py-1.5 ${row.ok ? 'text-green-700' : 'text-red-700'}`}>
                  <span aria-hidden="true">{row.ok ? '✓ ' : '✕ '}</span>
                  {row.ok ? b.lineOk : row.msg}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A task of the member's list as the paste box reads it. */
const bulkTaskOf = (task: Task): BulkTask => ({ ...task, trackings: task.trackings ?? [] });

export interface BulkRecordsDialogProps {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** /user/my-task: choose the task (any of the member's tasks with room for records), then paste. */
export function BulkRecordsDialog({ open, onClose, onSaved }: BulkRecordsDialogProps): JSX.Element | null {
  if (!open) return null;
  return (
    <Modal open onClose={onClose} size="lg" title={b.title}>
      <RecordableTasks onClose={onClose} onSaved={onSaved} />
    </Modal>
  );
}

/** The dialog's body: read afresh each time it opens (a paste or a scan changes which tasks have room). */
function RecordableTasks({ onClose, onSaved }: Omit<BulkRecordsDialogProps, 'open'>): JSX.Element {
  const { api } = useAppContext();
  const remote = useRemote('recordable-tasks', () => loadRecordableTasks(api));
  if (remote.data === undefined)
    return (
      <p role="status" className="text-sm text-slate-600">
        {remote.loading ? b.loading : b.noTask}
      </p>
    );
  const tasks = remote.data.map(bulkTaskOf).filter((task) => unitsLeftOf(task) > 0);
  if (tasks.length === 0) return <p className="text-sm text-slate-600">{b.noTask}</p>;
  return (
    <BulkRecordsForm
      tasks={tasks}
      onCancel={onClose}
      onSaved={() => {
        onSaved();
        onClose();
      }}
    />
  );
}
