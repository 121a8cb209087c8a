// /admin/item/{id|new} (SPEC §2, §5, §7): the item form, saved with POST /api/item/info (no id
// creates). SPEC §5: every field is required except id, upc and url ('{label}为必填项'). The
// contract adds an optional reference price (ItemSaveRequest.price, null for none), which SPEC's
// item has not, so it stays optional here. After saving: toast and back to the list. A upc whose
// check digit fails is warned about under the field and saved all the same (decision 074).
import { Link, useNavigate } from '@tanstack/react-router';
import type { JSX, ReactNode } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { Form, SelectField, TextField, required, useValibotForm } from '../../components/ui/form';
import { PageHeader, Panel } from '../../components/ui/page';
import { toast } from '../../components/ui/toast';
import { UI_TEXT } from '../../components/ui/ui-text';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { ITEM_STATUSES, ITEM_STATUS_LABEL } from './item-status';
import { saveItem, type Item, type ItemPageData, type ItemSaveRequest, type ItemStatus } from './items';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { failsCheckDigit, productCodeMessages } from '../../../../machines/product-code';

const t = zh.catalog;

/** Up to 9,999,999.99 with at most two decimals (ItemSaveRequest.price). */
const PRICE_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

function limited(label: string, max: number) {
  return v.maxLength<string, number, string>(max, t.item.tooLong(label, max));
}

const itemSchema = v.object({
  itemName: v.pipe(required(t.item.itemName), limited(t.item.itemName, 256)),
  productId: v.pipe(required(t.item.productId), limited(t.item.productId, 128)),
  upc: v.pipe(v.string(), v.trim(), limited(t.item.upc, 64)),
  url: v.pipe(v.string(), v.trim(), limited(t.item.url, 2000)),
  status: v.picklist(ITEM_STATUSES, UI_TEXT.requiredField(t.item.status)),
  price: v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text === '' || PRICE_PATTERN.test(text), t.item.priceInvalid),
  ),
});
type ItemValues = v.InferOutput<typeof itemSchema>;
type ItemFormInput = v.InferInput<typeof itemSchema>;

/** The save body for the form's values (`id` only when editing). */
export function toItemSaveRequest(values: ItemValues, id?: number): ItemSaveRequest {
  return {
    ...(id !== undefined && { id }),
    itemName: values.itemName,
    productId: values.productId,
    upc: values.upc,
    url: values.url,
    status: values.status,
    price: values.price === '' ? null : Number(values.price),
  };
}

function formValues(item: Item | null): ItemFormInput {
  return {
    itemName: item?.itemName ?? '',
    productId: item?.productId ?? '',
    upc: item?.upc ?? '',
    url: item?.url ?? '',
    status: item?.status ?? 'open',
    price: item?.price === null || item?.price === undefined ? '' : String(item.price),
  };
}

function RequiredLabel({ children }: { children: ReactNode }): JSX.Element {
  return (
    <>
      {children}
      <span aria-hidden="true" className="ml-0.5 text-red-600">
        *
      </span>
    </>
  );
}

export function ItemPage({ data }: { data: ItemPageData }): JSX.Element {
  const backLink = (
    <Link to="/admin/item-list" className={secondaryLinkClass}>
      {t.common.back}
    </Link>
  );
  if (data.kind === 'missing') {
    return (
      <div className="flex max-w-3xl flex-col gap-4">
        <PageHeader title={zh.titles.adminItem} actions={backLink} />
        <Panel>
          <p role="alert" className="text-sm text-slate-600">
            {t.item.notFound}
          </p>
        </Panel>
      </div>
    );
  }
  const item = data.kind === 'found' ? data.item : null;
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <PageHeader title={item ? t.item.editTitle(item.itemName) : t.item.newTitle} actions={backLink} />
      <ItemForm key={item?.id ?? 'new'} item={item} />
    </div>
  );
}

function ItemForm({ item }: { item: Item | null }): JSX.Element {
  const { api } = useAppContext();
  const navigate = useNavigate();
  const form = useValibotForm(itemSchema, { defaultValues: formValues(item) });
  // A upc whose check digit fails is a warning, not a refusal: catalogs hold such codes (decision 074).
  const upcWarning = failsCheckDigit(form.watch('upc') ?? '') ? <span className="text-amber-700">{productCodeMessages.checkDigit}</span> : undefined;

  async function onSubmit(values: ItemValues) {
    if (!(await saveItem(api, toItemSaveRequest(values, item?.id)))) return;
    toast.success(item ? t.common.saveSuccess : t.common.createSuccess);
    await navigate({ to: '/admin/item-list' });
  }

  return (
    <Panel>
      <Form
        form={form}
        onSubmit={onSubmit}
        aria-label={item ? t.item.editTitle(item.itemName) : t.item.newTitle}
        className="grid grid-cols-1 gap-4 sm:grid-cols-2"
      >
        <TextField<ItemFormInput, 'itemName'>
          name="itemName"
          label={<RequiredLabel>{t.item.itemName}</RequiredLabel>}
          maxLength={256}
          className="sm:col-span-2"
        />
        <TextField<ItemFormInput, 'productId'> name="productId" label={<RequiredLabel>{t.item.productId}</RequiredLabel>} maxLength={128} />
        <TextField<ItemFormInput, 'upc'> name="upc" label={t.item.upc} hint={upcWarning} maxLength={64} />
        <TextField<ItemFormInput, 'url'>
          name="url"
          label={t.item.url}
          hint={t.item.urlHint}
          type="url"
          inputMode="url"
          maxLength={2000}
          className="sm:col-span-2"
        />
        <SelectField<ItemFormInput, 'status', ItemStatus>
          name="status"
          label={<RequiredLabel>{t.item.status}</RequiredLabel>}
          options={ITEM_STATUSES.map((value) => ({ value, label: ITEM_STATUS_LABEL[value] }))}
          placeholder={false}
        />
        <TextField<ItemFormInput, 'price'> name="price" label={t.item.price} hint={t.item.priceHint} inputMode="decimal" />
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t.common.save}
          </Button>
        </div>
      </Form>
    </Panel>
  );
}
