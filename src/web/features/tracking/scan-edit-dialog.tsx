// The edit dialog of /admin/tracking-list (SPEC §2 "edit dialog"): a scan record's trackingId, upc,
// count and product, saved with modifyScanTracking (POST /api/scan/admin/tracking/{id}/modify,
// ScanModifyRequest). Only the changed fields are sent; nothing changed closes the dialog without a
// call. The status is not edited here: the server matches the record again after the change and
// refuses a record whose task is being paid; its refusal (or opStatus failed, e.g. 'upc重复，请编辑
// 已添加的商品') is shown in the dialog, which stays open.
import { useId, useState, type JSX } from 'react';
import * as v from 'valibot';
import { MAX_SCAN_COUNT, MAX_SCAN_TEXT, scanRecordMessages as M } from '../../../../machines/scan-record.machine';
import { ScanStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, FormError, TextField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { ItemPickerField } from '../../components/item-picker';
import { modifyScanTracking, type ScanModifyRequest, type ScanTracking } from './tracking-api';

const t = zh.tracking;
const E = t.edit;
const F = t.field;

/** ScanModifyRequest's bounds: trackingId and upc 1..64 characters, count a whole number 1..MAX_SCAN_COUNT; the server's words. */
const text = (required: string, tooLong: string) => v.pipe(v.string(), v.trim(), v.nonEmpty(required), v.maxLength(MAX_SCAN_TEXT, tooLong));

export const scanEditSchema = v.object({
  trackingId: text(M.trackingIdRequired, M.trackingIdTooLong),
  upc: text(M.upcRequired, M.upcTooLong),
  count: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d{1,7}$/, M.countInvalid),
    v.transform(Number),
    v.minValue(1, M.countInvalid),
    v.maxValue(MAX_SCAN_COUNT, M.countInvalid),
  ),
  itemId: v.nullable(v.number()),
});
type EditInput = v.InferInput<typeof scanEditSchema>;
type EditValues = v.InferOutput<typeof scanEditSchema>;

/** The fields that differ from the record: the body of the modify call (empty when nothing changed). */
export function scanChanges(record: Pick<ScanTracking, 'trackingId' | 'upc' | 'count' | 'itemId'>, values: EditValues): ScanModifyRequest {
  return {
    ...(values.trackingId !== record.trackingId && { trackingId: values.trackingId }),
    ...(values.upc !== record.upc && { upc: values.upc }),
    ...(values.count !== record.count && { count: values.count }),
    // The call cannot take a product away, only set one: blank keeps the record's.
    ...(values.itemId !== null && values.itemId !== record.itemId && { itemId: values.itemId }),
  };
}

export interface ScanEditDialogProps {
  /** The record being edited (mount the dialog only while one is; key it by the record's id). */
  record: ScanTracking;
  onClose: () => void;
  /** After a successful save (the toast is shown already). */
  onSaved: () => void;
}

export function ScanEditDialog({ record, onClose, onSaved }: ScanEditDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useValibotForm(scanEditSchema, {
    defaultValues: { trackingId: record.trackingId, upc: record.upc, count: String(record.count), itemId: record.itemId },
  });

  async function onSubmit(values: EditValues) {
    const changes = scanChanges(record, values);
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    setRefusal(null);
    const outcome = await modifyScanTracking(api, record.id, changes);
    if (!outcome.ok) {
      setRefusal(outcome.msg && outcome.msg !== t.saveFailed ? t.saveFailedWith(outcome.msg) : t.saveFailed);
      return;
    }
    toast.success(t.saved);
    onSaved();
  }

  const matched = record.matchedUser ?? '';
  return (
    <Modal
      open
      onClose={onClose}
      title={E.title(record.id)}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {E.cancel}
          </Button>
          <Button type="submit" form={formId} loading={form.formState.isSubmitting}>
            {E.save}
          </Button>
        </>
      }
    >
      <Form form={form} onSubmit={onSubmit} id={formId} className="flex flex-col gap-4">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <ScanStatusBadge status={record.status} />
          <span>{E.current(zh.status.scan[record.status] ?? record.status, matched)}</span>
        </p>
        <TextField<EditInput, 'trackingId'> name="trackingId" label={F.trackingId} maxLength={MAX_SCAN_TEXT} autoComplete="off" />
        <TextField<EditInput, 'upc'> name="upc" label={F.upc} maxLength={MAX_SCAN_TEXT} autoComplete="off" />
        <TextField<EditInput, 'count'> name="count" label={F.count} inputMode="numeric" autoComplete="off" />
        <ItemPickerField<EditInput, 'itemId'> name="itemId" label={F.item} hint={E.itemHint} />
        <p className="text-xs text-slate-500">{E.rematchHint}</p>
        <FormError message={refusal} />
      </Form>
    </Modal>
  );
}
