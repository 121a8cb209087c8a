// /user/board-list (SPEC §2): the open boards published to this member, filtered by board id, board
// task id and item; id, boardName, remark, the deadline with the time left, status and 'view' (to
// /user/board/{uuid}); 10 per page. An open board past its deadline shows 已过期, never 开放. On a
// phone each board is a card (name, state, remark, deadline, view). Beyond SPEC (decision 111): by
// default each board shows with its tasks as deal cards (deal-cards.tsx), claimable there through
// the claim dialog; 表格 switches to the table, and the choice is kept in the URL (view=table).
// The filters, page and size live in the URL: this page reads them from `search` and changes them
// through `onSearch`; the route's loader fetches the page they describe (and while it does, or when
// it fails, the route shows this page with skeletons or the failure in the table).
import { Link } from '@tanstack/react-router';
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { Countdown } from '../../components/countdown';
import { columnHelper, type TableFailure } from '../../components/ui/data-table';
import { PagedTable } from '../../components/ui/paged-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { ItemFilterField } from '../../components/item-filter-field';
import { Pager } from '../../components/ui/pager';
import { BOARD_LIST_SIZE_OPTIONS, BOARD_LIST_VIEWS, type BoardListSearch, type BoardListView } from './board-list-search';
import { ClaimDialog, useClaimActor } from './claim-dialog';
import { BoardDeals } from './deal-cards';
import type { Board, BoardListPage } from './member-boards-api';
import { LiveBoardStateBadge } from '../../components/board-state-badges';

const t = zh.memberBoards;

const idText = v.pipe(
  v.string(),
  v.trim(),
  v.check((text) => text === '' || /^[1-9]\d{0,14}$/.test(text), t.idMustBeNumber),
);

const filterSchema = v.object({
  boardId: idText,
  boardTaskId: idText,
  itemId: v.nullable(v.number()),
});
type FilterValues = v.InferOutput<typeof filterSchema>;

const toId = (text: string) => (text === '' ? undefined : Number(text));

const col = columnHelper<Board>();
const columns = col.columns([
  col.accessor('id', { header: t.colId, meta: { className: 'w-20', card: 'hidden' } }),
  col.accessor('boardName', { header: t.colBoardName, meta: { className: 'min-w-40', card: 'title' } }),
  col.accessor('remark', { header: t.colRemark }),
  col.accessor('expireAt', {
    header: t.colDeadline,
    cell: ({ getValue }) => (
      <span className="flex flex-wrap gap-x-2">
        <span>{formatDateTime(getValue())}</span>
        <Countdown expireAt={getValue()} />
      </span>
    ),
    meta: { className: 'whitespace-nowrap' },
  }),
  col.accessor('status', { header: t.colStatus, cell: ({ row }) => <LiveBoardStateBadge board={row.original} />, meta: { card: 'badge' } }),
  col.display({
    id: 'actions',
    header: t.colActions,
    meta: { card: 'actions' },
    cell: ({ row }) => (
      <Link to="/user/board/$uuid" params={{ uuid: row.original.uuid }} className="text-sm font-medium text-blue-600 hover:underline">
        {t.view}
      </Link>
    ),
  }),
]);

export interface MemberBoardListPageProps {
  search: BoardListSearch;
  result: BoardListPage;
  loading?: boolean;
  /** The page could not be loaded: said in the table's place. */
  failure?: TableFailure | null;
  onSearch: (next: BoardListSearch) => void;
}

export function MemberBoardListPage({ search, result, loading = false, failure = null, onSearch }: MemberBoardListPageProps): JSX.Element {
  const filterKey = `${search.boardId ?? ''}|${search.boardTaskId ?? ''}|${search.itemId ?? ''}`;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.userBoardList} actions={<ViewToggle view={search.view} onView={(view) => onSearch({ ...search, view })} />} />
      <BoardFilters
        key={filterKey}
        search={search}
        onApply={(filters) => onSearch({ ...filters, page: 0, size: search.size, view: search.view })}
        onReset={() => onSearch({ page: 0, size: search.size, view: search.view })}
      />
      {search.view === 'cards' ? (
        <DealsView search={search} result={result} loading={loading} failure={failure} onSearch={onSearch} />
      ) : (
        <PagedTable
          columns={columns}
          search={search}
          result={{ content: result.boards, totalPages: result.totalPages }}
          onSearch={onSearch}
          sizeOptions={BOARD_LIST_SIZE_OPTIONS}
          loading={loading}
          failure={failure}
          cards
          caption={t.boardList}
        />
      )}
    </div>
  );
}

const VIEW_TEXT: Record<BoardListView, string> = { cards: t.viewCards, table: t.viewTable };

/** 卡片 / 表格: two pressed-state buttons (keyboard: Tab, Enter). */
function ViewToggle({ view, onView }: { view: BoardListView; onView: (view: BoardListView) => void }): JSX.Element {
  return (
    <div role="group" aria-label={t.viewAs} className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
      {BOARD_LIST_VIEWS.map((v) => (
        <button
          key={v}
          type="button"
          aria-pressed={view === v}
          onClick={() => view !== v && onView(v)}
          className={`h-8 rounded px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-500 ${view === v ? 'bg-blue-600 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
        >
          {VIEW_TEXT[v]}
        </button>
      ))}
    </div>
  );
}

/** The cards view: the page's boards with their deal cards, the pager, and the one claim dialog. */
function DealsView({
  search,
  result,
  loading,
  failure,
  onSearch,
}: Required<Omit<MemberBoardListPageProps, 'loading' | 'failure'>> & { loading: boolean; failure: TableFailure | null }): JSX.Element {
  const claim = useClaimActor();
  const itemNames = useMemo(
    () => new Map(Object.values(result.boardTasks ?? {}).flatMap((tasks) => (tasks ?? []).map((bt) => [bt.id, bt.itemName] as const))),
    [result.boardTasks],
  );
  return (
    <>
      <BoardDeals boards={result.boards} boardTasks={result.boardTasks} loading={loading} failure={failure} claim={claim} />
      {result.totalPages > 1 && (
        <Pager page={search.page} totalPages={result.totalPages} onChange={(page) => onSearch({ ...search, page })} className="self-end" />
      )}
      <ClaimDialog actor={claim} itemNameOf={(id) => itemNames.get(id)} />
    </>
  );
}

function BoardFilters({
  search,
  onApply,
  onReset,
}: {
  search: BoardListSearch;
  onApply: (filters: Pick<BoardListSearch, 'boardId' | 'boardTaskId' | 'itemId'>) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      boardId: search.boardId === undefined ? '' : String(search.boardId),
      boardTaskId: search.boardTaskId === undefined ? '' : String(search.boardTaskId),
      itemId: search.itemId ?? null,
    },
  });
  return (
    <FilterBar
      form={form}
      onSubmit={(values: FilterValues) => onApply({ boardId: toId(values.boardId), boardTaskId: toId(values.boardTaskId), itemId: values.itemId ?? undefined })}
      onReset={onReset}
      layout="flex flex-wrap"
    >
      <TextField<FilterValues, 'boardId'> name="boardId" label={t.filterBoardId} inputMode="numeric" autoComplete="off" className="w-36" />
      <TextField<FilterValues, 'boardTaskId'> name="boardTaskId" label={t.filterBoardTaskId} inputMode="numeric" autoComplete="off" className="w-36" />
      <ItemFilterField<FilterValues, 'itemId'> name="itemId" label={t.filterItem} className="w-72" />
    </FilterBar>
  );
}
