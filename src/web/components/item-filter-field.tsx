// A list's product filter (/admin/tracking-list, /admin/tasks, the board lists): the item picker
// (item-picker.tsx) loaded on demand, after the list's first rows are on screen (decision 179).
// The picker is Headless UI's combobox, ~30 kB brotli that no first row needs: a hard load of
// /admin/tracking-list fetched and compiled it before its first row. Until it is there (tens of ms
// after the first paint) the field is drawn as a read-only input of the same size and label, so the
// filter bar does not move. Forms that pick an item (a scan, a board task) keep the picker itself:
// their field may take the focus at once, and a swap would drop it.
import type { JSX } from 'react';
import type { FieldPath, FieldValues } from 'react-hook-form';
import { useId } from 'react';
import { ITEM_PICKER_INPUT_CLASS, ITEM_PICKER_LABEL_CLASS } from './item-picker-look';
import { onDemand, useOnDemand } from './ui/on-demand';
import type { ItemPickerFieldProps } from './item-picker';
import { zh } from '../i18n/zh';

const picker = onDemand(() => import('./item-picker'));

export function ItemFilterField<T extends FieldValues, N extends FieldPath<T>>(props: ItemPickerFieldProps<T, N>): JSX.Element {
  const loaded = useOnDemand(picker, true);
  const id = useId();
  if (loaded) return <loaded.ItemPickerField<T, N> {...props} />;
  const { label = zh.catalog.picker.label, className = '' } = props;
  return (
    <div className={className} data-loading-picker>
      {label !== null && (
        <label htmlFor={id} className={ITEM_PICKER_LABEL_CLASS}>
          {label}
        </label>
      )}
      <input id={id} readOnly aria-busy="true" placeholder={props.placeholder ?? zh.catalog.picker.placeholder} className={ITEM_PICKER_INPUT_CLASS} />
    </div>
  );
}
