// The member's claim of an unknown parcel (decision 169): the task to claim it on (their tasks the
// server says could take it: the parcel's product, units left) and the full tracking id, typed or
// scanned (a scanner's Enter submits). The id must end in the masked id's last 6 characters, checked
// here in the canonical form (machines/tracking-id.ts) before the call; the server checks the rest.
// The server's msg is the toast; a refusal toasts its words and keeps the dialog.
import { useId, type JSX } from 'react';
import * as v from 'valibot';
import { canonicalTrackingId, UNKNOWN_PARCEL_VISIBLE } from '../../../../machines/tracking-id';
import { MAX_TRACKING_ID } from '../../../../machines/purchased-record';
import { useAppContext } from '../../app/app-context';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useSaveOnce } from '../../lib/use-save-once';
import { claimUnknownParcel, type UnknownParcel } from './unknown-api';

const U = zh.unknown;

/** The masked id's visible tail ('****123456' -> '123456'). */
const tailOf = (masked: string) => masked.slice(-UNKNOWN_PARCEL_VISIBLE);

function claimSchema(tail: string) {
  return v.object({
    taskId: v.pipe(
      v.union([v.literal(''), v.number()]),
      v.check((id) => id !== '', U.taskRequired),
    ),
    trackingId: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty(U.trackingRequired),
      v.maxLength(MAX_TRACKING_ID, U.trackingTooLong),
      v.check((id) => canonicalTrackingId(id).endsWith(tail), U.trackingTail(tail)),
    ),
  });
}
type ClaimInput = v.InferInput<ReturnType<typeof claimSchema>>;
type ClaimValues = v.InferOutput<ReturnType<typeof claimSchema>>;

export interface ClaimDialogProps {
  parcel: UnknownParcel;
  onClose: () => void;
  onClaimed: () => void;
}

export function ClaimDialog({ parcel, onClose, onClaimed }: ClaimDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const { saving, saveOnce } = useSaveOnce();
  const tail = tailOf(parcel.maskedTrackingId);
  const only = parcel.myTasks.length === 1 ? parcel.myTasks[0]!.id : '';
  const form = useValibotForm(claimSchema(tail), { defaultValues: { taskId: only, trackingId: '' } });
  const options = parcel.myTasks.map((task) => ({ value: task.id, label: U.taskOption(task.taskDisplayId, task.itemName, task.room) }));
  const products = parcel.products.map((p) => U.productLine(p.itemName, p.count)).join('、');

  const submit = (values: ClaimValues) =>
    saveOnce(async () => {
      const outcome = await claimUnknownParcel(api, { taskId: values.taskId as number, trackingId: values.trackingId });
      if (outcome.ok) {
        toast.success(outcome.msg);
        onClaimed();
      } else {
        toast.error(outcome.msg || U.failed);
      }
    });

  return (
    <Modal
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={U.dialogTitle(parcel.maskedTrackingId)}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {U.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {U.submit}
          </Button>
        </>
      }
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-3">
        <p className="text-sm text-slate-600">{U.dialogProducts(products)}</p>
        <SelectField<ClaimInput, 'taskId', number> name="taskId" label={U.taskLabel} options={options} />
        <TextField<ClaimInput, 'trackingId'>
          name="trackingId"
          label={U.trackingLabel}
          hint={U.trackingHint}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          inputClassName="font-mono"
          autoFocus
        />
      </Form>
    </Modal>
  );
}
