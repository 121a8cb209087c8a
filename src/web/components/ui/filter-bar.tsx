// The filter form above a list (SPEC §2 list pages): the page's fields, then 查询 (submit) and 重置,
// in a panel. The page owns the fields, their layout (grid columns or flex-wrap) and what 重置
// restores; the bar owns the frame, the form's name and the buttons, so every list filters alike.
// On a phone (PHONE_QUERY) the panel folds behind one 筛选 button saying how many filters are set,
// so the first result is on the first screen instead of ~10 fields (decision 006); the form stays
// mounted while folded (hidden), so its values and its reset are the same either way.
import { useId, useState, type JSX, type ReactNode } from 'react';
import type { FieldValues, SubmitHandler, UseFormReturn } from 'react-hook-form';
import { Button } from './button';
import { Form } from './form';
import { Panel } from './page';
import { UI_TEXT } from './ui-text';
import { usePhoneWidth } from './use-media-query';

export interface FilterBarProps<T extends FieldValues, TOut> {
  form: UseFormReturn<T, unknown, TOut>;
  /** 查询: the validated filter values. */
  onSubmit: SubmitHandler<TOut>;
  /** 重置: clear the filters (the page resets the form, or remounts it with a key). */
  onReset: () => void;
  /** How fields and buttons are laid out, e.g. 'grid grid-cols-1 sm:grid-cols-2' or 'flex flex-wrap'. */
  layout: string;
  children: ReactNode;
  /** How many filters are set, for the folded button; by default the form's starting values that are not blank (the sort and 'all' left out). */
  activeCount?: number;
}

/** The order of the list, not a filter: a sort select or the 倒序 switch. */
const SORT_KEYS = new Set(['sort', 'isDesc', 'isAsc', 'orderItem']);

/** Values that set no filter: blank, off, 'all', or the sort (every list has one). */
const isBlank = (key: string, value: unknown) =>
  SORT_KEYS.has(key) ||
  value === '' ||
  value === null ||
  value === undefined ||
  value === false ||
  value === 'all' ||
  (Array.isArray(value) && value.length === 0);

/** How many of the form's starting values (the URL's filters) set a filter. */
export function setFilterCount(values: Readonly<Record<string, unknown>> | undefined): number {
  return Object.entries(values ?? {}).filter(([key, value]) => !isBlank(key, value)).length;
}

export function FilterBar<T extends FieldValues, TOut>({ form, onSubmit, onReset, layout, children, activeCount }: FilterBarProps<T, TOut>): JSX.Element {
  const phone = usePhoneWidth();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = activeCount ?? setFilterCount(form.formState.defaultValues as Record<string, unknown> | undefined);
  const folded = phone && !open;
  return (
    <div className="flex flex-col gap-2">
      {phone && (
        <Button variant="secondary" className="self-start" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
          {UI_TEXT.filterToggle(count)}
        </Button>
      )}
      <div id={panelId} hidden={folded}>
        <FilterPanel form={form} onSubmit={onSubmit} onReset={onReset} layout={layout}>
          {children}
        </FilterPanel>
      </div>
    </div>
  );
}

function FilterPanel<T extends FieldValues, TOut>({ form, onSubmit, onReset, layout, children }: FilterBarProps<T, TOut>): JSX.Element {
  return (
    <Panel>
      <Form form={form} onSubmit={onSubmit} aria-label={UI_TEXT.filters} className={`${layout} items-start gap-3`}>
        {children}
        {/* pt-6: the height of a field's label, so the buttons line up with the inputs, not the labels. */}
        <div className="flex gap-2 sm:pt-6">
          <Button type="submit">{UI_TEXT.search}</Button>
          <Button variant="secondary" onClick={onReset}>
            {UI_TEXT.reset}
          </Button>
        </div>
      </Form>
    </Panel>
  );
}
