// The admin home's contested parcels (decision 096): a parcel several members recorded that does not
// hold units for all of them credits nobody until an admin assigns its units. Listed here (loaded
// only when the home counts some), each with its records; an admin assigns every waiting record's
// units in one step (the call is admin only: lowerAdmin sees the list). The server checks the
// numbers and says what is wrong; the page shows its words beside the parcel.
import { useCallback, useState, type JSX } from 'react';
import { errorText } from '../../../api/client';
import type { ApiOutcome } from '../../../api/outcome';
import { useAppContext } from '../../app/app-context';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useRemote } from '../../lib/use-remote';
import { assignContested, loadContested, type ContestedParcel } from './home-api';

const C = zh.home.contested;

export function ContestedParcels({ mayAssign, onAssigned }: { mayAssign: boolean; onAssigned: () => void }): JSX.Element {
  const { api } = useAppContext();
  const load = useCallback(() => loadContested(api), [api]);
  const remote = useRemote<ApiOutcome<ContestedParcel[]>>('contested-parcels', load);
  const outcome = remote.data;
  return (
    <section aria-labelledby="home-contested" aria-busy={remote.loading || undefined}>
      <h2 id="home-contested" className="mb-1 text-sm font-semibold text-slate-500">
        {C.title}
      </h2>
      <p className="mb-3 text-xs text-slate-500">{C.hint}</p>
      {outcome && !outcome.ok ? (
        <p role="alert" className="text-sm text-red-700">
          {C.loadFailed}：{errorText(outcome.code, outcome.msg)}
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {(outcome?.data ?? []).map((p) => (
            <li key={`${p.trackingId}|${p.upc}`}>
              <ParcelCard
                parcel={p}
                mayAssign={mayAssign}
                onAssigned={() => {
                  remote.reload();
                  onAssigned();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ParcelCard({ parcel, mayAssign, onAssigned }: { parcel: ContestedParcel; mayAssign: boolean; onAssigned: () => void }): JSX.Element {
  const { api } = useAppContext();
  const [counts, setCounts] = useState<Record<number, string>>(() =>
    Object.fromEntries(parcel.records.map((r) => [r.recordId, r.assignedCount === null ? '' : String(r.assignedCount)])),
  );
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError('');
    const records = parcel.records.filter((r) => !r.settled).map((r) => ({ recordId: r.recordId, count: Number(counts[r.recordId] || 0) }));
    const res = await assignContested(api, { trackingId: parcel.trackingId, upc: parcel.upc, records });
    setBusy(false);
    if (!res.ok) {
      setError(errorText(res.code, res.msg));
      return;
    }
    toast.success(C.done);
    onAssigned();
  };
  const title = C.parcel(parcel.trackingId, parcel.itemName);
  return (
    <form
      aria-label={title}
      className="rounded-xl border border-amber-200 bg-amber-50 p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="font-medium text-slate-900">{title}</p>
      <p className="mb-2 text-xs text-slate-600">
        UPC {parcel.upc} · {C.units(parcel.scanned, parcel.held)}
      </p>
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="py-1 font-medium">{C.member}</th>
            <th className="py-1 font-medium">{C.task}</th>
            <th className="py-1 font-medium">{C.recorded}</th>
            <th className="py-1 font-medium">{C.assign}</th>
          </tr>
        </thead>
        <tbody>
          {parcel.records.map((r) => (
            <RecordAssignRow
              key={r.recordId}
              record={r}
              mayAssign={mayAssign}
              value={counts[r.recordId] ?? ''}
              onChange={(value) => setCounts((c) => ({ ...c, [r.recordId]: value }))}
            />
          ))}
        </tbody>
      </table>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {mayAssign ? (
        <div className="mt-3">
          <Button type="submit" loading={busy}>
            {C.submit}
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** A member's record of the parcel: who, which task, how many recorded, and the count assigned to it (settled ones are said so). */
function RecordAssignRow({
  record: r,
  mayAssign,
  value,
  onChange,
}: {
  record: ContestedParcel['records'][number];
  mayAssign: boolean;
  value: string;
  onChange: (value: string) => void;
}): JSX.Element {
  return (
    <tr>
      <td className="py-1">{r.nickName}</td>
      <td className="py-1 tabular-nums">{r.taskDisplayId}</td>
      <td className="py-1 tabular-nums">{r.productCount}</td>
      <td className="py-1">
        {r.settled ? (
          <span className="text-xs text-slate-500">{C.settled}</span>
        ) : (
          <input
            type="number"
            min={0}
            max={r.productCount}
            inputMode="numeric"
            aria-label={`${C.assign} ${r.nickName} ${r.taskDisplayId}`}
            disabled={!mayAssign}
            className="w-20 rounded-md border border-slate-300 px-2 py-1 tabular-nums"
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </td>
    </tr>
  );
}
