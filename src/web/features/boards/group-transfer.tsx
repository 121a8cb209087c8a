// The group-binding transfer of the board page (SPEC §2; §7 /api/board/{id}/userGroups, /add,
// /remove with groupIds comma-joined): the groups not bound on the left, the bound ones on the
// right; the selected ones move across. A falsy answer shows 'operation failed' (SPEC §5).
import { useState, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { changeBoardGroups, type GroupChange, type UserGroup } from './boards-api';

const t = zh.boards;

export interface GroupTransferProps {
  boardId: number;
  allGroups: readonly UserGroup[];
  boundGroups: readonly UserGroup[];
  onChanged: () => Promise<void>;
}

export function GroupTransfer({ boardId, allGroups, boundGroups, onChanged }: GroupTransferProps): JSX.Element {
  const { api } = useAppContext();
  const boundIds = new Set(boundGroups.map((group) => group.id));
  const available = allGroups.filter((group) => !boundIds.has(group.id));
  const [picked, setPicked] = useState<{ add: number[]; remove: number[] }>({ add: [], remove: [] });
  const [busy, setBusy] = useState<GroupChange | null>(null);
  // Only what is still on its side counts (the lists may have been reloaded since).
  const toAdd = picked.add.filter((id) => available.some((group) => group.id === id));
  const toRemove = picked.remove.filter((id) => boundIds.has(id));

  async function move(change: GroupChange) {
    const ids = change === 'add' ? toAdd : toRemove;
    if (ids.length === 0) return;
    setBusy(change);
    try {
      if (await changeBoardGroups(api, boardId, change, ids)) {
        toast.success(t.operationSuccess);
        setPicked((prev) => ({ ...prev, [change]: [] }));
      }
      await onChanged();
    } finally {
      setBusy(null);
    }
  }

  const toggle = (side: GroupChange, id: number) =>
    setPicked((prev) => ({ ...prev, [side]: prev[side].includes(id) ? prev[side].filter((x) => x !== id) : [...prev[side], id] }));

  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-slate-500">{t.groups.hint}</p>
      <div className="grid grid-cols-1 items-center gap-3 md:grid-cols-[1fr_auto_1fr]">
        <GroupList title={t.groups.available} groups={available} picked={toAdd} onToggle={(id) => toggle('add', id)} />
        <div className="flex flex-row justify-center gap-2 md:flex-col">
          <Button size="sm" disabled={toAdd.length === 0 || busy !== null} loading={busy === 'add'} onClick={() => void move('add')}>
            {t.groups.add}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={toRemove.length === 0 || busy !== null}
            loading={busy === 'remove'}
            onClick={() => void move('remove')}
          >
            {t.groups.remove}
          </Button>
        </div>
        <GroupList title={t.groups.bound} groups={boundGroups} picked={toRemove} onToggle={(id) => toggle('remove', id)} />
      </div>
    </div>
  );
}

function GroupList({
  title,
  groups,
  picked,
  onToggle,
}: {
  title: string;
  groups: readonly UserGroup[];
  picked: readonly number[];
  onToggle: (id: number) => void;
}): JSX.Element {
  return (
    <fieldset className="flex h-56 min-w-0 flex-col rounded-md border border-slate-200">
      <legend className="sr-only">{title}</legend>
      <div aria-hidden="true" className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm font-medium text-slate-700">
        <span>{title}</span>
        <span className="text-xs font-normal text-slate-500">
          {picked.length}/{groups.length}
        </span>
      </div>
      {groups.length === 0 ? (
        <p className="p-3 text-sm text-slate-500">{t.groups.empty}</p>
      ) : (
        <ul className="flex-1 overflow-y-auto py-1">
          {groups.map((group) => (
            <li key={group.id}>
              <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-slate-50" title={group.remark || undefined}>
                <input type="checkbox" checked={picked.includes(group.id)} onChange={() => onToggle(group.id)} className="size-4 rounded border-slate-300" />
                <span className="truncate text-slate-800">{group.groupName}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
