// The columns both logs show (/admin/task-audit, /admin/tracking-audit); each page puts them in its
// own order and adds its own (the status, whose kind differs per log). A log has a dozen columns and
// must fit a 1400 px screen beside the sidebar, so each holds its text in as little room as it
// reads well in: a tracking id, an operator or a user stays on one line and, when the table is
// short of room, is cut with an ellipsis (the whole text is the cell's title); the time may break
// between day and hour; an action or an item name wraps (the name to two lines at most).
import type { JSX } from 'react';
import type { components } from '../../../api/schema';
import { zh } from '../../i18n/zh';
import { userLabel } from '../../lib/filter-fields';
import { columnHelper } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { auditActionLabel, auditEntityLabel, auditOperatorLabel, auditTaskLabel } from './audit-entry';

type AuditEntry = components['schemas']['AuditEntry'];
type AppUser = components['schemas']['User'];

const c = zh.audit.column;

export const auditColumn = columnHelper<AuditEntry>();

/**
 * One line of text, as wide as it is up to the max-width `className` gives, and shrinking to its
 * min-width when the table needs the room: cut with an ellipsis then, the title has it whole. (A
 * grid track of minmax(0, max-content) asks the table for no least width, a plain nowrap text for
 * all of it.)
 */
function Clipped({ text, className }: { text: string; className: string }): JSX.Element | null {
  if (!text) return null;
  return (
    <span className={`grid grid-cols-[minmax(0,max-content)] ${className}`}>
      <span title={text} className="truncate">
        {text}
      </span>
    </span>
  );
}

/** '2025-01-10 16:00', broken between the day and the time when the column is narrow. */
function Time({ ms }: { ms: number }): JSX.Element {
  const [day, time] = formatDateTime(ms).split(' ');
  return (
    <>
      <span className="whitespace-nowrap">{day}</span> <span className="whitespace-nowrap">{time}</span>
    </>
  );
}

/** The shared columns; `users` names an entry's owner. */
export function auditColumns(users: readonly AppUser[]) {
  return {
    id: auditColumn.accessor('id', { header: c.id, meta: { className: 'tabular-nums' } }),
    time: auditColumn.accessor('createdAt', { header: c.time, cell: ({ getValue }) => <Time ms={getValue()} />, meta: { className: 'tabular-nums' } }),
    operator: auditColumn.display({
      id: 'operator',
      header: c.operator,
      cell: ({ row }) => <Clipped text={auditOperatorLabel(row.original)} className="max-w-40 min-w-16" />,
    }),
    entity: auditColumn.accessor('entity', {
      header: c.entity,
      cell: ({ getValue }) => auditEntityLabel(getValue()),
      meta: { className: 'whitespace-nowrap' },
    }),
    action: auditColumn.accessor('action', { header: c.action, cell: ({ getValue }) => auditActionLabel(getValue()), meta: { className: 'min-w-16' } }),
    trackingId: auditColumn.accessor('trackingId', {
      header: c.trackingId,
      cell: ({ getValue }) => <Clipped text={getValue() ?? ''} className="max-w-64 min-w-20 font-mono text-xs" />,
    }),
    upc: auditColumn.accessor('upc', {
      header: c.upc,
      cell: ({ getValue }) => <Clipped text={getValue() ?? ''} className="max-w-40 min-w-16 font-mono text-xs" />,
    }),
    count: auditColumn.accessor('count', { header: c.count, meta: { align: 'right', className: 'tabular-nums' } }),
    itemName: auditColumn.accessor('itemName', {
      header: c.itemName,
      cell: ({ getValue }) => {
        const name = getValue() ?? '';
        return name ? (
          <span title={name} className="line-clamp-2 max-w-56 min-w-24 break-words">
            {name}
          </span>
        ) : null;
      },
    }),
    user: auditColumn.display({
      id: 'user',
      header: c.user,
      cell: ({ row }) => <Clipped text={userLabel(users, row.original.userId)} className="max-w-40 min-w-12" />,
    }),
    task: auditColumn.display({
      id: 'task',
      header: c.task,
      cell: ({ row }) => auditTaskLabel(row.original),
      meta: { className: 'whitespace-nowrap tabular-nums' },
    }),
  };
}
