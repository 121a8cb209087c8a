// The per-row actions of /admin/tasks. The lifecycle ones (accept, reject, edit, match, close,
// delete) appear exactly when the task machine allows their event (task-actions.ts); records opens
// the purchased-records dialog in its admin form. Accept, reject, close and delete ask first; each
// answer is the server's msg or '操作成功' / '操作失败' (SPEC §8), and the list reloads either way, so
// a refused action also shows the task as it now is.
import { Link } from '@tanstack/react-router';
import { useState, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { textLinkClass } from '../../components/ui/link-classes';
import { zh } from '../../i18n/zh';
import type { ApiClient } from '../../../api/client';
import { useAppContext } from '../../app/app-context';
import { matchTask, setTaskStatus, showOutcome, type Outcome, type Task } from './admin-tasks-api';
import { decideClaim } from '../../lib/task-calls';
import { DELETED_TASK_STATUS, taskDisplayId } from '../../../../machines/task.machine';
import { adminTaskActions, canViewRecords, type AdminTaskAction } from './task-actions';

const t = zh.adminTasks.actions;

type CallAction = Exclude<AdminTaskAction, 'edit'>;

const LABEL: Record<AdminTaskAction, string> = {
  accept: t.accept,
  reject: t.reject,
  edit: t.edit,
  match: t.match,
  close: t.close,
  delete: t.delete,
};

const CONFIRM: Partial<Record<CallAction, { message: (label: string) => string; danger?: boolean }>> = {
  accept: { message: t.confirmAccept },
  reject: { message: t.confirmReject, danger: true },
  close: { message: t.confirmClose, danger: true },
  delete: { message: t.confirmDelete, danger: true },
};

function call(api: ApiClient, action: CallAction, task: Task): Promise<Outcome> {
  switch (action) {
    case 'accept':
    case 'reject':
      return decideClaim(api, action, task.id);
    case 'match':
      return matchTask(api, task.id);
    case 'close':
      return setTaskStatus(api, task, 'closed');
    case 'delete':
      return setTaskStatus(api, task, DELETED_TASK_STATUS);
  }
}

export interface TaskRowActionsProps {
  task: Task;
  /** The list's own address, for the edit page's ?back=. */
  back: string;
  onChanged: () => Promise<void> | void;
  onRecords: (task: Task) => void;
}

export function TaskRowActions({ task, back, onChanged, onRecords }: TaskRowActionsProps): JSX.Element {
  const { api } = useAppContext();
  const [busy, setBusy] = useState<CallAction | null>(null);
  const label = taskDisplayId(task);
  const actions = adminTaskActions(task);

  async function perform(action: CallAction) {
    const ask = CONFIRM[action];
    if (ask && !(await confirmDialog(ask.message(label), { danger: ask.danger }))) return;
    setBusy(action);
    try {
      showOutcome(await call(api, action, task));
      await onChanged();
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      {actions.map((action) =>
        action === 'edit' ? (
          <Link
            key={action}
            to="/admin/task/$id"
            params={{ id: String(task.id) }}
            search={{ back }}
            aria-label={t.named(LABEL.edit, label)}
            className={textLinkClass}
          >
            {LABEL.edit}
          </Link>
        ) : (
          <Button
            key={action}
            variant="link"
            aria-label={t.named(LABEL[action], label)}
            loading={busy === action}
            disabled={busy !== null}
            onClick={() => void perform(action)}
          >
            {LABEL[action]}
          </Button>
        ),
      )}
      {canViewRecords(task) && (
        <Button variant="link" aria-label={t.named(t.records, label)} onClick={() => onRecords(task)}>
          {t.records}
        </Button>
      )}
    </div>
  );
}
