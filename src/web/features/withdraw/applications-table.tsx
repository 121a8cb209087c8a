// The payment applications of a withdrawal, as the request dialog (a checkbox each, to choose what to
// withdraw) and the receipt dialog (a status each, to see what 确认收款 confirms) list them: one table
// with the task id, the item and the income, and a column before or after for what the dialog adds.
import type { JSX, ReactNode } from 'react';
import { taskDisplayId } from '../../../../machines/task.machine';
import { formatMoney } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import type { PaymentApply } from './withdraw-api';

const t = zh.withdraw.applications;

/** A column a dialog adds: its header and its cell for each application. */
export interface ApplyColumn {
  header: ReactNode;
  cell: (apply: PaymentApply) => ReactNode;
  className?: string;
}

const TH = 'px-3 py-2 text-left font-medium text-slate-600';

export function ApplicationsTable({
  applies,
  caption,
  before,
  after,
  rowClassName,
}: {
  applies: readonly PaymentApply[];
  caption: string;
  before?: ApplyColumn;
  after?: ApplyColumn;
  rowClassName?: (apply: PaymentApply) => string | undefined;
}): JSX.Element {
  return (
    <table className="min-w-full divide-y divide-slate-200 text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-50">
        <tr>
          {before && (
            <th scope="col" className={before.className ?? TH}>
              {before.header}
            </th>
          )}
          <th scope="col" className={TH}>
            {t.colTaskId}
          </th>
          <th scope="col" className={TH}>
            {t.colItemName}
          </th>
          <th scope="col" className={`${TH} text-right`}>
            {t.colIncome}
          </th>
          {after && (
            <th scope="col" className={after.className ?? TH}>
              {after.header}
            </th>
          )}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {applies.map((apply) => (
          <tr key={apply.id} className={rowClassName?.(apply)}>
            {before && <td className={before.className ?? 'px-3 py-2'}>{before.cell(apply)}</td>}
            <td className="px-3 py-2 tabular-nums">{taskDisplayId(apply)}</td>
            <td className="px-3 py-2">{apply.itemName}</td>
            <td className="px-3 py-2 text-right tabular-nums">{formatMoney(apply.income)}</td>
            {after && <td className={after.className ?? 'px-3 py-2'}>{after.cell(apply)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
