// The admin's user-task form (SPEC §5 "User task edit: count required ('count必填')"): the fields
// the contract's updateTask body allows (TaskUpdateRequest: count, labelCount, price, buyIn, bonus,
// punish). Everything travels as text in the form; the schema's output is the body without the id.
// - count: required, a whole number of at least 1.
// - labelCount, bonus, punish (折扣): blank means 0.
// - price, buyIn: blank leaves the stored value as it is (price may have none, and the body cannot
//   clear it).
import * as v from 'valibot';
import { formatMoney } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import type { Task, TaskUpdateRequest } from './admin-tasks-api';

const t = zh.adminTasks;
const E = t.edit;
const F = t.task;

const COUNT = /^\d{1,7}$/;
const MONEY = /^\d{1,8}(\.\d{1,2})?$/;
const MAX_COUNT = 1_000_000;

const wholeNumber = (label: string) => v.check((s: string) => s === '' || (COUNT.test(s) && Number(s) <= MAX_COUNT), E.mustBeWholeNumber(label));
const money = (label: string) => v.check((s: string) => s === '' || MONEY.test(s), E.mustBeMoney(label));

const count = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(E.countRequired),
  wholeNumber(F.count),
  v.check((s) => Number(s) >= 1, E.mustBePositive(F.count)),
  v.transform(Number),
);
const zeroWhenBlank = (check: v.CheckAction<string, string>) =>
  v.pipe(
    v.string(),
    v.trim(),
    check,
    v.transform((s) => (s === '' ? 0 : Number(s))),
  );
const keptWhenBlank = (label: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    money(label),
    v.transform((s) => (s === '' ? undefined : Number(s))),
  );

export const taskEditSchema = v.object({
  count,
  labelCount: zeroWhenBlank(wholeNumber(F.labelCount)),
  price: keptWhenBlank(F.price),
  buyIn: keptWhenBlank(F.buyIn),
  bonus: zeroWhenBlank(money(F.bonus)),
  punish: zeroWhenBlank(money(F.punish)),
});

export type TaskEditFields = v.InferInput<typeof taskEditSchema>;
export type TaskEditValues = v.InferOutput<typeof taskEditSchema>;

/** The form's starting values: the stored task. */
export function taskEditFields(task: Task): TaskEditFields {
  return {
    count: String(task.count),
    labelCount: String(task.labelCount),
    price: formatMoney(task.price),
    buyIn: formatMoney(task.buyIn),
    bonus: formatMoney(task.bonus),
    punish: formatMoney(task.punish),
  };
}

/** The updateTask body: the id and the values, kept-when-blank ones left out. */
export function taskEditBody(id: number, values: TaskEditValues): TaskUpdateRequest {
  const body: TaskUpdateRequest = { id, count: values.count, labelCount: values.labelCount, bonus: values.bonus, punish: values.punish };
  if (values.price !== undefined) body.price = values.price;
  if (values.buyIn !== undefined) body.buyIn = values.buyIn;
  return body;
}
