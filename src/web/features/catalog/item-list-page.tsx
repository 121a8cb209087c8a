// /admin/item-list (SPEC §2, §7, §9): keyword (productIdLike: productId, name or upc), status,
// sort (newest / oldest -> isDesc), a paged table of items with the page-size dropdown of SPEC §9
// (10 by default), 'edit' to /admin/item/{id} and 'add' to /admin/item/new. Everything the list
// shows is in the URL; the route loader fetches GET /api/item/page for it.
import { Link, useNavigate } from '@tanstack/react-router';
import type { JSX } from 'react';
import * as v from 'valibot';
import { columnHelper } from '../../components/ui/data-table';
import { PagedTable } from '../../components/ui/paged-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { PageHeader } from '../../components/ui/page';
import { PAGE_SIZE_OPTIONS } from '../../components/ui/pager';
import { StatusBadge } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import { ITEM_SORTS, ITEM_STATUS_FILTERS, toItemListUrlSearch, type ItemListSearch, type ItemSort, type ItemStatusFilter } from './item-list-search';
import { ITEM_STATUS_LABEL, ITEM_STATUS_TONE } from './item-status';
import { formatPrice, safeHttpUrl, type Item, type ItemPage } from './items';
import { primaryLinkClass, textLinkClass } from '../../components/ui/link-classes';
import { useReloading } from '../../navigation/use-reloading';

const t = zh.catalog;

const STATUS_FILTER_LABEL: Record<ItemStatusFilter, string> = {
  all: t.itemList.statusAll,
  open: t.status.open,
  close: t.status.close,
};

const SORT_LABEL: Record<ItemSort, string> = { newest: t.itemList.sortNewest, oldest: t.itemList.sortOldest };

const col = columnHelper<Item>();
const columns = [
  col.accessor('id', { header: t.itemList.colId, meta: { className: 'w-16' } }),
  col.accessor('itemName', { header: t.itemList.colItemName, meta: { className: 'min-w-48' } }),
  col.accessor('upc', { header: t.itemList.colUpc, meta: { className: 'font-mono text-xs' } }),
  col.accessor('url', {
    header: t.itemList.colUrl,
    meta: { className: 'max-w-64' },
    cell: ({ getValue }) => {
      const url = getValue();
      const href = safeHttpUrl(url);
      if (!href) return <span className="break-all text-slate-500">{url}</span>;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer" title={href} className={`block truncate ${textLinkClass}`}>
          {href}
        </a>
      );
    },
  }),
  col.accessor('status', {
    header: t.itemList.colStatus,
    cell: ({ getValue }) => <StatusBadge tone={ITEM_STATUS_TONE[getValue()]}>{ITEM_STATUS_LABEL[getValue()]}</StatusBadge>,
  }),
  col.accessor('productId', { header: t.itemList.colProductId }),
  col.accessor('price', {
    header: t.itemList.colPrice,
    meta: { align: 'right' },
    cell: ({ getValue }) => formatPrice(getValue()),
  }),
  col.display({
    id: 'actions',
    header: t.common.actions,
    meta: { align: 'center', className: 'w-20' },
    cell: ({ row }) => (
      <Link to="/admin/item/$id" params={{ id: String(row.original.id) }} className={textLinkClass} aria-label={`${t.common.edit} ${row.original.itemName}`}>
        {t.common.edit}
      </Link>
    ),
  }),
];

export interface ItemListPageProps {
  search: ItemListSearch;
  items: ItemPage;
}

export function ItemListPage({ search, items }: ItemListPageProps): JSX.Element {
  const navigate = useNavigate();
  const loading = useReloading();
  const go = (next: ItemListSearch) => navigate({ to: '/admin/item-list', search: toItemListUrlSearch(next) });

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={zh.titles.adminItemList}
        actions={
          <Link to="/admin/item/$id" params={{ id: 'new' }} className={primaryLinkClass}>
            {t.itemList.add}
          </Link>
        }
      />
      <ItemFilters search={search} onSearch={(filters) => void go({ ...search, ...filters, page: 0 })} />
      <PagedTable
        columns={columns}
        search={search}
        result={items}
        onSearch={(next) => void go(next)}
        sizeOptions={PAGE_SIZE_OPTIONS.boardAndItem}
        loading={loading}
        caption={t.itemList.caption}
      />
    </div>
  );
}

const filterSchema = v.object({
  productIdLike: v.string(),
  status: v.picklist(ITEM_STATUS_FILTERS),
  sort: v.picklist(ITEM_SORTS),
});
type FilterValues = v.InferOutput<typeof filterSchema>;

const EMPTY_FILTERS: FilterValues = { productIdLike: '', status: 'all', sort: 'newest' };

function ItemFilters({ search, onSearch }: { search: ItemListSearch; onSearch: (filters: FilterValues) => void }): JSX.Element {
  // `values` follows the URL (back / forward, a sidebar click) without remounting the form.
  const form = useValibotForm(filterSchema, {
    values: { productIdLike: search.productIdLike ?? '', status: search.status, sort: search.sort },
  });
  return (
    <FilterBar
      form={form}
      onSubmit={onSearch}
      onReset={() => {
        form.reset(EMPTY_FILTERS);
        onSearch(EMPTY_FILTERS);
      }}
      layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-[minmax(12rem,1fr)_9rem_11rem_auto]"
    >
      <TextField<FilterValues, 'productIdLike'>
        name="productIdLike"
        label={t.itemList.keyword}
        placeholder={t.itemList.keywordPlaceholder}
        type="search"
        maxLength={128}
      />
      <SelectField<FilterValues, 'status', ItemStatusFilter>
        name="status"
        label={t.itemList.status}
        options={ITEM_STATUS_FILTERS.map((value) => ({ value, label: STATUS_FILTER_LABEL[value] }))}
        placeholder={false}
      />
      <SelectField<FilterValues, 'sort', ItemSort>
        name="sort"
        label={t.itemList.sort}
        options={ITEM_SORTS.map((value) => ({ value, label: SORT_LABEL[value] }))}
        placeholder={false}
      />
    </FilterBar>
  );
}
