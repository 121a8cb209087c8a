// The expanded row of an audit entry in either log (/admin/task-audit, /admin/tracking-audit): what
// the change did, field by field, before -> after, with the changed fields marked. The entry carries
// both as JSON text (AuditEntry before / after: the whole row as it was and as it became); text that
// is not a JSON object is shown as written. Each log names the fields of its rows (`fieldLabels`);
// the raw field name is always shown too. The detail never widens its log: the table takes the
// row's width with fixed columns, and a long value (a JSON object, a message) wraps inside its cell.
import type { JSX } from 'react';
import type { components } from '../../../api/schema';
import { zh } from '../../i18n/zh';
import { formatDateTime } from '../ui/format';

type AuditEntry = components['schemas']['AuditEntry'];

const t = zh.audit;

/** A field's label where the log names it (not `id`: the row may be another entity's than the log's). */
function labelOf(labels: Readonly<Record<string, string>>, field: string): string | undefined {
  return field !== 'id' && Object.hasOwn(labels, field) ? labels[field] : undefined;
}

type Snapshot = Record<string, unknown>;

function isRecord(value: unknown): value is Snapshot {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type Side = { kind: 'none' } | { kind: 'fields'; fields: Snapshot } | { kind: 'text'; text: string };

/** A side of the change: nothing, an object's fields, or text that is not a JSON object. */
export function parseSide(value: unknown): Side {
  if (value === null || value === undefined || value === '') return { kind: 'none' };
  if (isRecord(value)) return { kind: 'fields', fields: value };
  if (typeof value !== 'string') return { kind: 'text', text: JSON.stringify(value) };
  try {
    const parsed: unknown = JSON.parse(value);
    if (isRecord(parsed)) return { kind: 'fields', fields: parsed };
    if (parsed === null) return { kind: 'none' };
  } catch {
    // not JSON: shown as written
  }
  return { kind: 'text', text: value };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

/** Every field of either side, in the order they first appear, and whether it changed. */
export function diffSnapshots(before: Snapshot | null, after: Snapshot | null): FieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => {
    const b = before?.[field];
    const a = after?.[field];
    return { field, before: b, after: a, changed: !same(b, a) };
  });
}

/** Times travel as epoch ms (createdAt, updatedAt, publishAt, ...): shown as the screens show them. */
const isTime = (field: string, value: unknown): value is number => /At$/.test(field) && typeof value === 'number' && Number.isFinite(value);

function show(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return t.emptyValue;
  if (isTime(field, value)) return formatDateTime(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const fieldsOf = (side: Side): Snapshot | null => (side.kind === 'fields' ? side.fields : null);

function sideText(side: Side): string {
  if (side.kind === 'none') return t.emptyValue;
  return side.kind === 'text' ? side.text : JSON.stringify(side.fields, null, 2);
}

/** A value wraps anywhere (a long id or JSON has no spaces) and keeps its own line breaks. */
const VALUE_CELL = 'px-2 py-1 align-top font-mono whitespace-pre-wrap [overflow-wrap:anywhere]';

export interface AuditDiffProps {
  entry: Pick<AuditEntry, 'id' | 'before' | 'after'>;
  /** Readable names of the fields, by field name. */
  fieldLabels?: Readonly<Record<string, string>>;
}

export function AuditDiff({ entry, fieldLabels = {} }: AuditDiffProps): JSX.Element {
  const fieldLabel = (field: string) => labelOf(fieldLabels, field);
  const before = parseSide(entry.before);
  const after = parseSide(entry.after);

  if (before.kind === 'none' && after.kind === 'none') return <p className="text-sm text-slate-500">{t.noDetail}</p>;

  if (before.kind === 'text' || after.kind === 'text') {
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        <RawSide title={t.rawBefore} text={sideText(before)} />
        <RawSide title={t.rawAfter} text={sideText(after)} />
      </div>
    );
  }

  const changes = diffSnapshots(fieldsOf(before), fieldsOf(after));
  const changedCount = changes.filter((c) => c.changed).length;
  return (
    <div className="flex flex-col gap-2">
      {changedCount === 0 && <p className="text-sm text-slate-500">{t.noChanges}</p>}
      <table className="w-full table-fixed text-xs">
        <caption className="sr-only">{`${t.changes} #${entry.id}`}</caption>
        <thead>
          <tr className="text-left text-slate-500">
            <th scope="col" className="w-48 px-2 py-1 font-medium">
              {t.field}
            </th>
            <th scope="col" className="px-2 py-1 font-medium">
              {t.before}
            </th>
            <th scope="col" className="w-6 px-1 py-1" aria-hidden="true" />
            <th scope="col" className="px-2 py-1 font-medium">
              {t.after}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {changes.map((change) => (
            <tr key={change.field} data-changed={change.changed || undefined} className={change.changed ? 'bg-amber-50' : undefined}>
              <th scope="row" className="px-2 py-1 text-left align-top font-mono font-normal break-words text-slate-600">
                {fieldLabel(change.field) && <span className="mr-1 font-sans text-slate-700">{fieldLabel(change.field)}</span>}
                {change.field}
                {change.changed && <span className="sr-only">（{t.changed}）</span>}
              </th>
              <td className={`${VALUE_CELL} ${change.changed ? 'text-red-700 line-through decoration-red-300' : 'text-slate-700'}`}>
                {show(change.field, change.before)}
              </td>
              <td className="px-1 py-1 align-top text-slate-500" aria-hidden="true">
                {change.changed ? '→' : ''}
              </td>
              <td className={`${VALUE_CELL} ${change.changed ? 'font-semibold text-green-700' : 'text-slate-700'}`}>{show(change.field, change.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RawSide({ title, text }: { title: string; text: string }): JSX.Element {
  return (
    <div className="min-w-0">
      <h3 className="mb-1 text-xs font-medium text-slate-500">{title}</h3>
      <pre
        tabIndex={0}
        aria-label={title}
        className="max-h-64 overflow-auto rounded border border-slate-200 bg-white p-2 text-xs break-all whitespace-pre-wrap focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        {text}
      </pre>
    </div>
  );
}
