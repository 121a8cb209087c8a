// A TanStack Table v9 wrapper for lists the SERVER pages: `data` is already the requested page, the
// table never slices it, and the pager reports page / size changes back to the caller (who keeps them
// in the URL search params and refetches). Optional extras: a checkbox column (ids from `rowId`;
// a row `canSelectRow` refuses has no checkbox), expandable detail rows (`renderSubRow`), and cards
// on a phone's width (`cards`: each row a card of its important fields and its actions, placed by
// the columns' meta.card). A first load shows skeleton rows under the headers; a failed load is said
// in place of the rows with a retry (`failure`), so the page's title and filters stay.
import {
  createColumnHelper,
  flexRender,
  functionalUpdate,
  metaHelper,
  rowExpandingFeature,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnHelper,
  type ReactTable,
  type Row,
  type RowData,
  type RowSelectionState,
} from '@tanstack/react-table';
import { Fragment, useMemo, type JSX, type ReactNode } from 'react';
import { Button, Spinner } from './button';
import { PageSizeSelect, Pager } from './pager';
import { ScrollRegion } from './scroll-region';
import { UI_TEXT } from './ui-text';
import { usePhoneWidth } from './use-media-query';

/**
 * Where a column goes when the rows are cards: `title` heads the card (the item), `badge` sits
 * beside it (the status), `field` is a labelled value (the default), `actions` are the card's foot,
 * `hidden` is left off the card (a detail the table has room for).
 */
export type CardPlace = 'title' | 'badge' | 'field' | 'actions' | 'hidden';

export interface DataTableColumnMeta {
  /** Extra classes for this column's header and body cells. */
  className?: string;
  align?: 'left' | 'center' | 'right';
  card?: CardPlace;
  /** The card's label of the value when the header is not plain text. */
  cardLabel?: string;
  /** Shown on cards only (a value every row of the table shares, such as its board's deadline). */
  cardOnly?: boolean;
}

/** A list that could not be loaded: what to say in place of its rows, and how to try again. */
export interface TableFailure {
  message: ReactNode;
  onRetry?: () => void;
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
  /** The server stopped counting (a log of millions): totalElements is a lower bound. */
  totalCapped?: boolean;
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
  /** On a phone's width the rows become cards (PHONE_QUERY; column meta.card places each value). */
  cards?: boolean;
  /** The rows could not be loaded: said in their place, with a retry. */
  failure?: TableFailure | null;
  className?: string;
}

/** The columns the table adds itself (selection, expansion). */
const CONTROL_COLUMNS = new Set(['__select', '__expand']);

/** Skeleton rows a first load shows under the headers (at most; fewer for a smaller page). */
const SKELETON_ROWS = 5;

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

type DataTableInstance<T extends RowData> = ReactTable<DataTableFeatures, T>;
type DataTableRow<T extends RowData> = Row<DataTableFeatures, T>;

/** The checkbox column: the header's box selects every selectable row of the page. */
function selectColumn<T extends RowData>(helper: ColumnHelper<DataTableFeatures, T>): DataTableColumn<T> {
  return helper.display({
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
  });
}

/** The expander column: opens the row's detail (renderSubRow) under it. */
function expandColumn<T extends RowData>(helper: ColumnHelper<DataTableFeatures, T>): DataTableColumn<T> {
  return helper.display({
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
  });
}

/** The caller's columns behind the ones the table adds itself (selection, expansion). */
function useAllColumns<T extends RowData>(columns: ReadonlyArray<DataTableColumn<T>>, selectable: boolean, expandable: boolean) {
  return useMemo(() => {
    const helper = createColumnHelper<DataTableFeatures, T>();
    const extra: Array<DataTableColumn<T>> = [];
    if (selectable) extra.push(selectColumn(helper));
    if (expandable) extra.push(expandColumn(helper));
    return [...extra, ...columns];
  }, [columns, selectable, expandable]);
}

