// The add dialog of /user/bank-card (SPEC §5 "Bank card"): a payment type (the six, or typed: "new
// values can be typed"), the holder name and that type's fields and labels (machines/bank-card.ts
// cardFieldsFor). The checks are the rules' own (cardProblems, the server's too) in the form's
// valibot schema: each missing field is named under it. Switching the type clears the card's fields
// (a field means another thing for another type); the holder name stays. 其他（自行填写） shows the
// typed type's fields at once (the account required, machines/bank-card.ts TYPED_TYPE_FIELDS), before
// its name is typed. A second submit is blocked while saving (SPEC §5). Success closes the dialog; a refusal keeps what was typed (SPEC §8).
import { useId, type JSX } from 'react';
import { useWatch } from 'react-hook-form';
import * as v from 'valibot';
import {
  CARD_LABELS,
  CARD_TEXT_FIELDS,
  cardFieldsFor,
  cardProblems,
  cardTypeLabel,
  cardTypeOptions,
  KNOWN_PAYMENT_TYPES,
  PAYMENT_TYPE_LABELS,
  TYPED_TYPE_FIELDS,
  TYPED_TYPE_RULE,
  type CardInput,
  type CardTextField,
  type KnownPaymentType,
} from '../../../../machines/bank-card';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { zh } from '../../i18n/zh';
import type { BindCardRequest } from './bank-cards-api';
import { useSaveOnce } from '../../lib/use-save-once';

const t = zh.bankCards.dialog;

/** The select's choice for a typed payment type. */
export const OTHER_TYPE = 'other';
type TypeChoice = '' | KnownPaymentType | typeof OTHER_TYPE;

/** The contract's lengths (BindCardRequest), so nothing typed is refused for its length. */
const MAX_LENGTH: Record<'paymentType' | 'accountName' | CardTextField, number> = {
  paymentType: 32,
  accountName: 128,
  cardNo: 64,
  routingNumber: 64,
  bankInfo: 256,
  cardType: 64,
  address: 512,
};

export interface CardFormValues {
  typeChoice: TypeChoice;
  customType: string;
  accountName: string;
  cardNo: string;
  routingNumber: string;
  bankInfo: string;
  cardType: string;
  address: string;
}

const EMPTY: CardFormValues = { typeChoice: '', customType: '', accountName: '', cardNo: '', routingNumber: '', bankInfo: '', cardType: '', address: '' };

/** The payment type the form names: the chosen one, or the typed one. */
export function paymentTypeOf(values: Pick<CardFormValues, 'typeChoice' | 'customType'>): string {
  return values.typeChoice === OTHER_TYPE ? values.customType : values.typeChoice;
}

/** The fields the form shows: the chosen type's, a typed type's as soon as 其他 is chosen. */
export function formFieldsOf(values: Pick<CardFormValues, 'typeChoice' | 'customType'>) {
  return values.typeChoice === OTHER_TYPE ? TYPED_TYPE_FIELDS : cardFieldsFor(paymentTypeOf(values));
}

/** The card the form describes: its type, holder name and the fields its type shows (others left out). */
export function cardInputOf(values: CardFormValues): CardInput {
  const card: CardInput = { paymentType: paymentTypeOf(values), accountName: values.accountName };
  for (const { field } of formFieldsOf(values)) card[field] = values[field];
  return card;
}

/** The bind call's body: every text trimmed, empty fields left out. */
export function bindBody(values: CardFormValues): BindCardRequest {
  const card = cardInputOf(values);
  const body: BindCardRequest = { paymentType: card.paymentType.trim(), accountName: card.accountName.trim() };
  for (const field of CARD_TEXT_FIELDS) {
    const text = card[field]?.trim();
    if (text) body[field] = text;
  }
  return body;
}

