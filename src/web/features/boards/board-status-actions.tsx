// The board's lifecycle buttons (SPEC §2 "publish and backup-publish", §4 board status and
// publication): publish to all, publish to chosen users, backup publish, close, reopen. Each button
// is shown exactly when the board machine allows its event (board-actions.ts); each asks for
// confirmation (publish-to-users through its chooser) and answers with the server's msg or
// '操作成功' / '操作失败' (SPEC §8). The page reloads afterwards either way, so a refused action
// also shows the board as it now is.
import { useMemo, useState, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { Modal } from '../../components/ui/dialog';
import { zh } from '../../i18n/zh';
import type { BoardContext } from '../../../../machines/board.machine';
import { useAppContext } from '../../app/app-context';
import { offeredBoardActions, publishRefusal, publishToUsersRefusal, type BoardAction } from './board-actions';
import { publishBoard, setBoardStatus, showOutcome, type AppUser, type Board, type Outcome } from './boards-api';
import { useRemote } from '../../lib/use-remote';
import { loadAllUsers } from '../../lib/users';

const t = zh.boards;

const LABEL: Record<BoardAction, string> = {
  publish: t.detail.publish,
  publishToUsers: t.detail.publishToUsers,
  backupPublish: t.detail.backupPublish,
  close: t.detail.close,
  reopen: t.detail.reopen,
};

const CONFIRM: Record<Exclude<BoardAction, 'publishToUsers'>, { message: string; danger?: boolean }> = {
  publish: { message: t.detail.confirmPublish },
  backupPublish: { message: t.detail.confirmBackupPublish },
  close: { message: t.detail.confirmClose, danger: true },
  reopen: { message: t.detail.confirmReopen },
};

export interface BoardStatusActionsProps {
  board: Board;
  context: BoardContext;
  /** Reloads the page's data after an action. */
  onChanged: () => Promise<void>;
}

export function BoardStatusActions({ board, context, onChanged }: BoardStatusActionsProps): JSX.Element {
  const { api } = useAppContext();
  const [busy, setBusy] = useState<BoardAction | null>(null);
  const [choosingUsers, setChoosingUsers] = useState(false);
  const actions = offeredBoardActions(board.status, context);
  const refusal = publishRefusal(board.status, context);

  async function perform(action: BoardAction, call: () => Promise<Outcome>): Promise<boolean> {
    setBusy(action);
    try {
      const outcome = await call();
      showOutcome(outcome);
      await onChanged();
      return outcome.ok;
    } finally {
      setBusy(null);
    }
  }

  async function run(action: BoardAction) {
    if (action === 'publishToUsers') {
      setChoosingUsers(true);
      return;
    }
    const { message, danger } = CONFIRM[action];
    if (!(await confirmDialog(message, { danger }))) return;
    await perform(action, () => {
      switch (action) {
        case 'publish':
          return publishBoard(api, board.id, 'all');
        case 'backupPublish':
          return publishBoard(api, board.id, 'backup');
        case 'close':
          return setBoardStatus(api, board, 'close');
        case 'reopen':
          return setBoardStatus(api, board, 'open');
      }
    });
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-2">
        {actions.map((action) => (
          <Button
            key={action}
            variant={action === 'close' ? 'danger' : action === 'publish' ? 'primary' : 'secondary'}
            loading={busy === action}
            disabled={busy !== null}
            onClick={() => void run(action)}
          >
            {LABEL[action]}
          </Button>
        ))}
      </div>
      {refusal && (
        <p className="text-xs text-slate-500">
          {t.detail.publishHint}
          {refusal}
        </p>
      )}
      {choosingUsers && (
        <PublishUsersDialog
          board={board}
          context={context}
          onClose={() => setChoosingUsers(false)}
          onPublish={async (userIds) => {
            const ok = await perform('publishToUsers', () => publishBoard(api, board.id, 'users', userIds));
            if (ok) setChoosingUsers(false);
          }}
          publishing={busy === 'publishToUsers'}
        />
      )}
    </div>
  );
}

function matches(user: AppUser, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || user.nickName.toLowerCase().includes(q) || user.mailAddr.toLowerCase().includes(q) || String(user.id) === q;
}

/** The users the search leaves, a checkbox each (or that they are loading, or that none match). */
function UserChoices({
  loading,
  visible,
  chosen,
  onToggle,
}: {
  loading: boolean;
  visible: AppUser[];
  chosen: ReadonlySet<number>;
  onToggle: (id: number) => void;
}): JSX.Element {
  return loading ? (
    <p className="p-3 text-slate-500">{t.publishUsers.loading}</p>
  ) : visible.length === 0 ? (
    <p className="p-3 text-slate-500">{t.publishUsers.empty}</p>
  ) : (
    <ul className="divide-y divide-slate-100">
      {visible.map((user) => (
        <li key={user.id}>
          <label className="flex cursor-pointer items-center gap-3 px-3 py-2 hover:bg-slate-50">
            <input type="checkbox" checked={chosen.has(user.id)} onChange={() => onToggle(user.id)} className="size-4 rounded border-slate-300" />
            <span className="font-medium text-slate-800">{user.nickName}</span>
            <span className="text-slate-500">{user.mailAddr}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}

function PublishUsersDialog({
  board,
  context,
  onClose,
  onPublish,
  publishing,
}: {
  board: Board;
  context: BoardContext;
  onClose: () => void;
  onPublish: (userIds: number[]) => Promise<void>;
  publishing: boolean;
}): JSX.Element {
  const { api } = useAppContext();
  const users = useRemote('users', () => loadAllUsers(api));
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const visible = useMemo(() => (users.data ?? []).filter((user) => matches(user, query)), [users.data, query]);
  const userIds = [...chosen];
  // The machine's verdict on exactly this choice ('请选择要发布的用户' while nothing is chosen).
  const refusal = publishToUsersRefusal(board.status, context, userIds);

  function toggle(id: number) {
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <Modal
      open
      onClose={onClose}
      title={t.publishUsers.title}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t.publishUsers.cancel}
          </Button>
          <Button disabled={refusal !== null} loading={publishing} onClick={() => void onPublish(userIds)}>
            {t.publishUsers.submit}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <label className="flex flex-col gap-1">
          <span className="text-sm font-medium text-slate-700">{t.publishUsers.search}</span>
          <input
            type="search"
            value={query}
            placeholder={t.publishUsers.searchPlaceholder}
            onChange={(e) => setQuery(e.target.value)}
            className="block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm focus:border-blue-500 focus:outline-2 focus:outline-blue-500/30"
          />
        </label>
        <fieldset className="max-h-72 overflow-y-auto rounded-md border border-slate-200">
          <legend className="sr-only">{t.publishUsers.title}</legend>
          <UserChoices loading={users.loading && !users.data} visible={visible} chosen={chosen} onToggle={toggle} />
        </fieldset>
        <p className="text-xs text-slate-500" aria-live="polite">
          {refusal ?? t.publishUsers.chosen(chosen.size)}
        </p>
      </div>
    </Modal>
  );
}