/** The TanStack table of the page: row ids, expansion and (when given) the caller's selection. */
function useDataTable<T extends RowData>({
  columns,
  data,
  rowId,
  rowSelection,
  onRowSelectionChange,
  canSelectRow,
  renderSubRow,
}: Pick<DataTableProps<T>, 'columns' | 'data' | 'rowId' | 'rowSelection' | 'onRowSelectionChange' | 'canSelectRow' | 'renderSubRow'>) {
  const selectable = rowSelection !== undefined && onRowSelectionChange !== undefined;
  const expandable = renderSubRow !== undefined;
  const allColumns = useAllColumns(columns, selectable, expandable);
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
  return { table, selectable };
}

export function DataTable<T extends RowData>(props: DataTableProps<T>): JSX.Element {
  const { size, loading = false, renderSubRow, emptyText = UI_TEXT.empty, caption, dense = false, cards = false, failure = null, className = '' } = props;
  const phone = usePhoneWidth();
  const { table, selectable } = useDataTable(props);
  const rows = table.getRowModel().rows;
  // A first load (nothing to show yet) shows skeletons; a reload keeps the rows under an overlay.
  const skeleton = loading && rows.length === 0 && !failure;
  const view: RowsView<T> = {
    table,
    rows,
    selectable,
    renderSubRow,
    emptyText,
    caption,
    skeleton,
    skeletonRows: Math.max(1, Math.min(size, SKELETON_ROWS)),
    failed: failure && !loading ? <FailureNotice failure={failure} /> : null,
  };
  return (
    <div className={className}>
      {cards && phone ? (
        <div className="relative" aria-busy={loading || undefined}>
          <CardRows view={view} />
          {loading && <LoadingNotice overlay={!skeleton} />}
        </div>
      ) : (
        <ScrollRegion label={caption ?? ''} className="relative rounded-lg border border-slate-200 bg-white">
          <GridRows view={view} loading={loading} cellPadding={dense ? 'px-2 py-1.5' : 'px-3 py-2'} />
          {loading && <LoadingNotice overlay={!skeleton} />}
        </ScrollRegion>
      )}
      <ListFooter {...props} />
    </div>
  );
}

/** What both views (cards on a phone, the table elsewhere) show of the page's rows. */
interface RowsView<T extends RowData> {
  table: DataTableInstance<T>;
  rows: Array<DataTableRow<T>>;
  selectable: boolean;
  renderSubRow: ((row: T) => ReactNode) | undefined;
  emptyText: ReactNode;
  caption: string | undefined;
  skeleton: boolean;
  skeletonRows: number;
  failed: ReactNode;
}

/** The rows as cards (a phone's width): a failure, skeleton cards, the empty text or a card per row. */
function CardRows<T extends RowData>({ view }: { view: RowsView<T> }): JSX.Element {
  if (view.failed) return <div className="rounded-lg border border-slate-200 bg-white p-4">{view.failed}</div>;
  if (view.skeleton) {
    return (
      <ul className="flex flex-col gap-3" aria-hidden="true">
        {Array.from({ length: Math.min(view.skeletonRows, 3) }, (_, i) => (
          <li key={i} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3">
            <SkeletonBar className="h-5 w-2/3" />
            <SkeletonBar className="w-1/2" />
            <SkeletonBar className="w-1/3" />
          </li>
        ))}
      </ul>
    );
  }
  if (view.rows.length === 0) {
    return <p className="rounded-lg border border-slate-200 bg-white px-3 py-8 text-center text-sm text-slate-500">{view.emptyText}</p>;
  }
  return (
    <ul className="flex flex-col gap-3" aria-label={view.caption}>
      {view.rows.map((row) => (
        <RowCard key={row.id} row={row} view={view} />
      ))}
    </ul>
  );
}

