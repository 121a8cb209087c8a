// The admin board task form's rules (SPEC §5 "Admin board task form"), both variants in one valibot
// schema keyed by the form's `variant` field:
// - full: item, url, price, buyIn, show, need, averageCost, address, status, note, itemSource; all
//   required except price and note ('<label>必填'); url gets 'http://' when it does not start with
//   http (the server applies the same rule to whatever reaches it).
// - simple: item, buyIn, show, and an optional price; the server takes the item's price (when price
//   is empty) and url.
// A new board task opens in the simple form, an existing one in the full form; choosing the item fills
// an empty url and price from it (decision 110: SPEC lets the simple form save with the item's price
// and url, so the first try saves). The address field left empty is the default address (the fixed
// code DEFAULT_BOARD_TASK_ADDRESS, shown as 默认地址), so the full form's required address is never
// an English code to keep or type.
// The schema's output is the body of saveBoardTask without the id.
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import { BOARD_TASK_STATUSES as MACHINE_BOARD_TASK_STATUSES } from '../../../../machines/claim.machine';
import { DEFAULT_BOARD_TASK_ADDRESS } from '../../../api/constants';
import { zh } from '../../i18n/zh';
import type { BoardTask, BoardTaskSaveRequest, BoardTaskStatus } from './boards-api';

const t = zh.boards;
const L = t.boardTask;

/** The form's choices: the claim machine's list, checked against the contract's status. */
export const BOARD_TASK_STATUSES = MACHINE_BOARD_TASK_STATUSES satisfies readonly BoardTaskStatus[];

export type BoardTaskFormVariant = 'full' | 'simple';

/** SPEC §5: 'http://' in front of a url that does not start with http. */
export function withHttp(url: string): string {
  return /^http/i.test(url) ? url : `http://${url}`;
}

const NUMBER = /^\d+(\.\d+)?$/;
const MONEY = /^\d{1,8}(\.\d{1,2})?$/;
const COUNT = /^\d{1,7}$/;

const text = v.pipe(v.string(), v.trim());
const requiredText = (label: string) => v.pipe(v.string(), v.trim(), v.nonEmpty(t.required(label)));

const moneyChecks = (label: string) =>
  [v.check((s: string) => s === '' || NUMBER.test(s), L.mustBeNumber(label)), v.check((s: string) => s === '' || MONEY.test(s), L.moneyPlaces(label))] as const;

const requiredMoney = (label: string) => v.pipe(v.string(), v.trim(), v.nonEmpty(t.required(label)), ...moneyChecks(label), v.transform(Number));

const optionalMoney = (label: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    ...moneyChecks(label),
    v.transform((s) => (s === '' ? undefined : Number(s))),
  );

const requiredCount = (label: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(t.required(label)),
    v.check((s) => COUNT.test(s), L.mustBeWholeNumber(label)),
    v.transform(Number),
  );

const itemId = v.pipe(
  v.nullable(v.number(), null),
  v.check((id) => id !== null, t.required(L.itemId)),
  v.transform((id) => id as number),
);

const fullSchema = v.object({
  variant: v.literal('full'),
  itemId,
  url: v.pipe(v.string(), v.trim(), v.nonEmpty(t.required(L.url)), v.transform(withHttp)),
  price: optionalMoney(L.price),
  buyIn: requiredMoney(L.buyIn),
  show: requiredCount(L.show),
  need: requiredCount(L.need),
  averageCost: requiredMoney(L.averageCost),
  address: v.pipe(
    text,
    v.transform((address) => address || DEFAULT_BOARD_TASK_ADDRESS),
  ),
  status: v.picklist(BOARD_TASK_STATUSES, t.required(L.status)),
  note: text,
  itemSource: requiredText(L.itemSource),
});

const simpleSchema = v.object({
  variant: v.literal('simple'),
  itemId,
  price: optionalMoney(L.price),
  buyIn: requiredMoney(L.buyIn),
  show: requiredCount(L.show),
});

export const boardTaskSchema = v.variant('variant', [fullSchema, simpleSchema]);

export type BoardTaskFormInput = v.InferInput<typeof fullSchema> | v.InferInput<typeof simpleSchema>;
export type BoardTaskFormValues = v.InferOutput<typeof boardTaskSchema>;

/** All fields of both variants: the form keeps them while the variant toggles. */
export interface BoardTaskFormFields {
  variant: BoardTaskFormVariant;
  itemId: number | null;
  url: string;
  price: string;
  buyIn: string;
  show: string;
  need: string;
  averageCost: string;
  address: string;
  status: BoardTaskStatus | '';
  note: string;
  itemSource: string;
}

const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export function boardTaskFormFields(task: BoardTask | null): BoardTaskFormFields {
  return {
    variant: task ? 'full' : 'simple',
    itemId: task?.itemId ?? null,
    url: task?.url ?? '',
    price: numberText(task?.price),
    buyIn: numberText(task?.buyIn),
    show: numberText(task?.show),
    need: numberText(task?.need),
    averageCost: numberText(task?.averageCost),
    // Empty stands for the default address (the field's placeholder says so).
    address: !task || task.address === DEFAULT_BOARD_TASK_ADDRESS ? '' : task.address,
    status: task?.status ?? 'normal',
    note: task?.note ?? '',
    itemSource: task?.itemSource ?? '',
  };
}

/** The item's url and price for the fields still empty (the item picked fills what was not typed). */
export function itemDefaults(
  fields: Pick<BoardTaskFormFields, 'url' | 'price'>,
  item: { url: string; price?: number | null },
): Partial<Pick<BoardTaskFormFields, 'url' | 'price'>> {
  const out: Partial<Pick<BoardTaskFormFields, 'url' | 'price'>> = {};
  if (fields.url.trim() === '' && item.url) out.url = item.url;
  if (fields.price.trim() === '' && item.price !== null && item.price !== undefined) out.price = numberText(item.price);
  return out;
}

/** The saveBoardTask body (an absent price lets the server take the item's). */
export function boardTaskBody(values: BoardTaskFormValues, id: number | null): BoardTaskSaveRequest {
  const { variant: _variant, price, ...rest } = values;
  return { ...(id !== null ? { id } : {}), ...rest, ...(price !== undefined ? { price } : {}) };
}

/**
 * The form's resolver. The form holds the fields of both variants (a superset of either variant's
 * input), so the schema is typed as reading those; it validates the chosen variant's fields.
 */
export const boardTaskResolver = valibotResolver<BoardTaskFormFields, unknown, BoardTaskFormValues>(
  boardTaskSchema as unknown as v.GenericSchema<BoardTaskFormFields, BoardTaskFormValues>,
);
