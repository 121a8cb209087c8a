// The task record dialog (SPEC §2, §3 Purchased record, §5, §6): a task's purchased records. One
// component for both sides:
// - 'user' (the member): add a record ('请填写trackingId', '请填写数目'), edit or remove one unless
//   matched (what the scanned parcel was compared with), paste many at once (bulk-records.tsx,
//   decision 105) - all while the task machine's task.records allows (open or unmatch; otherwise the
//   dialog says so) - and 匹配 when it accepts task.match, with a line saying what that does.
// - 'admin': the records, read-only (the record calls are the member's; SPEC §6 gives 匹配 to the
//   user view only). Every change reloads the records and the task, and calls `onChanged`.
import { useState, type JSX } from 'react';
import * as v from 'valibot';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { Modal } from '../../components/ui/dialog';
import { Form, FormError, TextField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { useRemote } from '../../lib/use-remote';
import { taskMessages } from '../../../../machines/task.machine';
import { isRecordFrozen } from '../../../../machines/purchased-record.machine';
import { MAX_PRODUCT_COUNT, MAX_TRACKING_ID } from '../../../../machines/purchased-record';
import { nearMissMessages } from '../../../../machines/tracking-id';
import { trackingCarrierHint } from '../../components/carrier-hint';
import { BulkRecordsForm } from './bulk-records';
import { canMatch, memberMayChangeRecords, taskDisplayId } from './task-actions';
import { PurchasedStatusBadge } from '../../components/task-status-badges';
import { failureText, matchAndReport, reportFailure } from './task-outcomes';
import {
  createPurchased,
  loadPurchasedItems,
  loadTask,
  removePurchased,
  updatePurchased,
  type PurchasedItem,
  type PurchasedValues,
  type Task,
} from './tasks-api';

const t = zh.tasks;

export type TaskRecordView = 'user' | 'admin';

export interface TaskRecordDialogProps {
  /** The task whose records are shown (nothing is shown while it is null). */
  taskId: number | null;
  /** 'user': the member's dialog (add, edit, remove, match); 'admin': the records, read-only. */
  view: TaskRecordView;
  open: boolean;
  onClose: () => void;
  /** Called after every change the dialog made (a record added, edited or removed; a match). */
  onChanged?: () => void;
}

export function TaskRecordDialog({ taskId, view, open, onClose, onChanged }: TaskRecordDialogProps): JSX.Element | null {
  if (!open || taskId === null) return null;
  // Keyed by task: another task starts with a fresh form and fresh loads.
  return <OpenTaskRecordDialog key={taskId} taskId={taskId} view={view} onClose={onClose} onChanged={onChanged} />;
}

/**
 * A record is changeable in the member's view while the task machine lets the member change the
 * task's records (open or unmatch), unless matching has tied it to a parcel (SPEC §5).
 */
export function canChangeRecord(
  view: TaskRecordView,
  record: Pick<PurchasedItem, 'status'>,
  task: Pick<Task, 'status' | 'productCount' | 'canSplit'>,
): boolean {
  return view === 'user' && !isRecordFrozen(record) && memberMayChangeRecords(task);
}

function OpenTaskRecordDialog({
  taskId,
  view,
  onClose,
  onChanged,
}: {
  taskId: number;
  view: TaskRecordView;
  onClose: () => void;
  onChanged?: () => void;
}): JSX.Element {
  const { api } = useAppContext();
  const [revision, setRevision] = useState(0);
  const task = useRemote(`task:${taskId}:${revision}`, () => loadTask(api, taskId));
  const records = useRemote(`records:${taskId}:${revision}`, () => loadPurchasedItems(api, taskId));
  const [editing, setEditing] = useState<PurchasedItem | null>(null);
  const [matching, setMatching] = useState(false);
  const [pasting, setPasting] = useState(false);

  const changed = () => {
    setRevision((r) => r + 1);
    onChanged?.();
  };

  async function remove(record: PurchasedItem) {
    if (!(await confirmDialog(t.confirmRemoveRecord(record.trackingId), { danger: true }))) return;
    const outcome = await removePurchased(api, record.id);
    if (!reportFailure(outcome, t.deleteFailed)) return;
    toast.success(t.deleteSuccess);
    if (editing?.id === record.id) setEditing(null);
    changed();
  }

  async function match() {
    setMatching(true);
    try {
      await matchAndReport(api, taskId);
    } finally {
      setMatching(false);
    }
    changed();
  }

  const current = task.data ?? null;
  const offerMatch = view === 'user' && current !== null && canMatch(current);

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={
        <>
          {t.recordsTitle}
          {current && <span className="ml-2 text-sm font-normal text-slate-500">{t.taskSubject(taskDisplayId(current), current.itemName)}</span>}
        </>
      }
      footer={<DialogFooter taskId={taskId} offerMatch={offerMatch} matching={matching} onMatch={() => void match()} onClose={onClose} />}
    >
      <div className="flex flex-col gap-4">
        {current && <TaskSummary task={current} />}
        {task.data === null && <p className="text-sm text-slate-500">{t.taskNotFound}</p>}
        <RecordTable records={records.data} task={current} view={view} onEdit={setEditing} onRemove={(record) => void remove(record)} />
        {view === 'user' && current && !memberMayChangeRecords(current) && <p className="text-sm text-slate-500">{taskMessages.recordsOpenOrUnmatch}</p>}
        {view === 'user' && current && memberMayChangeRecords(current) && (
          <MemberRecordForms
            taskId={taskId}
            task={current}
            records={records.data}
            editing={editing}
            onEditing={setEditing}
            pasting={pasting}
            onPasting={setPasting}
            onChanged={changed}
          />
        )}
      </div>
    </Modal>
  );
}