/** One row as a card: checkbox, title, badge and expander on top, labelled fields, then the actions. */
function RowCard<T extends RowData>({ row, view }: { row: DataTableRow<T>; view: RowsView<T> }): JSX.Element {
  const { table, selectable, renderSubRow } = view;
  // The checkbox and the expander have places of their own on the card.
  const placed = (place: CardPlace) =>
    row.getAllCells().filter((cell) => !CONTROL_COLUMNS.has(cell.column.id) && (cell.column.columnDef.meta?.card ?? 'field') === place);
  const control = (id: string) => row.getAllCells().find((cell) => cell.column.id === id);
  const select = control('__select');
  const expand = control('__expand');
  const actions = placed('actions');
  const selected = selectable && row.getIsSelected();
  return (
    <li
      // A list item takes no aria-selected (axe: aria-allowed-attr): its checkbox says it is chosen.
      data-selected={selectable ? row.getIsSelected() : undefined}
      className={`rounded-lg border bg-white p-3 shadow-sm ${selected ? 'border-blue-300 bg-blue-50' : 'border-slate-200'}`}
    >
      <div className="flex items-start gap-2">
        {select && (
          <span className="pt-0.5">
            <table.FlexRender cell={select} />
          </span>
        )}
        <div className="min-w-0 flex-1 font-medium break-words text-slate-900">
          {placed('title').map((cell) => (
            <div key={cell.id}>
              <table.FlexRender cell={cell} />
            </div>
          ))}
        </div>
        {placed('badge').map((cell) => (
          <span key={cell.id} className="shrink-0">
            <table.FlexRender cell={cell} />
          </span>
        ))}
        {expand && <table.FlexRender cell={expand} />}
      </div>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {placed('field').map((cell) => {
          const content = cardFieldContent(cell);
          if (content === null) return null;
          const def = cell.column.columnDef;
          const label = def.meta?.cardLabel ?? (typeof def.header === 'string' ? def.header : cell.column.id);
          return (
            <Fragment key={cell.id}>
              <dt className="text-slate-500">{label}</dt>
              <dd className="min-w-0 break-words text-slate-800 tabular-nums">{content}</dd>
            </Fragment>
          );
        })}
      </dl>
      {actions.length > 0 && (
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-slate-100 pt-2">
          {actions.map((cell) => (
            <table.FlexRender key={cell.id} cell={cell} />
          ))}
        </div>
      )}
      {renderSubRow && row.getIsExpanded() && <div className="mt-3 border-t border-slate-100 pt-3">{renderSubRow(row.original)}</div>}
    </li>
  );
}

/** The rows as a table: its headers, then a failure, skeleton rows, the empty text or the rows. */
/**
 * A whole-row message (nothing found, a failure) kept in the part of a wide table the user sees: on
 * a phone the table scrolls sideways, and centred on its whole width the message sat off-screen
 * to the right. It sticks to the left edge of the scrolling box, at most a screen wide.
 */
function InView({ children }: { children: ReactNode }): JSX.Element {
  return <div className="sticky left-0 max-w-[calc(100vw-2rem)]">{children}</div>;
}

function GridRows<T extends RowData>({ view, loading, cellPadding }: { view: RowsView<T>; loading: boolean; cellPadding: string }): JSX.Element {
  const { table, caption } = view;
  const tableColumns = table.getAllLeafColumns().filter((column) => !column.columnDef.meta?.cardOnly);
  const columnCount = tableColumns.length;
  return (
    <table className="min-w-full divide-y divide-slate-200 text-sm" aria-busy={loading || undefined}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <GridHead table={table} cellPadding={cellPadding} />
      <tbody className="divide-y divide-slate-100">
        {view.failed ? (
          <tr>
            <td colSpan={columnCount} className="px-3 py-6">
              <InView>{view.failed}</InView>
            </td>
          </tr>
        ) : view.skeleton ? (
          Array.from({ length: view.skeletonRows }, (_, i) => (
            <tr key={`skeleton-${i}`} aria-hidden="true" data-skeleton="">
              {tableColumns.map((column) => (
                <td key={column.id} className={cellPadding}>
                  <SkeletonBar />
                </td>
              ))}
            </tr>
          ))
        ) : view.rows.length === 0 ? (
          <tr>
            <td colSpan={columnCount} className="h-24 px-3 py-8 text-center text-slate-500">
              <InView>{view.emptyText}</InView>
            </td>
          </tr>
        ) : (
          view.rows.map((row) => <GridRow key={row.id} row={row} view={view} columnCount={columnCount} cellPadding={cellPadding} />)
        )}
      </tbody>
    </table>
  );
}

