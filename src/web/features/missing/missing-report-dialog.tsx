// The member's report on one missing parcel (decision 077): a note (what the carrier or the shop
// said) and whether it is lost, saved in one audited call. The server's msg is the toast; a refusal
// (the parcel arrived meanwhile) toasts its words and keeps the dialog. A second save is blocked
// while one is under way. Lost is a report, not a verdict: the hint says a parcel that turns up is
// still matched.
import { useId, type JSX } from 'react';
import * as v from 'valibot';
import { useAppContext } from '../../app/app-context';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Checkbox, Form, TextArea, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { reportMissingParcel, type MissingParcel } from './missing-api';
import { useSaveOnce } from '../../lib/use-save-once';

const M = zh.missing;

/** The contract's bound (MissingReportRequest.note). */
export const MAX_MISSING_NOTE = 500;

const reportSchema = v.object({ note: v.pipe(v.string(), v.maxLength(MAX_MISSING_NOTE, M.noteTooLong)), lost: v.boolean() });
type ReportInput = v.InferInput<typeof reportSchema>;

export interface MissingReportDialogProps {
  parcel: MissingParcel;
  onClose: () => void;
  onSaved: () => void;
}

export function MissingReportDialog({ parcel, onClose, onSaved }: MissingReportDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const { saving, saveOnce } = useSaveOnce();
  const form = useValibotForm(reportSchema, { defaultValues: { note: parcel.note, lost: parcel.lostAt !== null } });
  const shown = parcel.typedTrackingId ?? parcel.trackingId;

  const submit = (values: ReportInput) =>
    saveOnce(async () => {
      const outcome = await reportMissingParcel(api, { id: parcel.id, note: values.note, lost: values.lost });
      if (outcome.ok) {
        toast.success(outcome.msg || zh.common.saveSuccess);
        onSaved();
      } else {
        toast.error(outcome.msg || M.saveFailed);
      }
    });

  return (
    <Modal
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={M.dialogTitle(shown)}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {M.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {M.save}
          </Button>
        </>
      }
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-3">
        <TextArea<ReportInput, 'note'> name="note" label={M.noteLabel} placeholder={M.noteHint} rows={3} maxLength={MAX_MISSING_NOTE} autoFocus />
        <Checkbox<ReportInput, 'lost'> name="lost" label={M.lostLabel} hint={M.lostHint} />
      </Form>
    </Modal>
  );
}