const text = v.string();
export const cardFormSchema = v.pipe(
  v.object({
    typeChoice: v.picklist(['', ...KNOWN_PAYMENT_TYPES, OTHER_TYPE] as const),
    customType: text,
    accountName: text,
    cardNo: text,
    routingNumber: text,
    bankInfo: text,
    cardType: text,
    address: text,
  }),
  // The rules' own check (the server's too), each problem under its field.
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const values = dataset.value;
    const problems = cardProblems(cardInputOf(values));
    // 其他 with its name still empty: the account is asked for at once too (the rules ask once a name is typed).
    if (values.typeChoice === OTHER_TYPE && !values.customType.trim() && !values.cardNo.trim()) {
      problems.push({ field: TYPED_TYPE_RULE.field, msg: TYPED_TYPE_RULE.message });
    }
    for (const problem of problems) {
      const key: keyof CardFormValues = problem.field === 'paymentType' ? (values.typeChoice === OTHER_TYPE ? 'customType' : 'typeChoice') : problem.field;
      addIssue({ message: problem.msg, path: [{ type: 'object', origin: 'value', input: values, key, value: values[key] }] });
    }
  }),
);
type CardFormInput = v.InferInput<typeof cardFormSchema>;

const TYPE_OPTIONS = [
  ...KNOWN_PAYMENT_TYPES.map((type) => ({ value: type as TypeChoice, label: PAYMENT_TYPE_LABELS[type] })),
  { value: OTHER_TYPE as TypeChoice, label: t.otherType },
];

export interface BankCardDialogProps {
  onClose: () => void;
  /** Sends the card; true when it was bound (the dialog then closes). */
  onSave: (body: BindCardRequest) => Promise<boolean>;
}

export function BankCardDialog({ onClose, onSave }: BankCardDialogProps): JSX.Element {
  const formId = useId();
  const { saving, saveOnce } = useSaveOnce();
  const form = useValibotForm(cardFormSchema, { defaultValues: EMPTY });
  const [typeChoice, customType] = useWatch({ control: form.control, name: ['typeChoice', 'customType'] });

  /** A new type: the card's fields start empty (the holder name stays). */
  function switchType() {
    for (const field of CARD_TEXT_FIELDS) form.setValue(field, '');
    if (form.getValues('typeChoice') !== OTHER_TYPE) form.setValue('customType', '');
    form.clearErrors();
  }

  const submit = (values: CardFormValues) =>
    saveOnce(async () => {
      if (await onSave(bindBody(values))) onClose();
    });

  return (
    <Modal
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={t.title}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {t.save}
          </Button>
        </>
      }
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-3">
        <SelectField<CardFormInput, 'typeChoice', TypeChoice>
          name="typeChoice"
          label={CARD_LABELS.paymentType}
          options={TYPE_OPTIONS}
          hint={typeChoice ? t.switchHint : undefined}
          onChange={switchType}
        />
        {typeChoice === OTHER_TYPE && (
          <TextField<CardFormInput, 'customType'>
            name="customType"
            label={t.customType}
            hint={t.customTypeHint}
            maxLength={MAX_LENGTH.paymentType}
            autoComplete="off"
          />
        )}
        <TextField<CardFormInput, 'accountName'> name="accountName" label={CARD_LABELS.accountName} maxLength={MAX_LENGTH.accountName} autoComplete="off" />
        <TypeFields typeChoice={typeChoice} customType={customType} />
      </Form>
    </Modal>
  );
}

/** The fields the chosen payment type asks for (a select where its card types are a fixed list), or a word to choose the type first. */
function TypeFields({ typeChoice, customType }: { typeChoice: TypeChoice; customType: string }): JSX.Element {
  const fields = formFieldsOf({ typeChoice, customType });
  const cardTypes = cardTypeOptions(paymentTypeOf({ typeChoice, customType }));
  return (
    <>
      {fields.length === 0 ? (
        <p className="text-xs text-slate-500">{t.chooseTypeFirst}</p>
      ) : (
        fields.map(({ field, label, required }) =>
          field === 'cardType' && cardTypes ? (
            <SelectField<CardFormInput, 'cardType'>
              key={field}
              name="cardType"
              label={label}
              options={cardTypes.map((option) => ({ value: option, label: cardTypeLabel(option) }))}
            />
          ) : (
            <TextField<CardFormInput, CardTextField>
              key={field}
              name={field}
              label={label}
              hint={required ? (field === TYPED_TYPE_RULE.field && typeChoice === OTHER_TYPE ? t.accountHint : undefined) : t.optional}
              maxLength={MAX_LENGTH[field]}
              autoComplete="off"
            />
          ),
        )
      )}
    </>
  );
}
