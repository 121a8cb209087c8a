// The product picker wherever a screen chooses an item (board tasks, scans, filters): a searchable
// combobox over GET /api/item/info/like/{q} (name, upc or productId; at most 20, open items first),
// each choice showing name and UPC. `value` is only an id, so an item not seen yet (an edit form's
// current item) is fetched once by id to show its name. Shared (components/) because several
// features pick items; it reads the API client from the router context, as every page does.
// The list is not modal: the page stays usable while it is open (the next field takes the first
// click or tap, no scroll lock on a phone), and a list that opens late never blocks the form.
//   <ItemPicker value={itemId} onChange={(item) => setItemId(item?.id ?? null)} />
//   <ItemPickerField<Values, 'itemId'> name="itemId" label="商品" onItemChange={(item) => ...} />
import { useRouter } from '@tanstack/react-router';
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Description, Field, Label } from '@headlessui/react';
import { useEffect, useState, type JSX, type ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { ITEM_PICKER_INPUT_CLASS, ITEM_PICKER_LABEL_CLASS } from './item-picker-look';
import { Spinner } from './ui/button';
import { StatusBadge } from './ui/status-badge';
import type { ApiClient } from '../../api/client';
import { outcomeOf } from '../../api/outcome';
import type { components } from '../../api/schema';
import { zh } from '../i18n/zh';

export type Item = components['schemas']['Item'];

const t = zh.catalog.picker;

/** Typing pauses this long before a search is sent. */
export const ITEM_SEARCH_DEBOUNCE_MS = 250;

/** How a picked item reads in the input: its name and, when it has one, its UPC. */
export function itemPickerLabel(item: Pick<Item, 'itemName' | 'upc'>): string {
  return item.upc ? `${item.itemName}（${item.upc}）` : item.itemName;
}

export interface ItemPickerProps {
  /** The chosen item's id; null for none. */
  value: number | null;
  /** Called with the chosen item (all its fields, e.g. price and url), or null when cleared. */
  onChange: (item: Item | null) => void;
  /** Visible label; defaults to '商品'. Pass `null` for none (then give `aria-label`). */
  label?: ReactNode;
  'aria-label'?: string;
  placeholder?: string;
  hint?: ReactNode;
  /** Error message shown under the input; also marks it invalid. */
  error?: string;
  disabled?: boolean;
  /** Leave closed (status close) items out of the choices. */
  openOnly?: boolean;
  /** Form field name (a hidden input carries the id for native form posts). */
  name?: string;
  onBlur?: () => void;
  autoFocus?: boolean;
  className?: string;
}

interface SearchResult {
  query: string;
  items: Item[];
}

export function ItemPicker({
  value,
  onChange,
  label = t.label,
  'aria-label': ariaLabel,
  placeholder = t.placeholder,
  hint,
  error,
  disabled = false,
  openOnly = false,
  name,
  onBlur,
  autoFocus,
  className = '',
}: ItemPickerProps): JSX.Element {
  const { api } = useRouter().options.context as { api: ApiClient };
  const [query, setQuery] = useState('');
  const { needle, searching, choices } = useItemSearch(api, query, openOnly);
  const [known, setKnown] = useKnownItem(api, value);
  const selected = value !== null && known?.id === value ? known : null;

  function pick(item: Item | null) {
    if (item) setKnown(item);
    setQuery('');
    onChange(item);
  }

  const display = selected ? itemPickerLabel(selected) : value !== null ? `#${value}` : '';

  return (
    <Field disabled={disabled} className={className}>
      {label !== null && <Label className={ITEM_PICKER_LABEL_CLASS}>{label}</Label>}
      <Combobox<Item | null>
        value={selected}
        onChange={pick}
        by={(a, b) => a?.id === b?.id}
        onClose={() => setQuery('')}
        invalid={error !== undefined}
        disabled={disabled}
      >
        <div className="relative">
          <ComboboxInput<Item | null>
            aria-label={ariaLabel}
            aria-invalid={error !== undefined || undefined}
            autoFocus={autoFocus}
            placeholder={placeholder}
            displayValue={() => display}
            onChange={(e) => setQuery(e.target.value)}
            onBlur={onBlur}
            autoComplete="off"
            className={ITEM_PICKER_INPUT_CLASS}
          />
          {value !== null && !disabled && (
            <button
              type="button"
              aria-label={t.clear}
              title={t.clear}
              onClick={() => pick(null)}
              className="absolute inset-y-0 right-0 flex w-8 items-center justify-center rounded-r-md text-slate-500 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              ×
            </button>
          )}
        </div>
        <ComboboxOptions
          modal={false}
          anchor={{ to: 'bottom start', gap: 4 }}
          className="z-[60] max-h-72 w-(--input-width) min-w-64 overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
        >
          <ItemChoices needle={needle} searching={searching} choices={choices} />
        </ComboboxOptions>
      </Combobox>
      {name && <input type="hidden" name={name} value={value ?? ''} />}
      <PickerMessage error={error} hint={hint} />
    </Field>
  );
}

export type ItemPickerFieldProps<T extends FieldValues, N extends FieldPath<T>> = Omit<ItemPickerProps, 'value' | 'onChange' | 'error' | 'name' | 'onBlur'> & {
  name: N;
  /** Optional inside the UI kit's <Form>; required otherwise. */
  control?: Control<T, unknown, FieldValues>;
  /** Also told the whole item (e.g. to copy its price and url into other fields). */
  onItemChange?: (item: Item | null) => void;
};

/**
 * ItemPicker bound to a react-hook-form field holding the item id (number | null), with the
 * field's validation message under it, like the UI kit's fields.
 */
export function ItemPickerField<T extends FieldValues, N extends FieldPath<T>>({
  name,
  control,
  onItemChange,
  ...rest
}: ItemPickerFieldProps<T, N>): JSX.Element {
  const { field, fieldState } = useController<T, N>({ name, control: control as Control<T> | undefined });
  const raw: unknown = field.value;
  const value = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
  return (
    <ItemPicker
      {...rest}
      name={field.name}
      value={value}
      error={fieldState.error?.message}
      disabled={rest.disabled ?? field.disabled}
      onBlur={field.onBlur}
      onChange={(item) => {
        field.onChange(item ? item.id : null);
        onItemChange?.(item);
      }}
    />
  );
}

/** The items matching the typed text (debounced; `searching` until the answer to this very text came). */
function useItemSearch(api: ApiClient, query: string, openOnly: boolean) {
  const [result, setResult] = useState<SearchResult>({ query: '', items: [] });
  const needle = query.trim();
  const searching = needle !== '' && result.query !== needle;
  const choices = result.query === needle ? result.items.filter((item) => !openOnly || item.status === 'open') : [];

  useEffect(() => {
    if (needle === '') return;
    let live = true;
    const timer = setTimeout(() => {
      void outcomeOf(api.GET('/api/item/info/like/{q}', { params: { path: { q: needle } } })).then((found) => {
        if (live) setResult({ query: needle, items: (found.ok && found.data) || [] });
      });
    }, ITEM_SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, needle]);

  return { needle, searching, choices };
}

/** The last item picked or fetched (an id not seen yet is fetched once); it is the selection only while its id is `value`. */
function useKnownItem(api: ApiClient, value: number | null) {
  const state = useState<Item | null>(null);
  const [known, setKnown] = state;
  const knownId = known?.id;
  useEffect(() => {
    if (value === null || knownId === value) return;
    let live = true;
    // Silent: a stale id simply shows no name; the form that holds it reports its own errors.
    void outcomeOf(api.GET('/api/item/info/{id}', { params: { path: { id: value } }, silent: true })).then((found) => {
      if (live && found.ok && found.data) setKnown(found.data);
    });
    return () => {
      live = false;
    };
  }, [api, value, knownId, setKnown]);
  return state;
}

/** The list's content: a prompt to type, the search under way, no result, or the matching items. */
function ItemChoices({ needle, searching, choices }: { needle: string; searching: boolean; choices: Item[] }): JSX.Element {
  return needle === '' ? (
    <p className="px-3 py-2 text-slate-500">{t.typeToSearch}</p>
  ) : searching ? (
    <p role="status" className="flex items-center gap-2 px-3 py-2 text-slate-500">
      <Spinner className="size-3.5" />
      {t.searching}
    </p>
  ) : choices.length === 0 ? (
    <p className="px-3 py-2 text-slate-500">{t.noResult}</p>
  ) : (
    <>
      {choices.map((item) => (
        <ComboboxOption key={item.id} value={item} className="group cursor-pointer px-3 py-2 data-focus:bg-blue-50 data-selected:bg-blue-50/60">
          <span className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate font-medium text-slate-900 group-data-selected:text-blue-700">{item.itemName}</span>
            {item.status === 'close' && <StatusBadge>{t.closed}</StatusBadge>}
          </span>
          <span className="block truncate text-xs text-slate-500">
            {t.upc(item.upc)}
            {item.productId && ` · ${item.productId}`}
          </span>
        </ComboboxOption>
      ))}
    </>
  );
}

/** Under the input: the error (an alert) or else the hint. */
function PickerMessage({ error, hint }: { error: string | undefined; hint: ReactNode }): ReactNode {
  return error ? (
    <Description role="alert" className="mt-1 text-xs text-red-600">
      {error}
    </Description>
  ) : (
    hint && <Description className="mt-1 text-xs text-slate-500">{hint}</Description>
  );
}
