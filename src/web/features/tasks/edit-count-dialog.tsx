// The edit-count dialog (SPEC §2 "A dialog claims or edits count", §5 Claim): the member changes the
// claimed count of an open task, and its labelCount when it ships home. isHome, state and zipCode
// are shown read-only: they are fixed once claimed. The rules are the claim machine's
// `claimFieldErrors` in 'edit' mode (the task's own units count as remaining), the same function the
// server applies to the quantity call, so the dialog and the server refuse the same counts with the
// same words. The server's refusal (or '操作失败') shows in the dialog; success toasts '保存成功'.
import { useId, useState, type JSX } from 'react';
import * as v from 'valibot';
import { claimFieldErrors, remainingOf, type ClaimField, type ClaimTarget } from '../../../../machines/claim.machine';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Checkbox, Form, FormError, TextField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { useRemote } from '../../lib/use-remote';
import { taskDisplayId } from './task-actions';
import { loadEditTarget, updateTaskCount, type Task } from './tasks-api';

const t = zh.tasks;

const EDIT_FIELDS: readonly ClaimField[] = ['count', 'state', 'zipCode', 'labelCount'];

/**
 * When the board task's limits cannot be read, the count is checked for being a whole number of at
 * least 1 only, and the server says whether it fits.
 */
const UNBOUNDED: ClaimTarget = {
  boardStatus: 'open',
  boardExpired: false,
  boardTaskStatus: 'normal',
  show: Number.POSITIVE_INFINITY,
  claimed: 0,
};

/** The form's schema for one task: the shape, then claimFieldErrors in 'edit' mode, each error on its field. */
export function editCountSchema(target: ClaimTarget | null, ownCount: number) {
  return v.pipe(
    v.object({
      count: v.string(),
      isHome: v.boolean(),
      state: v.string(),
      zipCode: v.string(),
      labelCount: v.string(),
    }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const values = dataset.value;
      const errors = claimFieldErrors(values, target ?? UNBOUNDED, 'edit', ownCount);
      for (const key of EDIT_FIELDS) {
        const message = errors[key];
        if (!message) continue;
        addIssue({ message, path: [{ type: 'object', origin: 'value', input: values, key, value: values[key] }] });
      }
    }),
  );
}

type EditCountValues = v.InferOutput<ReturnType<typeof editCountSchema>>;

export interface EditCountDialogProps {
  /** The task being edited (nothing is shown while it is null). */
  task: Task | null;
  open: boolean;
  onClose: () => void;
  /** Called after the count was saved. */
  onSaved: () => void;
}

export function EditCountDialog({ task, open, onClose, onSaved }: EditCountDialogProps): JSX.Element | null {
  if (!open || task === null) return null;
  return <OpenEditCountDialog key={task.id} task={task} onClose={onClose} onSaved={onSaved} />;
}

function OpenEditCountDialog({ task, onClose, onSaved }: { task: Task; onClose: () => void; onSaved: () => void }): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const limits = useRemote(`${task.boardId}:${task.boardTaskId}`, () => loadEditTarget(api, task));
  const [saving, setSaving] = useState(false);
  const [serverMessage, setServerMessage] = useState<string | null>(null);

  async function save(values: EditCountValues) {
    setSaving(true);
    setServerMessage(null);
    try {
      const outcome = await updateTaskCount(api, task, {
        count: Number(values.count),
        labelCount: task.isHome ? Number(values.labelCount) : null,
      });
      if (!outcome.ok) {
        setServerMessage(outcome.msg || t.failed);
        return;
      }
      toast.success(t.saveSuccess);
      onSaved();
      onClose();
    } finally {
      setSaving(false);
    }
  }

  const ready = !limits.loading || limits.data !== undefined;
  return (
    <Modal
      open
      onClose={onClose}
      title={
        <>
          {t.editTitle}
          <span className="ml-2 text-sm font-normal text-slate-500">{t.taskSubject(taskDisplayId(task), task.itemName)}</span>
        </>
      }
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving} disabled={!ready}>
            {t.save}
          </Button>
        </>
      }
    >
      {ready ? (
        <EditCountForm id={formId} task={task} target={limits.data ?? null} serverMessage={serverMessage} onSubmit={(values) => void save(values)} />
      ) : (
        <p className="text-sm text-slate-500">{t.loadingLimit}</p>
      )}
    </Modal>
  );
}

function EditCountForm({
  id,
  task,
  target,
  serverMessage,
  onSubmit,
}: {
  id: string;
  task: Task;
  target: ClaimTarget | null;
  serverMessage: string | null;
  onSubmit: (values: EditCountValues) => void;
}): JSX.Element {
  const form = useValibotForm(editCountSchema(target, task.count), {
    defaultValues: {
      count: String(task.count),
      isHome: task.isHome,
      state: task.state,
      zipCode: task.zipCode,
      labelCount: task.isHome ? String(task.labelCount) : '',
    },
  });
  return (
    <Form id={id} form={form} onSubmit={onSubmit} className="flex flex-col gap-3">
      <TextField<EditCountValues, 'count'>
        name="count"
        label={t.count}
        inputMode="numeric"
        autoComplete="off"
        hint={target ? t.maxCount(remainingOf(target) + task.count) : undefined}
      />
      <Checkbox<EditCountValues, 'isHome'> name="isHome" label={t.isHome} readOnly hint={t.homeFieldsFixed} />
      {task.isHome && (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <TextField<EditCountValues, 'state'> name="state" label={t.state} readOnly />
          <TextField<EditCountValues, 'zipCode'> name="zipCode" label={t.zipCode} readOnly />
          <TextField<EditCountValues, 'labelCount'> name="labelCount" label={t.labelCount} inputMode="numeric" autoComplete="off" />
        </div>
      )}
      <FormError message={serverMessage} />
    </Form>
  );
}
