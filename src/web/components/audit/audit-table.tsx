// The body of either log (/admin/task-audit, the user log; /admin/tracking-audit, the admin log): the
// filter form above a paged table of entries, each row expanding to its change, before -> after
// (audit-diff.tsx). A page gives its columns (audit-columns.tsx has the shared ones), the labels of
// its rows' fields, and its filter fields; every log also sorts by time, which this form adds.
// Filters, sort, page and size live in the URL: the form starts from `search`, and 查询 / 重置 /
// the pager ask `onSearch` for the next one (the route's loader fetches the page it describes).
import type { JSX, ReactNode } from 'react';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import * as v from 'valibot';
import type { components } from '../../../api/schema';
import { zh } from '../../i18n/zh';
import type { DataTableColumn } from '../ui/data-table';
import { FilterBar } from '../ui/filter-bar';
import { SelectField, useValibotForm } from '../ui/form';
import { PagedTable, type PageSearch } from '../ui/paged-table';
import { AuditDiff } from './audit-diff';
import { filterForm } from '../../lib/list-search';

type AuditEntry = components['schemas']['AuditEntry'];
type AuditPage = components['schemas']['AuditPage'];

const t = zh.audit;

const SORTS = ['desc', 'asc'] as const;
type AuditSort = (typeof SORTS)[number];

/** What every log's search params hold besides its filters. */
export interface AuditSearch extends PageSearch {
  isDesc: boolean;
}

/** A log's filter schema: its own fields, and the sort (added by `auditFilterSchema`). */
export type AuditFilterSchema = v.GenericSchema<FieldValues & { sort: AuditSort }, FieldValues & { sort: AuditSort }>;

/** The log's filter fields (valibot entries) plus the sort every log has. */
export function auditFilterSchema<const E extends v.ObjectEntries>(entries: E) {
  return v.object({ ...entries, sort: v.picklist(SORTS) });
}

type Filters<S extends AuditSearch> = Omit<S, keyof AuditSearch>;

export interface AuditFilterForm<S extends AuditSearch, F extends AuditFilterSchema> {
  /** From `auditFilterSchema`; module scope (a new schema is a new form). */
  schema: F;
  /** The fields' values for the URL's filters (the sort is filled in from isDesc). */
  values: (search: S) => Omit<v.InferInput<F>, 'sort'>;
  /** The URL's filters for the submitted fields (isDesc comes from the sort). */
  toSearch: (values: Omit<v.InferOutput<F>, 'sort'>) => Filters<S>;
  /** How the fields are laid out, e.g. 'grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4'. */
  layout: string;
  /** The fields (named as in `schema`); the sort select follows them. */
  fields: ReactNode;
}

export interface AuditTableProps<S extends AuditSearch, F extends AuditFilterSchema> {
  search: S;
  onSearch: (next: S) => void;
  audits: AuditPage;
  /** Keep stable (module scope or useMemo). */
  columns: ReadonlyArray<DataTableColumn<AuditEntry>>;
  /**
   * Readable names of the fields of the log's own rows (tasks, scan records), by field name. A
   * purchased record, in either log, is named by zh.audit.purchasedField.
   */
  fieldLabels: Readonly<Record<string, string>>;
  filters: AuditFilterForm<S, F>;
  sizeOptions: readonly number[];
  loading?: boolean;
  /** The table's accessible name (the log's name). */
  caption: string;
  emptyText: string;
}

export function AuditTable<S extends AuditSearch, F extends AuditFilterSchema>({
  search,
  onSearch,
  audits,
  columns,
  fieldLabels,
  filters,
  sizeOptions,
  loading = false,
  caption,
  emptyText,
}: AuditTableProps<S, F>): JSX.Element {
  const form = filterForm(search, onSearch);
  const renderDiff = (entry: AuditEntry) => <AuditDiff entry={entry} fieldLabels={entry.entity === 'purchased' ? t.purchasedField : fieldLabels} />;

  return (
    <>
      <AuditFilters
        key={form.key}
        search={search}
        filters={filters}
        onApply={form.onApply as (next: Filters<S> & { isDesc: boolean }) => void}
        onReset={form.onReset}
      />
      <PagedTable
        columns={columns}
        search={search}
        result={audits}
        onSearch={onSearch}
        sizeOptions={sizeOptions}
        renderSubRow={renderDiff}
        loading={loading}
        emptyText={emptyText}
        caption={caption}
        dense
      />
    </>
  );
}

function AuditFilters<S extends AuditSearch, F extends AuditFilterSchema>({
  search,
  filters,
  onApply,
  onReset,
}: {
  search: S;
  filters: AuditFilterForm<S, F>;
  onApply: (next: Filters<S> & { isDesc: boolean }) => void;
  onReset: () => void;
}): JSX.Element {
  const sort: AuditSort = search.isDesc ? 'desc' : 'asc';
  const form = useValibotForm(filters.schema, {
    defaultValues: { ...filters.values(search), sort } as DefaultValues<v.InferInput<F>>,
  });

  function apply(values: v.InferOutput<F>) {
    const { sort: chosen, ...fields } = values;
    onApply({ ...filters.toSearch(fields), isDesc: chosen === 'desc' });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout={filters.layout}>
      {filters.fields}
      <SelectField<{ sort: AuditSort }, 'sort', AuditSort>
        name="sort"
        label={t.sort}
        placeholder={false}
        options={[
          { value: 'desc', label: t.sortDesc },
          { value: 'asc', label: t.sortAsc },
        ]}
      />
    </FilterBar>
  );
}
