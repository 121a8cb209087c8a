// A TanStack Table v9 wrapper for lists the SERVER pages: `data` is already the requested page, the
// table never slices it, and the pager reports page / size changes back to the caller (who keeps them
// in the URL search params and refetches). Optional extras: a checkbox column (ids from `rowId`;
// a row `canSelectRow` refuses has no checkbox), and expandable detail rows (`renderSubRow`).
import {
  createColumnHelper,
  functionalUpdate,
  metaHelper,
  rowExpandingFeature,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnHelper,
  type RowData,
  type RowSelectionState,
} from '@tanstack/react-table';
import { Fragment, useMemo, type JSX, type ReactNode } from 'react';
import { Spinner } from './button';
import { PageSizeSelect, Pager } from './pager';
import { ScrollRegion } from './scroll-region';
import { UI_TEXT } from './ui-text';

export interface DataTableColumnMeta {
  /** Extra classes for this column's header and body cells. */
  className?: string;
  align?: 'left' | 'center' | 'right';
}

export const dataTableFeatures = tableFeatures({
  rowSelectionFeature,
  rowExpandingFeature,
  columnMeta: metaHelper<DataTableColumnMeta>(),
});
export type DataTableFeatures = typeof dataTableFeatures;

/** `columnHelper<Row>()` gives `accessor` / `display` / `columns` typed for DataTable. */
export function columnHelper<T extends RowData>(): ColumnHelper<DataTableFeatures, T> {
  return createColumnHelper<DataTableFeatures, T>();
}

// Each column has its own value type; `any` here is what helper.columns() itself returns.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataTableColumn<T extends RowData> = ColumnDef<DataTableFeatures, T, any>;

export type { RowSelectionState };

export interface DataTableProps<T extends RowData> {
  /** Keep stable (module scope or useMemo): a new array rebuilds the column model. */
  columns: ReadonlyArray<DataTableColumn<T>>;
  /** The current page as the server returned it. Keep stable too. */
  data: readonly T[];
  /** 0-based. */
  page: number;
  size: number;
  totalPages: number;
  totalElements?: number;
  onPageChange: (page: number) => void;
  /** The caller usually resets the page to 0 together with the size. */
  onSizeChange?: (size: number) => void;
  /** The page-size select is shown only when these are given (SPEC §9 lists them per screen). */
  sizeOptions?: readonly number[];
  loading?: boolean;
  /** Row identity for selection and React keys; defaults to `row.id`, then the index. */
  rowId?: (row: T) => string | number;
  /** Pass both to get a checkbox column; keys are `String(rowId(row))`. */
  rowSelection?: RowSelectionState;
  onRowSelectionChange?: (selection: RowSelectionState) => void;
  /** Which rows may be selected (every row by default); the others show no checkbox and the header's skips them. */
  canSelectRow?: (row: T) => boolean;
  /** Rows become expandable; the returned node fills a full-width row under the row. */
  renderSubRow?: (row: T) => ReactNode;
  emptyText?: ReactNode;
  /** Accessible name for the table. */
  caption?: string;
  /** Tighter cells, for wide tables of many short columns (the audit logs). */
  dense?: boolean;
  className?: string;
}

const ALIGN_CLASS = { left: 'text-left', center: 'text-center', right: 'text-right' } as const;

function defaultRowId(row: unknown, index: number): string {
  if (typeof row === 'object' && row !== null && 'id' in row) {
    const id = (row as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return String(index);
}

function SelectCheckbox({
  checked,
  indeterminate = false,
  disabled,
  label,
  onClick,
}: {
  checked: boolean;
  indeterminate?: boolean;
  disabled?: boolean;
  label: string;
  onClick: (event: unknown) => void;
}) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      ref={(el) => {
        if (el) el.indeterminate = indeterminate;
      }}
      // TanStack's handler reads shiftKey for range selection, which the click event carries.
      onClick={onClick}
      onChange={() => {}}
      className="size-4 rounded border-slate-300 align-middle"
    />
  );
}

