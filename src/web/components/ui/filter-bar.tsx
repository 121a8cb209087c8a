// The filter form above a list (SPEC §2 list pages): the page's fields, then 查询 (submit) and 重置,
// in a panel. The page owns the fields, their layout (grid columns or flex-wrap) and what 重置
// restores; the bar owns the frame, the form's name and the buttons, so every list filters alike.
import type { JSX, ReactNode } from 'react';
import type { FieldValues, SubmitHandler, UseFormReturn } from 'react-hook-form';
import { Button } from './button';
import { Form } from './form';
import { Panel } from './page';
import { UI_TEXT } from './ui-text';

export interface FilterBarProps<T extends FieldValues, TOut> {
  form: UseFormReturn<T, unknown, TOut>;
  /** 查询: the validated filter values. */
  onSubmit: SubmitHandler<TOut>;
  /** 重置: clear the filters (the page resets the form, or remounts it with a key). */
  onReset: () => void;
  /** How fields and buttons are laid out, e.g. 'grid grid-cols-1 sm:grid-cols-2' or 'flex flex-wrap'. */
  layout: string;
  children: ReactNode;
}

export function FilterBar<T extends FieldValues, TOut>({ form, onSubmit, onReset, layout, children }: FilterBarProps<T, TOut>): JSX.Element {
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