/** 匹配 (with its hint) when the member may match the task now, and 关闭. */
function DialogFooter({
  taskId,
  offerMatch,
  matching,
  onMatch,
  onClose,
}: {
  taskId: number;
  offerMatch: boolean;
  matching: boolean;
  onMatch: () => void;
  onClose: () => void;
}): JSX.Element {
  return (
    <>
      {offerMatch && (
        <>
          <p id={`match-hint-${taskId}`} className="mr-auto self-center text-xs text-slate-500">
            {t.actionHint.match}
          </p>
          <Button variant="secondary" loading={matching} aria-describedby={`match-hint-${taskId}`} onClick={onMatch}>
            {t.match}
          </Button>
        </>
      )}
      <Button variant="secondary" onClick={onClose}>
        {t.close}
      </Button>
    </>
  );
}

/** What a member who may change the task's records gets: the record form (new or the one edited) and the bulk paste. */
function MemberRecordForms({
  taskId,
  task,
  records,
  editing,
  onEditing,
  pasting,
  onPasting,
  onChanged,
}: {
  taskId: number;
  task: Task;
  records: PurchasedItem[] | undefined;
  editing: PurchasedItem | null;
  onEditing: (record: PurchasedItem | null) => void;
  pasting: boolean;
  onPasting: (update: (open: boolean) => boolean) => void;
  onChanged: () => void;
}): JSX.Element {
  return (
    <>
      <RecordForm
        key={editing?.id ?? 'new'}
        taskId={taskId}
        editing={editing}
        onCancelEdit={() => onEditing(null)}
        onSaved={() => {
          onEditing(null);
          onChanged();
        }}
      />
      <div className="rounded-md border border-slate-200 p-3">
        <Button variant="link" aria-expanded={pasting} onClick={() => onPasting((open) => !open)}>
          {t.bulk.toggle}
        </Button>
        {pasting && records && (
          <div className="mt-3">
            <BulkRecordsForm tasks={[{ ...task, trackings: records }]} onSaved={onChanged} />
          </div>
        )}
      </div>
    </>
  );
}

function TaskSummary({ task }: { task: Task }): JSX.Element {
  return (
    <p className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
      <TaskStatusBadge status={task.status} />
      <span>{t.summary(task.count, task.productCount)}</span>
    </p>
  );
}

