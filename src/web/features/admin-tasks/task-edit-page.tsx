// /admin/task/{id} (SPEC §2, §5): the admin's edit of a user task. What the task is (user, board,
// item, status, mainId-subId, delivery) is shown read-only; the form holds the fields the contract's
// updateTask allows (task-edit-form.ts), saved with '保存成功'. Afterwards, and on 'back', the page
// returns to the `back` query when it is a path of this app, else to /admin/tasks (an off-site
// `back` would make this form an open redirect). The task machine decides whether the admin may
// edit at all (not a pending or deleted task); when it says no, the page says why and offers no save.
import { Link, useRouter } from '@tanstack/react-router';
import type { JSX, ReactNode } from 'react';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { Form, FormError, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime } from '../../components/ui/format';
import { textLinkClass } from '../../components/ui/link-classes';
import { PageHeader, Panel } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { explainTaskRefusal, taskDisplayId } from '../../../../machines/task.machine';
import { useAppContext } from '../../app/app-context';
import { isAppPath, toLocalPath } from '../../navigation/navigate-to';
import { saveTask, type Task } from './admin-tasks-api';
import { canAdminEdit } from './task-actions';
import { taskEditBody, taskEditFields, taskEditSchema, type TaskEditFields, type TaskEditValues } from './task-edit-form';

const t = zh.adminTasks;
const E = t.edit;
const F = t.task;

export const TASK_LIST_PATH = '/admin/tasks';

/** Where the page returns to: a same-origin app path from `back`, else the task list. */
export function returnPath(back: string | undefined): string {
  const path = back ? toLocalPath(back) : null;
  return path !== null && isAppPath(path) ? path : TASK_LIST_PATH;
}

export interface TaskEditPageProps {
  task: Task;
  back?: string;
}

export function TaskEditPage({ task, back }: TaskEditPageProps): JSX.Element {
  const { api } = useAppContext();
  const router = useRouter();
  const target = returnPath(back);
  const editable = canAdminEdit(task);
  const form = useValibotForm(taskEditSchema, { defaultValues: taskEditFields(task) });

  async function onSubmit(values: TaskEditValues) {
    if (!(await saveTask(api, taskEditBody(task.id, values)))) return;
    await router.navigate({ href: target });
  }

  return (
    <div className="flex max-w-4xl min-w-0 flex-col gap-4">
      <PageHeader
        title={E.title(taskDisplayId(task))}
        actions={
          <Button variant="secondary" onClick={() => void router.navigate({ href: target })}>
            {E.back}
          </Button>
        }
      />
      <Panel title={E.info}>
        <TaskInfo task={task} />
      </Panel>
      <Panel title={E.form}>
        {!editable && <FormError className="mb-4" message={explainTaskRefusal(task.status, task, { type: 'task.edit', by: 'admin' })} />}
        <Form form={form} onSubmit={onSubmit} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField<TaskEditFields, 'count'> name="count" disabled={!editable} label={F.count} inputMode="numeric" />
          <TextField<TaskEditFields, 'labelCount'> name="labelCount" disabled={!editable} label={F.labelCount} inputMode="numeric" />
          <TextField<TaskEditFields, 'price'> name="price" disabled={!editable} label={F.price} inputMode="decimal" placeholder={E.pricePlaceholder} />
          <TextField<TaskEditFields, 'buyIn'> name="buyIn" disabled={!editable} label={F.buyIn} inputMode="decimal" placeholder={E.pricePlaceholder} />
          <TextField<TaskEditFields, 'bonus'> name="bonus" disabled={!editable} label={F.bonus} inputMode="decimal" />
          <TextField<TaskEditFields, 'punish'> name="punish" disabled={!editable} label={F.punish} inputMode="decimal" />
          {editable && (
            <div className="flex gap-2 sm:col-span-2">
              <Button type="submit" loading={form.formState.isSubmitting}>
                {E.save}
              </Button>
            </div>
          )}
        </Form>
      </Panel>
    </div>
  );
}

function TaskInfo({ task }: { task: Task }): JSX.Element {
  const rows: Array<[string, ReactNode]> = [
    [F.id, <span className="tabular-nums">{taskDisplayId(task)}</span>],
    [F.status, <TaskStatusBadge status={task.status} />],
    [F.user, task.nickName ? `${task.nickName}（#${task.userId}）` : `#${task.userId}`],
    [
      F.board,
      <Link to="/admin/board/$id" params={{ id: String(task.boardId) }} className={textLinkClass}>
        {task.boardName ?? `#${task.boardId}`}
      </Link>,
    ],
    [F.boardTask, `#${task.boardTaskId}`],
    [F.item, task.upc ? `${task.itemName}（${task.upc}）` : task.itemName],
    [F.productCount, task.productCount],
    [F.isHome, task.isHome ? t.yes : t.no],
    ...(task.isHome
      ? ([
          [F.state, task.state],
          [F.zipCode, task.zipCode],
        ] as Array<[string, ReactNode]>)
      : []),
    [F.trackingId, <span className="break-all">{task.trackingId.split(',').filter(Boolean).join(', ')}</span>],
    [F.createdAt, formatDateTime(task.createdAt)],
    [F.updatedAt, formatDateTime(task.updatedAt)],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="flex gap-3">
          <dt className="w-24 shrink-0 text-slate-500">{label}</dt>
          <dd className="min-w-0 text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
