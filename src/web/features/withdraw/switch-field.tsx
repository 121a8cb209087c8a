// An on/off field bound to react-hook-form (the withdraw lists' "sort by creation time" switch,
// SPEC §2): Headless UI's Switch (role switch, Space and Enter toggle it) with its label beside it.
import { Field, Label, Switch } from '@headlessui/react';
import type { JSX, ReactNode } from 'react';
import { useController, type FieldPath, type FieldValues } from 'react-hook-form';

export interface SwitchFieldProps<T extends FieldValues, N extends FieldPath<T>> {
  name: N;
  label: ReactNode;
  className?: string;
}

export function SwitchField<T extends FieldValues, N extends FieldPath<T>>({ name, label, className = '' }: SwitchFieldProps<T, N>): JSX.Element {
  const { field } = useController<T, N>({ name });
  return (
    // sm:pt-6: the height of a field's label, so the switch lines up with the inputs beside it.
    <Field className={`sm:pt-6 ${className}`}>
      <div className="flex h-9 items-center gap-2">
        <Switch
          checked={Boolean(field.value)}
          onChange={(checked) => field.onChange(checked)}
          onBlur={field.onBlur}
          className="group relative inline-flex h-5 w-9 shrink-0 items-center rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-blue-500 data-checked:bg-blue-600"
        >
          <span className="size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-4.5" />
        </Switch>
        <Label className="text-sm text-slate-700">{label}</Label>
      </div>
    </Field>
  );
}