function RecordTable({
  records,
  task,
  view,
  onEdit,
  onRemove,
}: {
  records: PurchasedItem[] | undefined;
  /** The task, once loaded: its state decides whether records may change. */
  task: Task | null;
  view: TaskRecordView;
  onEdit: (record: PurchasedItem) => void;
  onRemove: (record: PurchasedItem) => void;
}): JSX.Element {
  if (records === undefined) return <p className="text-sm text-slate-500">{t.recordsLoading}</p>;
  if (records.length === 0) return <p className="text-sm text-slate-500">{t.recordsNone}</p>;
  const head = [t.colRecordTracking, t.colRecordCount, t.colRecordStatus, t.colRecordMsg, ...(view === 'user' ? [t.colActions] : [])];
  return (
    <div
      role="region"
      aria-label={t.recordsCaption}
      tabIndex={0}
      className="overflow-x-auto rounded-md border border-slate-200 focus-visible:outline-2 focus-visible:outline-blue-500"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{t.recordsCaption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {head.map((label) => (
              <th key={label} scope="col" className="px-3 py-2 text-left font-medium whitespace-nowrap text-slate-600">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {records.map((record) => (
            <tr key={record.id}>
              {/* What the member typed; the key it is compared by in the title when they differ (decision 097). */}
              <td className="px-3 py-2 font-mono text-xs [overflow-wrap:anywhere]" title={record.typedTrackingId ? record.trackingId : undefined}>
                {record.typedTrackingId ?? record.trackingId}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{record.productCount}</td>
              <td className="px-3 py-2">
                <PurchasedStatusBadge record={record} />
              </td>
              <td className="px-3 py-2 text-slate-600">
                {record.msg}
                {/* A parcel nobody recorded arrived with an id near this one (decision 098): shown in full, to correct a typo. */}
                {record.nearArrival && <p className="text-amber-800">{nearMissMessages.member(record.nearArrival)}</p>}
              </td>
              {view === 'user' && (
                <td className="px-3 py-2 whitespace-nowrap">
                  {task && canChangeRecord(view, record, task) ? (
                    <div className="flex gap-3">
                      <Button variant="link" aria-label={`${t.recordEdit} ${record.trackingId}`} onClick={() => onEdit(record)}>
                        {t.recordEdit}
                      </Button>
                      <Button variant="link" aria-label={`${t.recordDelete} ${record.trackingId}`} onClick={() => onRemove(record)}>
                        {t.recordDelete}
                      </Button>
                    </div>
                  ) : isRecordFrozen(record) ? (
                    <span className="text-xs text-slate-500">{t.recordLocked}</span>
                  ) : null}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The record's bounds (machines/purchased-record.ts): trackingId 1..64 characters, productCount 1..1000000. */
const MAX_TRACKING_LENGTH = MAX_TRACKING_ID;
const MAX_RECORD_COUNT = MAX_PRODUCT_COUNT;

export const recordFormSchema = v.object({
  trackingId: v.pipe(v.string(), v.trim(), v.nonEmpty(t.trackingRequired), v.maxLength(MAX_TRACKING_LENGTH, t.trackingTooLong)),
  productCount: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(t.countRequired),
    // Empty passes here so that a blank count gets only '请填写数目'.
    v.regex(/^(\d{1,7})?$/, t.countNotNumber),
    v.transform(Number),
    v.minValue(1, t.countNotNumber),
    v.maxValue(MAX_RECORD_COUNT, t.countNotNumber),
  ),
});

type RecordFormInput = v.InferInput<typeof recordFormSchema>;

function RecordForm({
  taskId,
  editing,
  onCancelEdit,
  onSaved,
}: {
  taskId: number;
  editing: PurchasedItem | null;
  onCancelEdit: () => void;
  onSaved: () => void;
}): JSX.Element {
  const { api } = useAppContext();
  const form = useValibotForm(recordFormSchema, {
    defaultValues: editing
      ? { trackingId: editing.typedTrackingId ?? editing.trackingId, productCount: String(editing.productCount) }
      : { trackingId: '', productCount: '' },
  });
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const typedTracking = form.watch('trackingId');

  async function submit(values: PurchasedValues) {
    setSaving(true);
    setServerMessage(null);
    try {
      const outcome = editing ? await updatePurchased(api, editing.id, values) : await createPurchased(api, taskId, values);
      if (!outcome.ok) {
        setServerMessage(failureText(t.failed, outcome.msg));
        return;
      }
      toast.success(editing ? t.saveSuccess : t.createSuccess);
      if (!editing) form.reset({ trackingId: '', productCount: '' });
      onSaved();
    } finally {
      setSaving(false);
    }
  }

  return (
    <Form
      form={form}
      onSubmit={(values) => void submit(values)}
      aria-label={editing ? t.editRecord(editing.trackingId) : t.addRecord}
      className="rounded-md border border-slate-200 bg-slate-50 p-3"
    >
      <h3 className="mb-2 text-sm font-semibold text-slate-800">{editing ? t.editRecord(editing.trackingId) : t.addRecord}</h3>
      <div className="grid grid-cols-1 items-start gap-3 sm:grid-cols-[minmax(0,1fr)_8rem_auto]">
        <TextField<RecordFormInput, 'trackingId'>
          name="trackingId"
          label={t.recordTracking}
          autoComplete="off"
          maxLength={MAX_TRACKING_LENGTH}
          hint={trackingCarrierHint(typedTracking ?? '')}
        />
        <TextField<RecordFormInput, 'productCount'> name="productCount" label={t.recordCount} inputMode="numeric" autoComplete="off" />
        <div className="flex gap-2 sm:mt-6">
          <Button type="submit" loading={saving}>
            {editing ? t.save : t.add}
          </Button>
          {editing && (
            <Button variant="secondary" disabled={saving} onClick={onCancelEdit}>
              {t.cancel}
            </Button>
          )}
        </div>
      </div>
      <FormError message={serverMessage} className="mt-3" />
    </Form>
  );
}
