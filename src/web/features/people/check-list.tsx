// A multi-select as a list of checkboxes (groups of a user, users to add to a group): native
// checkboxes in a fieldset, so keyboard and screen readers need nothing extra. With `filterable`
// a text box narrows the visible choices; checked choices stay checked while hidden.
import { useId, useState, type JSX, type ReactNode } from 'react';
import { zh } from '../../i18n/zh';

export interface CheckListOption {
  value: number;
  label: string;
  /** A second, quieter line (e-mail, remark). */
  description?: string;
}

export interface CheckListProps {
  legend: ReactNode;
  options: readonly CheckListOption[];
  value: readonly number[];
  onChange: (value: number[]) => void;
  hint?: ReactNode;
  filterable?: boolean;
  emptyText?: ReactNode;
  className?: string;
}

export function CheckList({
  legend,
  options,
  value,
  onChange,
  hint,
  filterable = false,
  emptyText = zh.people.common.noMatch,
  className = '',
}: CheckListProps): JSX.Element {
  const id = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const visible = needle ? options.filter((o) => `${o.label} ${o.description ?? ''}`.toLowerCase().includes(needle)) : options;
  const checked = new Set(value);

  function toggle(option: number, on: boolean) {
    onChange(on ? [...value.filter((v) => v !== option), option] : value.filter((v) => v !== option));
  }

  return (
    <fieldset className={className} aria-describedby={hint ? `${id}-hint` : undefined}>
      <legend className="mb-1 block text-sm font-medium text-slate-700">{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="mb-2 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {filterable && (
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder={zh.people.common.filterPlaceholder}
          aria-label={zh.people.common.filterPlaceholder}
          className="mb-2 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm placeholder:text-slate-500 focus:border-blue-500 focus:outline-2 focus:outline-blue-500/30"
        />
      )}
      {visible.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-500">{emptyText}</p>
      ) : (
        <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
          {visible.map((option) => {
            const optionId = `${id}-${option.value}`;
            return (
              <li key={option.value}>
                <label htmlFor={optionId} className="flex cursor-pointer items-start gap-3 px-3 py-2 hover:bg-slate-50">
                  <input
                    id={optionId}
                    type="checkbox"
                    checked={checked.has(option.value)}
                    onChange={(e) => toggle(option.value, e.target.checked)}
                    className="mt-0.5 size-4 rounded border-slate-300 text-blue-600 focus-visible:outline-2 focus-visible:outline-blue-500"
                  />
                  <span className="min-w-0">
                    <span className="block text-sm text-slate-800">{option.label}</span>
                    {option.description && <span className="block truncate text-xs text-slate-500">{option.description}</span>}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
