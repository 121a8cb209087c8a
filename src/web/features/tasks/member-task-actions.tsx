// The per-row actions of a member's task (/user/my-task and the board page's 'my tasks'); which a row
// offers is task-actions.ts (the task machine). upload: /user/upload; records: the record dialog
// (user view); edit: the edit-count dialog; delete: confirmed, then '删除成功' / '删除失败'; split:
// confirmed, '拆分失败' on failure; match: the member's match call and its outcome (task-outcomes.ts);
// split and match say in one line what they do (tooltip; the split's confirmation); labelPdf: the
// label PDF in a new tab. After a change the table reloads after SPEC §9's 10 ms delay.
// <MemberTaskActionsScope> holds one table's dialogs and running action; a row renders
// <MemberTaskActionCell task={...} />, so the columns can stay stable.
import { Link } from '@tanstack/react-router';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type JSX, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { textLinkClass } from '../../components/ui/link-classes';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { STATUS_RELOAD_DELAY_MS } from '../../lib/status-reload';
import { EditCountDialog } from './edit-count-dialog';
import { memberTaskActions, taskDisplayId, type MemberTaskAction } from './task-actions';
import { matchAndReport, reportFailure } from './task-outcomes';
import { TaskRecordDialog } from './task-record-dialog';
import { deleteTask, labelPdfUrl, splitTask, type Task } from './tasks-api';

const t = zh.tasks;

type RunningAction = { taskId: number; action: MemberTaskAction } | null;

interface TaskActionsController {
  run: (action: MemberTaskAction, task: Task) => void;
  running: RunningAction;
}

const TaskActionsContext = createContext<TaskActionsController | null>(null);

export interface MemberTaskActionsScopeProps {
  /** Reloads the table (called after every change an action made). */
  onChanged: () => void;
  children: ReactNode;
}

type OpenDialog = { kind: 'edit' | 'records'; task: Task } | null;

export function MemberTaskActionsScope({ onChanged, children }: MemberTaskActionsScopeProps): JSX.Element {
  const { api } = useAppContext();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [running, setRunning] = useState<RunningAction>(null);

  const onChangedRef = useRef(onChanged);
  useEffect(() => {
    onChangedRef.current = onChanged;
  });
  const reload = useCallback(() => {
    setTimeout(() => onChangedRef.current(), STATUS_RELOAD_DELAY_MS);
  }, []);

  const perform = useCallback(
    async (action: MemberTaskAction, task: Task) => {
      const label = taskDisplayId(task);
      switch (action) {
        case 'edit':
        case 'records':
          setDialog({ kind: action, task });
          return;
        case 'upload':
          return; // a link, see MemberTaskActionCell
        case 'delete': {
          if (!(await confirmDialog(t.confirmDelete(label), { danger: true }))) return;
          const outcome = await deleteTask(api, task.id);
          if (reportFailure(outcome, t.deleteFailed)) toast.success(t.deleteSuccess);
          break;
        }
        case 'split': {
          if (!(await confirmDialog(`${t.confirmSplit(label)}\n${t.actionHint.split}`))) return;
          const outcome = await splitTask(api, task.id);
          if (reportFailure(outcome, t.splitFailed)) {
            const parts = outcome.data.tasks?.map(taskDisplayId) ?? [];
            toast.success(parts.length > 0 ? t.splitSuccess(parts) : outcome.msg || t.done);
          }
          break;
        }
        case 'match':
          await matchAndReport(api, task.id);
          break;
        case 'labelPdf':
          await openLabelPdf(api, task.id);
          return; // nothing changed
      }
      reload();
    },
    [api, reload],
  );

  const run = useCallback(
    (action: MemberTaskAction, task: Task) => {
      setRunning({ taskId: task.id, action });
      void perform(action, task).finally(() => setRunning(null));
    },
    [perform],
  );

  const controller = useMemo(() => ({ run, running }), [run, running]);
  const close = () => setDialog(null);

  return (
    <TaskActionsContext.Provider value={controller}>
      {children}
      <EditCountDialog task={dialog?.kind === 'edit' ? dialog.task : null} open={dialog?.kind === 'edit'} onClose={close} onSaved={reload} />
      <TaskRecordDialog
        taskId={dialog?.kind === 'records' ? dialog.task.id : null}
        view="user"
        open={dialog?.kind === 'records'}
        onClose={close}
        onChanged={reload}
      />
    </TaskActionsContext.Provider>
  );
}

/**
 * Opens the label PDF in a new tab. The tab is opened before the token is fetched, while the click
 * still counts as the user's (a tab opened after an await is often blocked as a pop-up), and is
 * closed again when no token comes.
 */
async function openLabelPdf(api: Parameters<typeof labelPdfUrl>[0], taskId: number): Promise<void> {
  const tab = window.open('', '_blank');
  let url: string | null = null;
  try {
    url = await labelPdfUrl(api, taskId);
  } catch {
    url = null;
  }
  if (url === null) {
    tab?.close();
    return;
  }
  if (tab) {
    tab.opener = null;
    tab.location.href = url;
  } else {
    window.location.assign(url);
  }
}

/**
 * Classes for a table's action column: it stays in view at the right edge while a wide table
 * scrolls sideways (its own background, the header's on the header cell, a hairline on its left).
 */
export const ACTION_COLUMN_CLASS = 'sticky right-0 min-w-36 bg-white shadow-[inset_1px_0_0_#e2e8f0] [&:is(th)]:bg-slate-50';

export interface MemberTaskActionCellProps {
  task: Task;
  /** The actions this table offers at all (all of them when absent); the machine picks among them. */
  only?: readonly MemberTaskAction[];
}

/** The action buttons of one task row, as the task machine allows them. */
export function MemberTaskActionCell({ task, only }: MemberTaskActionCellProps): JSX.Element {
  const controller = useContext(TaskActionsContext);
  if (!controller) throw new Error('MemberTaskActionCell needs a MemberTaskActionsScope');
  const { run, running } = controller;
  const actions = memberTaskActions(task).filter((action) => !only || only.includes(action));
  return (
    <div className="flex flex-wrap gap-x-3 gap-y-1">
      {actions.map((action) =>
        action === 'upload' ? (
          <Link key={action} to="/user/upload" className={textLinkClass}>
            {t.action.upload}
          </Link>
        ) : (
          <Button
            key={action}
            variant="link"
            title={action === 'split' || action === 'match' ? t.actionHint[action] : undefined}
            loading={running?.taskId === task.id && running.action === action}
            disabled={running?.taskId === task.id}
            onClick={() => run(action, task)}
          >
            {t.action[action]}
          </Button>
        ),
      )}
    </div>
  );
}
