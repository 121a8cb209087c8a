// The board's basic information (SPEC §3 Board, §5 "Board: all fields except id required
// ('{field}必填')"): boardName, remark, publishAt and expireAt, the times edited as local
// datetime-local values and sent as epoch milliseconds (SPEC §9). The server refuses an expiry that
// is not after the publish time with the same words this form uses. A new board's publish time starts
// at the current minute (decision 110: publishing is what opens a board, so "now" is what an admin
// means); the expiry starts empty, a date only the admin can choose.
import { useNavigate, useRouter } from '@tanstack/react-router';
import type { JSX } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { Form, TextArea, TextField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { fromDateTimeLocal, toDateTimeLocal } from '../../components/ui/format';
import { saveBoard, type Board } from './boards-api';

const t = zh.boards;

const requiredText = (label: string) => v.pipe(v.string(), v.trim(), v.nonEmpty(t.required(label)));

const requiredTime = (label: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(t.required(label)),
    v.transform(fromDateTimeLocal),
    v.check((ms) => Number.isFinite(ms), t.board.invalidTime),
  );

export const boardInfoSchema = v.pipe(
  v.object({
    boardName: requiredText(t.board.boardName),
    remark: requiredText(t.board.remark),
    publishAt: requiredTime(t.board.publishAt),
    expireAt: requiredTime(t.board.expireAt),
  }),
  v.forward(
    v.partialCheck([['publishAt'], ['expireAt']], (input) => input.expireAt > input.publishAt, t.board.expireAfterPublish),
    ['expireAt'],
  ),
);
type BoardInfoInput = v.InferInput<typeof boardInfoSchema>;
type BoardInfoValues = v.InferOutput<typeof boardInfoSchema>;

const MINUTE_MS = 60_000;

/** The form's values: the board's, or a new board's (published at `now`'s minute, the rest empty). */
export function formValuesOf(board: Board | null, now = Date.now()): BoardInfoInput {
  return {
    boardName: board?.boardName ?? '',
    remark: board?.remark ?? '',
    publishAt: toDateTimeLocal(board ? board.publishAt : Math.floor(now / MINUTE_MS) * MINUTE_MS),
    expireAt: toDateTimeLocal(board?.expireAt),
  };
}

export interface BoardInfoFormProps {
  /** null: a new board. */
  board: Board | null;
}

export function BoardInfoForm({ board }: BoardInfoFormProps): JSX.Element {
  const { api } = useAppContext();
  const router = useRouter();
  const navigate = useNavigate();
  const form = useValibotForm(boardInfoSchema, { defaultValues: formValuesOf(board) });

  async function onSubmit(values: BoardInfoValues) {
    const saved = await saveBoard(api, board ? { id: board.id, ...values } : values);
    if (!saved) return;
    if (!board) {
      toast.success(t.created);
      await navigate({ to: '/admin/board/$id', params: { id: String(saved.id) }, replace: true });
      return;
    }
    toast.success(t.saved);
    form.reset(formValuesOf(saved));
    await router.invalidate();
  }

  return (
    <Form form={form} onSubmit={onSubmit} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <TextField<BoardInfoInput, 'boardName'> name="boardName" label={t.board.boardName} maxLength={128} />
      <div className="hidden sm:block" />
      <TextField<BoardInfoInput, 'publishAt'> name="publishAt" label={t.board.publishAt} type="datetime-local" />
      <TextField<BoardInfoInput, 'expireAt'> name="expireAt" label={t.board.expireAt} type="datetime-local" />
      <TextArea<BoardInfoInput, 'remark'>
        name="remark"
        label={t.board.remark}
        hint={t.board.remarkHint}
        aria-required
        rows={3}
        maxLength={2000}
        className="sm:col-span-2"
      />
      <div className="sm:col-span-2">
        <Button type="submit" loading={form.formState.isSubmitting}>
          {board ? t.detail.save : t.detail.create}
        </Button>
      </div>
    </Form>
  );
}
