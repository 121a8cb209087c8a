// The item picker moved to components/item-picker.tsx (features share it; features do not import
// each other). This file only keeps the old import path working until its importers switch.
export { ITEM_SEARCH_DEBOUNCE_MS, ItemPicker, ItemPickerField, itemPickerLabel } from '../../components/item-picker';
export type { ItemPickerFieldProps, ItemPickerProps } from '../../components/item-picker';
