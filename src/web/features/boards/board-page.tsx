// /admin/board/{id|new} (SPEC §2 board detail): the basic information, and for a saved board its
// lifecycle buttons (board machine), the group-binding transfer, the board-task table with the user
// tasks of each row, and the claims waiting for approval. Everything but the expanded rows and the
// pending list comes from the route's loader; after a change the route is reloaded.
import { Link, useRouter } from '@tanstack/react-router';
import { useCallback, useMemo, useState, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { PageHeader, Panel } from '../../components/ui/page';
import { excelExportUrl } from '../../lib/excel-export';
import { timezoneOffsetHours } from '../../lib/timezone';
import { useAppContext } from '../../app/app-context';
import { useDownload } from '../../navigation/use-download';
import { zh } from '../../i18n/zh';
import { boardContextOf } from './board-actions';
import { LiveBoardStateBadge } from '../../components/board-state-badges';
import { BoardInfoForm } from './board-info-form';
import { BoardStatusActions } from './board-status-actions';
import { boardPath, BoardTaskTable } from './board-task-table';
import type { BoardPageData, BoardTask } from './boards-api';
import { PendingClaims } from './claims';
import { GroupTransfer } from './group-transfer';

const t = zh.boards;

const linkClass = 'text-sm font-medium text-blue-600 hover:underline';
const buttonLinkClass =
  'inline-flex h-8 items-center justify-center rounded-md bg-blue-600 px-3 text-sm font-medium text-white shadow-sm hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500';

export interface BoardPageProps {
  /** null: /admin/board/new. */
  data: BoardPageData | null;
}

export function BoardPage({ data }: BoardPageProps): JSX.Element {
  const backToList = (
    <Link to="/admin/board-list" className={linkClass}>
      {t.detail.backToList}
    </Link>
  );

  if (!data) {
    return (
      <div className="flex max-w-4xl min-w-0 flex-col gap-4">
        <PageHeader title={t.detail.newTitle} actions={backToList} />
        <Panel title={t.detail.basicInfo}>
          <BoardInfoForm board={null} />
        </Panel>
      </div>
    );
  }
  return <SavedBoardPage data={data} backToList={backToList} />;
}

function SavedBoardPage({ data, backToList }: { data: BoardPageData; backToList: JSX.Element }): JSX.Element {
  const router = useRouter();
  const { board, tasks, boundGroups, allGroups } = data;
  const context = boardContextOf(tasks, boundGroups);
  const [claimsRevision, setClaimsRevision] = useState(0);
  // Every reload brings new arrays; the table resets its expanded rows when its data changes, so
  // it gets a new array only when the board tasks really changed.
  const tasksJson = JSON.stringify(tasks);
  const stableTasks = useMemo(() => JSON.parse(tasksJson) as BoardTask[], [tasksJson]);

  const reload = useCallback(() => router.invalidate(), [router]);
  const onClaimDecided = useCallback(() => {
    setClaimsRevision((r) => r + 1);
    void router.invalidate();
  }, [router]);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={`${zh.titles.adminBoard} #${board.id} ${board.boardName}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <span>{t.detail.statusLine}</span>
            <LiveBoardStateBadge board={board} />
            <span className="text-xs text-slate-500">
              {t.board.uuid} {board.uuid}
            </span>
          </span>
        }
        actions={
          <div className="flex flex-col items-end gap-2">
            <div className="flex items-center gap-3">
              <BoardExportButton boardId={board.id} />
              {backToList}
            </div>
            <BoardStatusActions board={board} context={context} onChanged={reload} />
          </div>
        }
      />
      <Panel title={t.detail.basicInfo}>
        <BoardInfoForm board={board} />
      </Panel>
      <Panel title={t.groups.title}>
        <GroupTransfer boardId={board.id} allGroups={allGroups} boundGroups={boundGroups} onChanged={reload} />
      </Panel>
      <Panel
        title={t.boardTask.title}
        actions={
          <Link
            to="/admin/boardtask/$boardId/$taskId"
            params={{ boardId: String(board.id), taskId: 'new' }}
            search={{ back: boardPath(board.id) }}
            className={buttonLinkClass}
          >
            {t.boardTask.newBoardTask}
          </Link>
        }
      >
        <BoardTaskTable boardId={board.id} tasks={stableTasks} claimsRevision={claimsRevision} onClaimDecided={onClaimDecided} />
      </Panel>
      <Panel title={t.pending.title}>
        <p className="mb-3 text-xs text-slate-500">{t.pending.hint}</p>
        <PendingClaims boardId={board.id} revision={claimsRevision} onDecided={onClaimDecided} />
      </Panel>
    </div>
  );
}

/** The board's Excel export: its board tasks and every member task on them (the server's board export). */
function BoardExportButton({ boardId }: { boardId: number }): JSX.Element {
  const { api } = useAppContext();
  const { busy: exporting, download } = useDownload();
  const exportExcel = () => download(() => excelExportUrl(api, 'board', { boardId, timezone: timezoneOffsetHours() }, { boardId }));
  return (
    <Button variant="secondary" loading={exporting} onClick={() => void exportExcel()}>
      {t.detail.exportExcel}
    </Button>
  );
}
