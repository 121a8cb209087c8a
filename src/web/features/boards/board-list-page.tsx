// /admin/board-list (SPEC §2, §9): filters boardId, boardTaskId, item and sort (newest or oldest
// first); the table id, boardName, remark, publishAt, expireAt and the board's one state (its status,
// or 已过期 for an open board past its deadline: the board machine's shownBoardState, as members see
// it; decision 109), with 'edit' to /admin/board/{id} and 'new' to /admin/board/new; 10 per page,
// sizes of SPEC §9.
// The filters, page and size live in the URL: this page reads them from `search` and changes them
// through `onSearch`; the route's loader fetches the page they describe.
import { Link } from '@tanstack/react-router';
import type { JSX } from 'react';
import * as v from 'valibot';
import { columnHelper } from '../../components/ui/data-table';
import { PagedTable } from '../../components/ui/paged-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { ItemFilterField } from '../../components/item-filter-field';
import { LiveBoardStateBadge } from '../../components/board-state-badges';
import { BOARD_LIST_SIZE_OPTIONS, type BoardListSearch } from './board-list-search';
import { formatDateTime } from '../../components/ui/format';
import type { Board, BoardListPage } from './boards-api';

const t = zh.boards;

const idText = v.pipe(
  v.string(),
  v.trim(),
  v.check((text) => text === '' || /^[1-9]\d{0,14}$/.test(text), t.list.idInvalid),
);

const SORTS = ['desc', 'asc'] as const;

const filterSchema = v.object({
  boardId: idText,
  boardTaskId: idText,
  itemId: v.nullable(v.number()),
  sort: v.picklist(SORTS),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;

const toId = (text: string) => (text === '' ? undefined : Number(text));

const linkClass = 'text-sm font-medium text-blue-600 hover:underline';
const buttonLinkClass =
  'inline-flex h-9 items-center justify-center rounded-md bg-blue-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500';

const col = columnHelper<Board>();
const columns = col.columns([
  col.accessor('id', { header: t.board.id, meta: { className: 'w-16' } }),
  col.accessor('boardName', { header: t.board.boardName, meta: { className: 'min-w-40' } }),
  col.accessor('remark', { header: t.board.remark }),
  col.accessor('publishAt', { header: t.board.publishAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
  col.accessor('expireAt', { header: t.board.expireAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
  col.accessor('status', { header: t.board.status, cell: ({ row }) => <LiveBoardStateBadge board={row.original} /> }),
  col.display({
    id: 'actions',
    header: t.list.actions,
    cell: ({ row }) => (
      <Link to="/admin/board/$id" params={{ id: String(row.original.id) }} className={linkClass}>
        {t.list.edit}
      </Link>
    ),
  }),
]);

export interface BoardListPageProps {
  search: BoardListSearch;
  result: BoardListPage;
  loading?: boolean;
  onSearch: (next: BoardListSearch) => void;
}

export function BoardListPage({ search, result, loading = false, onSearch }: BoardListPageProps): JSX.Element {
  // A new URL (back button, a link) re-seeds the filter form.
  const filterKey = `${search.boardId ?? ''}|${search.boardTaskId ?? ''}|${search.itemId ?? ''}|${search.isDesc}`;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.adminBoardList}
        actions={
          <Link to="/admin/board/$id" params={{ id: 'new' }} className={buttonLinkClass}>
            {t.list.newBoard}
          </Link>
        }
      />
      <BoardFilters
        key={filterKey}
        search={search}
        onApply={(filters) => onSearch({ ...filters, page: 0, size: search.size })}
        onReset={() => onSearch({ isDesc: true, page: 0, size: search.size })}
      />
      <PagedTable
        columns={columns}
        search={search}
        result={{ content: result.boards, totalPages: result.totalPages }}
        onSearch={onSearch}
        sizeOptions={BOARD_LIST_SIZE_OPTIONS}
        loading={loading}
        caption={t.list.caption}
      />
    </div>
  );
}

type Filters = Pick<BoardListSearch, 'boardId' | 'boardTaskId' | 'itemId' | 'isDesc'>;

function BoardFilters({ search, onApply, onReset }: { search: BoardListSearch; onApply: (filters: Filters) => void; onReset: () => void }): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      boardId: search.boardId === undefined ? '' : String(search.boardId),
      boardTaskId: search.boardTaskId === undefined ? '' : String(search.boardTaskId),
      itemId: search.itemId ?? null,
      sort: search.isDesc ? 'desc' : 'asc',
    },
  });

  function apply(values: FilterValues) {
    onApply({
      boardId: toId(values.boardId),
      boardTaskId: toId(values.boardTaskId),
      itemId: values.itemId ?? undefined,
      isDesc: values.sort === 'desc',
    });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="flex flex-wrap">
      <TextField<FilterInput, 'boardId'> name="boardId" label={t.list.filterBoardId} inputMode="numeric" className="w-32" />
      <TextField<FilterInput, 'boardTaskId'> name="boardTaskId" label={t.list.filterBoardTaskId} inputMode="numeric" className="w-32" />
      <ItemFilterField<FilterInput, 'itemId'> name="itemId" label={t.list.filterItem} className="w-64" />
      <SelectField<FilterInput, 'sort', (typeof SORTS)[number]>
        name="sort"
        label={t.list.sort}
        placeholder={false}
        options={[
          { value: 'desc', label: t.list.sortDesc },
          { value: 'asc', label: t.list.sortAsc },
        ]}
        className="w-48"
      />
    </FilterBar>
  );
}
