// The change-card dialog of /user/withdraw-request (SPEC §2 "Rows in waited offer change card", §5
// "Change card requires a card ('请要更换的银行卡')", §8 "Change-card failure is only logged, with no
// toast"): the line's current card and a select of the member's other cards. The check is the
// machine's message (withdrawMessages.changeCardRequired). changeWithdrawCard {requestId, cardId};
// success toasts the server's msg (or '操作成功'); a failure is only logged. Either way the dialog
// closes and the list reloads, so the row shows the card it really has.
import { useId, type JSX } from 'react';
import * as v from 'valibot';
import { paymentTypeLabel } from '../../../../machines/bank-card';
import { withdrawMessages } from '../../../../machines/withdraw.machine';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, SelectField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { changeWithdrawCard, type BankCard, type WithdrawRequest } from './withdraw-api';
import { cardLabel } from './withdraw-rules';
import { useSaveOnce } from '../../lib/use-save-once';

const t = zh.withdraw.changeCard;

const changeCardSchema = v.object({
  cardId: v.pipe(
    v.union([v.literal(''), v.number()]),
    v.check((id) => id !== '', withdrawMessages.changeCardRequired),
  ),
});
type ChangeCardInput = v.InferInput<typeof changeCardSchema>;

export interface ChangeCardDialogProps {
  line: WithdrawRequest;
  /** The member's own cards. */
  cards: readonly BankCard[];
  onClose: () => void;
  /** Called after the call, whatever came of it. */
  onDone: () => void;
}

export function ChangeCardDialog({ line, cards, onClose, onDone }: ChangeCardDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const { saving, saveOnce } = useSaveOnce();
  const form = useValibotForm(changeCardSchema, { defaultValues: { cardId: '' } });
  const options = cards.filter((card) => card.id !== line.cardId).map((card) => ({ value: card.id, label: cardLabel(card) }));
  const current = [paymentTypeLabel(line.paymentType), line.cardNoEncrypt, line.accountNameEncrypt].filter(Boolean).join(' · ');

  const submit = (cardId: number) =>
    saveOnce(async () => {
      try {
        const outcome = await changeWithdrawCard(api, line.id, cardId);
        if (outcome.ok) toast.success(outcome.msg || zh.withdraw.done);
        // SPEC §8: no toast for this one.
        else console.warn('change card failed', { requestId: line.id, cardId, msg: outcome.msg });
      } finally {
        onDone();
      }
    });

  return (
    <Modal
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={t.title(line.id)}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {t.submit}
          </Button>
        </>
      }
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(Number(values.cardId))} className="flex flex-col gap-3">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-500">{t.current}</dt>
          <dd className="font-mono text-xs break-all">{current}</dd>
        </dl>
        <SelectField<ChangeCardInput, 'cardId', number> name="cardId" label={t.card} options={options} />
      </Form>
    </Modal>
  );
}
