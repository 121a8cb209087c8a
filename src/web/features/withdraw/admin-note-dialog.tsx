// The notes dialog of /admin/withdraw-list (SPEC §3 withdraw request adminNote "account note" and
// adminNote2 "date note"; §7 adminnote/save {requestId, adminNote, adminNote2}): both notes of one
// line, editable in any status. '保存成功' (or the server's msg) closes the dialog; a refusal toasts
// the server's msg (or '保存失败') and keeps it open. A second save is blocked while one is under way.
import { useId, type JSX } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, TextArea, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { saveWithdrawAdminNote, type WithdrawRequest } from './withdraw-api';
import { useSaveOnce } from '../../lib/use-save-once';

const A = zh.withdraw.admin;
const C = zh.withdraw.col;

/** The contract's bound (AdminNoteRequest). */
export const MAX_ADMIN_NOTE_LENGTH = 1000;

const note = v.pipe(v.string(), v.maxLength(MAX_ADMIN_NOTE_LENGTH, A.noteTooLong));
const notesSchema = v.object({ adminNote: note, adminNote2: note });
type NotesInput = v.InferInput<typeof notesSchema>;

export interface AdminNoteDialogProps {
  line: WithdrawRequest;
  onClose: () => void;
  onSaved: () => void;
}

export function AdminNoteDialog({ line, onClose, onSaved }: AdminNoteDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const { saving, saveOnce } = useSaveOnce();
  const form = useValibotForm(notesSchema, { defaultValues: { adminNote: line.adminNote, adminNote2: line.adminNote2 } });

  const submit = (values: NotesInput) =>
    saveOnce(async () => {
      const outcome = await saveWithdrawAdminNote(api, line.id, values);
      if (outcome.ok) {
        toast.success(outcome.msg || zh.withdraw.saved);
        onSaved();
      } else {
        toast.error(outcome.msg || zh.withdraw.saveFailed);
      }
    });

  return (
    <Modal
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={A.notesTitle(line.id)}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {A.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {A.save}
          </Button>
        </>
      }
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-3">
        <TextArea<NotesInput, 'adminNote'> name="adminNote" label={C.adminNote} rows={3} maxLength={MAX_ADMIN_NOTE_LENGTH} />
        <TextArea<NotesInput, 'adminNote2'> name="adminNote2" label={C.adminNote2} rows={2} maxLength={MAX_ADMIN_NOTE_LENGTH} />
      </Form>
    </Modal>
  );
}