function GridHead<T extends RowData>({ table, cellPadding }: { table: DataTableInstance<T>; cellPadding: string }): JSX.Element {
  return (
    <thead className="bg-slate-50">
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers
            .filter((header) => !header.column.columnDef.meta?.cardOnly)
            .map((header) => {
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
  );
}

/** One row of the table, and its detail row under it when expanded. */
function GridRow<T extends RowData>({
  row,
  view,
  columnCount,
  cellPadding,
}: {
  row: DataTableRow<T>;
  view: RowsView<T>;
  columnCount: number;
  cellPadding: string;
}): JSX.Element {
  const { table, selectable, renderSubRow } = view;
  return (
    <>
      <tr aria-selected={selectable ? row.getIsSelected() : undefined} className={selectable && row.getIsSelected() ? 'bg-blue-50' : 'hover:bg-slate-50'}>
        {row
          .getAllCells()
          .filter((cell) => !cell.column.columnDef.meta?.cardOnly)
          .map((cell) => {
            const meta = cell.column.columnDef.meta;
            return (
              <td key={cell.id} className={`${cellPadding} text-slate-800 ${ALIGN_CLASS[meta?.align ?? 'left']} ${meta?.className ?? ''}`}>
                <table.FlexRender cell={cell} />
              </td>
            );
          })}
      </tr>
      {renderSubRow && row.getIsExpanded() && (
        <tr className="bg-slate-50">
          <td colSpan={columnCount} className="px-3 py-3">
            {renderSubRow(row.original)}
          </td>
        </tr>
      )}
    </>
  );
}

const isBlank = (value: unknown) => value === null || value === undefined || value === '' || value === false;

/**
 * What a card shows of a field, rendered once; null for a value it leaves off rather than show a label
 * over nothing (an empty text or no value at all): the column's value or, for a display column (no
 * value of its own), what its cell renders. That cell is called as a function here (rules-of-hooks
 * keeps hooks out of a column's `cell`).
 */
function cardFieldContent<T extends RowData>(cell: ReturnType<DataTableRow<T>['getAllCells']>[number]): ReactNode {
  const render = cell.column.columnDef.cell;
  if (cell.column.accessorFn) return isBlank(cell.getValue()) ? null : flexRender(render, cell.getContext());
  const content = (typeof render === 'function' ? render(cell.getContext()) : render) as ReactNode;
  return isBlank(content) ? null : content;
}

function SkeletonBar({ className = 'w-full max-w-24' }: { className?: string }): JSX.Element {
  return <span className={`block h-4 animate-pulse rounded bg-slate-200 ${className}`} />;
}

/** The load under way: over the rows a reload keeps, or only said (to screen readers) beside the skeletons. */
function LoadingNotice({ overlay }: { overlay: boolean }): JSX.Element {
  return overlay ? (
    <div role="status" className="absolute inset-0 flex items-center justify-center gap-2 bg-white/60 text-sm text-slate-600">
      <Spinner />
      {UI_TEXT.loading}
    </div>
  ) : (
    <span role="status" className="sr-only">
      {UI_TEXT.loading}
    </span>
  );
}

function FailureNotice({ failure }: { failure: TableFailure }): JSX.Element {
  return (
    <div role="alert" className="flex flex-wrap items-center justify-center gap-3 text-center text-sm text-red-700">
      <span>{failure.message}</span>
      {failure.onRetry && (
        <Button variant="secondary" size="sm" onClick={failure.onRetry}>
          {UI_TEXT.retry}
        </Button>
      )}
    </div>
  );
}

function ListFooter({
  page,
  size,
  totalPages,
  totalElements,
  totalCapped,
  onPageChange,
  onSizeChange,
  sizeOptions,
}: Pick<
  DataTableProps<never>,
  'page' | 'size' | 'totalPages' | 'totalElements' | 'totalCapped' | 'onPageChange' | 'onSizeChange' | 'sizeOptions'
>): JSX.Element {
  return (
    <div className="mt-3 flex flex-wrap items-center justify-end gap-4 text-sm text-slate-600">
      {totalElements !== undefined && <span>{totalCapped ? UI_TEXT.totalAtLeast(totalElements) : UI_TEXT.total(totalElements)}</span>}
      <Pager page={page} totalPages={totalPages} onChange={onPageChange} />
      {sizeOptions && onSizeChange && <PageSizeSelect value={size} options={sizeOptions} onChange={onSizeChange} />}
    </div>
  );
}
