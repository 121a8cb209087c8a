// The item picker's input and label, shared by the picker (item-picker.tsx) and the stand-in a list's
// filter draws while the picker loads (item-filter-field.tsx): the same box, so nothing moves.
export const ITEM_PICKER_INPUT_CLASS =
  'block w-full rounded-md border border-slate-300 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-900 shadow-sm ' +
  'placeholder:text-slate-500 focus:border-blue-500 focus:outline-2 focus:outline-blue-500/30 ' +
  'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 data-invalid:border-red-500';
export const ITEM_PICKER_LABEL_CLASS = 'mb-1 block text-sm font-medium text-slate-700';