export function DataTable<T extends RowData>({
  columns,
  data,
  page,
  size,
  totalPages,
  totalElements,
  onPageChange,
  onSizeChange,
  sizeOptions,
  loading = false,
  rowId,
  rowSelection,
  onRowSelectionChange,
  canSelectRow,
  renderSubRow,
  emptyText = UI_TEXT.empty,
  caption,
  dense = false,
  className = '',
}: DataTableProps<T>): JSX.Element {
  const cellPadding = dense ? 'px-2 py-1.5' : 'px-3 py-2';
  const selectable = rowSelection !== undefined && onRowSelectionChange !== undefined;
  const expandable = renderSubRow !== undefined;

  const allColumns = useMemo(() => {
    const helper = createColumnHelper<DataTableFeatures, T>();
    const extra: Array<DataTableColumn<T>> = [];
    if (selectable) {
      extra.push(
        helper.display({
          id: '__select',
          meta: { className: 'w-10', align: 'center' },
          header: ({ table }) => (
            <SelectCheckbox
              label={UI_TEXT.selectAll}
              checked={table.getIsAllPageRowsSelected()}
              indeterminate={table.getIsSomePageRowsSelected() && !table.getIsAllPageRowsSelected()}
              disabled={!table.getRowModel().rows.some((row) => row.getCanSelect())}
              onClick={table.getToggleAllPageRowsSelectedHandler()}
            />
          ),
          cell: ({ row }) =>
            row.getCanSelect() ? <SelectCheckbox label={UI_TEXT.selectRow} checked={row.getIsSelected()} onClick={row.getToggleSelectedHandler()} /> : null,
        }),
      );
    }
    if (expandable) {
      extra.push(
        helper.display({
          id: '__expand',
          meta: { className: 'w-10', align: 'center' },
          header: () => null,
          cell: ({ row }) => (
            <button
              type="button"
              aria-expanded={row.getIsExpanded()}
              aria-label={row.getIsExpanded() ? UI_TEXT.collapseRow : UI_TEXT.expandRow}
              onClick={row.getToggleExpandedHandler()}
              className="inline-flex size-6 items-center justify-center rounded text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              <span aria-hidden="true" className={`transition-transform ${row.getIsExpanded() ? 'rotate-90' : ''}`}>
                ▸
              </span>
            </button>
          ),
        }),
      );
    }
    return [...extra, ...columns];
  }, [columns, selectable, expandable]);

  const table = useTable<DataTableFeatures, T>({
    features: dataTableFeatures,
    columns: allColumns,
    data,
    getRowId: rowId ? (row) => String(rowId(row)) : defaultRowId,
    getRowCanExpand: () => expandable,
    // Rows are keyed by rowId, so an open row stays open when the page reloads its data.
    autoResetExpanded: false,
    enableRowSelection: selectable && canSelectRow ? (row) => canSelectRow(row.original) : selectable,
    ...(selectable && {
      state: { rowSelection },
      onRowSelectionChange: (updater) => onRowSelectionChange(functionalUpdate(updater, rowSelection)),
    }),
  });

  const rows = table.getRowModel().rows;
  const columnCount = table.getAllLeafColumns().length;

  return (
    <div className={className}>
      <ScrollRegion label={caption ?? ''} className="relative rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-busy={loading || undefined}>
          {caption && <caption className="sr-only">{caption}</caption>}
          <thead className="bg-slate-50">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta;
                  return (
                    <th
                      key={header.id}
                      colSpan={header.colSpan}
                      scope="col"
                      className={`${cellPadding} font-medium whitespace-nowrap text-slate-600 ${ALIGN_CLASS[meta?.align ?? 'left']} ${meta?.className ?? ''}`}
                    >
                      {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columnCount} className="h-24 px-3 py-8 text-center text-slate-500">
                  {loading ? null : emptyText}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <Fragment key={row.id}>
                  <tr
                    aria-selected={selectable ? row.getIsSelected() : undefined}
                    className={selectable && row.getIsSelected() ? 'bg-blue-50' : 'hover:bg-slate-50'}
                  >
                    {row.getAllCells().map((cell) => {
                      const meta = cell.column.columnDef.meta;
                      return (
                        <td key={cell.id} className={`${cellPadding} text-slate-800 ${ALIGN_CLASS[meta?.align ?? 'left']} ${meta?.className ?? ''}`}>
                          <table.FlexRender cell={cell} />
                        </td>
                      );
                    })}
                  </tr>
                  {expandable && row.getIsExpanded() && (
                    <tr className="bg-slate-50">
                      <td colSpan={columnCount} className="px-3 py-3">
                        {renderSubRow(row.original)}
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))
            )}
          </tbody>
        </table>
        {loading && (
          <div role="status" className="absolute inset-0 flex items-center justify-center gap-2 bg-white/60 text-sm text-slate-600">
            <Spinner />
            {UI_TEXT.loading}
          </div>
        )}
      </ScrollRegion>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-4 text-sm text-slate-600">
        {totalElements !== undefined && <span>{UI_TEXT.total(totalElements)}</span>}
        <Pager page={page} totalPages={totalPages} onChange={onPageChange} />
        {sizeOptions && onSizeChange && <PageSizeSelect value={size} options={sizeOptions} onChange={onSizeChange} />}
      </div>
    </div>
  );
}
