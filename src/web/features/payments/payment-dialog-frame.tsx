// The frame both payment dialogs share (the member's apply, the admin's agree): the title with the
// task it is about, cancel and submit bound to the dialog's form, and the income the typed bonus
// would give (incomeCents, machines/payment.machine.ts, the server's own computation).
import type { JSX, ReactNode } from 'react';
import { incomeCents } from '../../../../machines/payment.machine';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { formatCents, toCents } from '../../../../machines/cents';

/** The income for a bonus in cents (NaN when the typed bonus is not a number: shown as ''). */
export function incomePreview(amounts: { buyIn: number; count: number; punish: number }, bonusCents: number): string {
  return Number.isFinite(bonusCents)
    ? formatCents(incomeCents({ buyIn: toCents(amounts.buyIn), count: amounts.count, bonus: bonusCents, punish: toCents(amounts.punish) }))
    : '';
}

export interface PaymentDialogFrameProps {
  title: string;
  subject: string;
  formId: string;
  saving: boolean;
  cancelLabel: string;
  submitLabel: string;
  onClose: () => void;
  children: ReactNode;
}

export function PaymentDialogFrame({ title, subject, formId, saving, cancelLabel, submitLabel, onClose, children }: PaymentDialogFrameProps): JSX.Element {
  return (
    <Modal
      open
      onClose={onClose}
      title={
        <>
          {title}
          <span className="ml-2 text-sm font-normal text-slate-500">{subject}</span>
        </>
      }
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {cancelLabel}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {submitLabel}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
