// The agree dialog of /admin/apply-list (SPEC §4 "admin agrees (only applied rows, with a bonus)",
// §5 "on admin agree, a number or blank to keep the original"): the application's task, applicant
// and amounts, and one bonus field. POST /api/trade/admin/pay/agree with {paymentApplyId} and the
// bonus only when one was typed (absent keeps the bonus the member asked for). The income the
// bonus leads to is shown as it is typed, reckoned in cents (incomeCents, the server's own rule).
// '操作成功' (or the server's msg) closes the dialog; a refusal toasts the server's msg and keeps it.
import { taskDisplayId } from '../../../../machines/task.machine';
import { useId, useState, type JSX } from 'react';
import { useWatch } from 'react-hook-form';
import * as v from 'valibot';
import { Form, TextField, useValibotForm } from '../../components/ui/form';
import { formatMoney } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { PaymentDialogFrame, incomePreview } from './payment-dialog-frame';
import { fromCents, moneyTextToCents, toCents } from '../../../../machines/cents';
import { bonusText } from './payment-rules';
import { agreePayment, type PayAgreeRequest, type PaymentApply } from './payments-api';
import { reportOutcome } from './use-payment-action';

const t = zh.payments.agree;

const agreeSchema = v.object({ bonus: bonusText });
type AgreeInput = v.InferInput<typeof agreeSchema>;
type AgreeValues = v.InferOutput<typeof agreeSchema>;

/** The agree call's body: the bonus only when one was typed. */
export function agreeBody(paymentApplyId: number, bonus: string): PayAgreeRequest {
  const text = bonus.trim();
  return text === '' ? { paymentApplyId } : { paymentApplyId, bonus: fromCents(moneyTextToCents(text)) };
}

export interface AgreePaymentDialogProps {
  apply: PaymentApply;
  applicant: string;
  onClose: () => void;
  /** Called after the application was agreed to. */
  onAgreed: () => void;
}

export function AgreePaymentDialog({ apply, applicant, onClose, onAgreed }: AgreePaymentDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const [saving, setSaving] = useState(false);
  const form = useValibotForm(agreeSchema, { defaultValues: { bonus: '' } });
  const typed = useWatch({ control: form.control, name: 'bonus' });

  async function submit(values: AgreeValues) {
    setSaving(true);
    try {
      if (reportOutcome(await agreePayment(api, agreeBody(apply.id, values.bonus)))) onAgreed();
    } finally {
      setSaving(false);
    }
  }

  const typedCents = moneyTextToCents(typed ?? '');
  const bonusCents = (typed ?? '').trim() === '' ? toCents(apply.bonus) : typedCents;
  const income = incomePreview({ buyIn: apply.buyIn, count: apply.count, punish: apply.punish }, bonusCents);

  return (
    <PaymentDialogFrame
      title={t.title}
      subject={t.subject(taskDisplayId(apply), apply.itemName)}
      formId={formId}
      saving={saving}
      cancelLabel={t.cancel}
      submitLabel={t.submit}
      onClose={onClose}
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-3">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-500">{t.applicant}</dt>
          <dd>{applicant}</dd>
          <dt className="text-slate-500">{t.income}</dt>
          <dd className="tabular-nums">{formatMoney(apply.income)}</dd>
        </dl>
        <TextField<AgreeInput, 'bonus'>
          name="bonus"
          label={t.bonus}
          inputMode="decimal"
          autoComplete="off"
          placeholder={formatMoney(apply.bonus)}
          hint={t.bonusHint(formatMoney(apply.bonus))}
        />
        {income && <p className="text-sm text-slate-700 tabular-nums">{t.newIncome(income)}</p>}
      </Form>
    </PaymentDialogFrame>
  );
}
