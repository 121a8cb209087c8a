// /admin/boardtask/{boardId}/{taskId|new} (SPEC §2, §5): the board task form in its two variants
// (简易表单 for a new one, 完整表单 for an existing one; board-task-form.ts), saved with saveBoardTask. Afterwards, and on 'back', the page
// returns to the `back` query when it is a path of this app, else to /admin/board/{boardId} (an
// off-site `back` would make this form an open redirect).
import { useRouter } from '@tanstack/react-router';
import { useId, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { useForm } from 'react-hook-form';
import { Form, SelectField, TextArea, TextField } from '../../components/ui/form';
import { PageHeader, Panel } from '../../components/ui/page';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { ItemPickerField } from '../../components/item-picker';
import { isAppPath, toLocalPath } from '../../navigation/navigate-to';
import { boardPath } from './board-task-table';
import {
  BOARD_TASK_STATUSES,
  boardTaskBody,
  boardTaskFormFields,
  boardTaskResolver,
  itemDefaults,
  type BoardTaskFormFields,
  type BoardTaskFormValues,
  type BoardTaskFormVariant,
} from './board-task-form';
import { saveBoardTask, type BoardTask } from './boards-api';

const t = zh.boards;
const L = t.boardTask;

/** Where the page returns to: a same-origin app path from `back`, else the board. */
export function returnPath(back: string | undefined, boardId: number): string {
  const path = back ? toLocalPath(back) : null;
  return path !== null && isAppPath(path) ? path : boardPath(boardId);
}

const STATUS_OPTIONS = BOARD_TASK_STATUSES.map((status) => ({ value: status, label: zh.status.boardTask[status] }));

export interface BoardTaskPageProps {
  boardId: number;
  /** null: a new board task. */
  task: BoardTask | null;
  back?: string;
}

export function BoardTaskPage({ boardId, task, back }: BoardTaskPageProps): JSX.Element {
  const { api } = useAppContext();
  const router = useRouter();
  // The form holds the fields of both variants; the schema validates those of the chosen one.
  const form = useForm<BoardTaskFormFields, unknown, BoardTaskFormValues>({
    resolver: boardTaskResolver,
    defaultValues: boardTaskFormFields(task),
  });
  const variant = form.watch('variant');
  const target = returnPath(back, boardId);

  function chooseVariant(next: BoardTaskFormVariant) {
    form.clearErrors();
    form.setValue('variant', next);
  }

  async function onSubmit(values: BoardTaskFormValues) {
    const saved = await saveBoardTask(api, boardId, boardTaskBody(values, task?.id ?? null));
    if (!saved) return;
    toast.success(task ? t.saved : t.created);
    await router.navigate({ href: target });
  }

  return (
    <div className="flex max-w-4xl min-w-0 flex-col gap-4">
      <PageHeader
        title={task ? L.editTitle(task.id) : L.newTitle}
        description={L.ofBoard(boardId)}
        actions={
          <Button variant="secondary" onClick={() => void router.navigate({ href: target })}>
            {L.back}
          </Button>
        }
      />
      <Panel>
        <VariantToggle value={variant} onChange={chooseVariant} />
        <Form form={form} onSubmit={onSubmit} className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          <ItemPickerField<BoardTaskFormFields, 'itemId'>
            name="itemId"
            label={L.itemId}
            className="sm:col-span-2"
            onItemChange={(item) => {
              if (!item) return;
              for (const [field, value] of Object.entries(itemDefaults(form.getValues(), item)) as Array<['url' | 'price', string]>) {
                form.setValue(field, value, { shouldDirty: true });
              }
            }}
          />
          {variant === 'full' && <TextField<BoardTaskFormFields, 'url'> name="url" label={L.url} className="sm:col-span-2" placeholder="https://" />}
          <TextField<BoardTaskFormFields, 'price'> name="price" label={L.price} inputMode="decimal" hint={variant === 'simple' ? L.simpleHint : undefined} />
          <TextField<BoardTaskFormFields, 'buyIn'> name="buyIn" label={L.buyIn} inputMode="decimal" />
          <TextField<BoardTaskFormFields, 'show'> name="show" label={L.show} inputMode="numeric" />
          {variant === 'full' && (
            <>
              <TextField<BoardTaskFormFields, 'need'> name="need" label={L.need} inputMode="numeric" />
              <TextField<BoardTaskFormFields, 'averageCost'> name="averageCost" label={L.averageCost} inputMode="decimal" />
              <TextField<BoardTaskFormFields, 'address'> name="address" label={L.address} placeholder={L.defaultAddress} hint={L.addressHint} />
              <SelectField<BoardTaskFormFields, 'status', (typeof BOARD_TASK_STATUSES)[number]> name="status" label={L.status} options={STATUS_OPTIONS} />
              <TextField<BoardTaskFormFields, 'itemSource'> name="itemSource" label={L.itemSource} />
              <TextArea<BoardTaskFormFields, 'note'> name="note" label={L.note} rows={3} className="sm:col-span-2" />
            </>
          )}
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" loading={form.formState.isSubmitting}>
              {L.save}
            </Button>
          </div>
        </Form>
      </Panel>
    </div>
  );
}

function VariantToggle({ value, onChange }: { value: BoardTaskFormVariant; onChange: (variant: BoardTaskFormVariant) => void }): JSX.Element {
  const name = useId();
  const options: Array<[BoardTaskFormVariant, string]> = [
    ['full', L.variantFull],
    ['simple', L.variantSimple],
  ];
  return (
    <fieldset className="flex items-center gap-4 text-sm">
      <legend className="sr-only">{L.variant}</legend>
      {options.map(([variant, label]) => (
        <label key={variant} className="flex cursor-pointer items-center gap-1.5">
          <input type="radio" name={name} value={variant} checked={value === variant} onChange={() => onChange(variant)} className="size-4" />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
