// /admin/machines: the state charts for QA, offline (decision 132). Every machine of machines/ drawn
// from its definition (machine-graph.ts, machine-layout.ts); the machine actors running in this
// browser's tabs of the app (inspect/tab-broadcast.ts) with the chosen one's states filled; the
// events as they arrive; and, for a clicked state, the screens and server calls that depend on it
// (state-uses.ts). Loaded only by its route: nothing of it is in the entry or the login page.
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import { PageHeader, Panel } from '../../components/ui/page';
import { zhApp } from '../../i18n/zh-app';
import { machinesText as t } from '../../i18n/zh-machines';
import { MACHINE_CATALOG, type CatalogEntry } from './machine-catalog';
import { MachineChartView } from './machine-chart';
import { machineChart, type ChartState, type MachineChart } from './machine-graph';
import { stateUses, unionOf, type ExportUse } from './state-uses';
import { useTabActors, type LiveActor, type LoggedEvent } from './use-tab-actors';

export interface MachinesPageProps {
  /** The machine shown (its id); the first of the catalog when unknown. */
  machine?: string;
  onMachine: (id: string) => void;
}

const keysOf = (state: ChartState): string[] => state.children.flatMap((c) => [c.key, ...keysOf(c)]);

export function MachinesPage({ machine, onMachine }: MachinesPageProps): JSX.Element {
  const entry = MACHINE_CATALOG.find((e) => e.machine.id === machine) ?? MACHINE_CATALOG[0]!;
  const chart = useMemo(() => machineChart(entry.machine), [entry]);
  const live = useTabActors();
  const [chosenActor, setChosenActor] = useState<string | null>(null);
  const [selected, setSelected] = useState<{ machine: string; path: string } | null>(null);

  const actorsHere = live.actors.filter((a) => a.machineId === chart.id);
  const shown = actorsHere.find((a) => a.actorId === chosenActor) ?? actorsHere[actorsHere.length - 1];
  const active = useMemo(() => new Set(shown?.states ?? []), [shown]);
  const selectedPath = selected?.machine === chart.id ? selected.path : null;
  const scroller = useRef<HTMLDivElement>(null);
  const activeKey = shown ? `${chart.id}:${shown.states.join(',')}` : '';

  // A chart wider than the screen (a phone) scrolls sideways to keep the current state in view.
  useEffect(() => {
    const box = scroller.current;
    const actives = box ? [...box.querySelectorAll('[data-active="true"]')] : [];
    const paths = actives.map((el) => el.getAttribute('data-state') ?? '');
    // The first current leaf (a parallel state has one a region: the first region's).
    const leaf = actives.find((_, i) => !paths.some((p) => p.startsWith(`${paths[i]}.`)));
    if (!box || !leaf) return;
    const outer = box.getBoundingClientRect();
    const inner = leaf.getBoundingClientRect();
    if (inner.left < outer.left || inner.right > outer.right) box.scrollLeft += inner.left - outer.left - (outer.width - inner.width) / 2;
  }, [activeKey]);

  const openActor = (actor: LiveActor) => {
    setChosenActor(actor.actorId);
    if (actor.machineId !== chart.id) onMachine(actor.machineId);
  };

  return (
    <div>
      <PageHeader title={zhApp.titles.adminMachines} description={t.description} />
      <nav aria-label={t.machineList} className="mb-3 flex flex-wrap gap-1.5">
        {MACHINE_CATALOG.map(({ machine: m }) => {
          const current = m.id === chart.id;
          const running = live.actors.some((a) => a.machineId === m.id);
          return (
            <button
              key={m.id}
              type="button"
              aria-pressed={current}
              onClick={() => onMachine(m.id)}
              className={`rounded-full border px-3 py-1 text-sm ${current ? 'border-blue-600 bg-blue-600 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'}`}
            >
              {m.id} <span className={current ? 'text-blue-50' : 'text-slate-500'}>{t.machineNames[m.id]}</span>
              {running && <span aria-hidden="true" className="ml-1 inline-block h-2 w-2 rounded-full bg-amber-500" />}
            </button>
          );
        })}
      </nav>
      <div className="grid gap-4">
        <Panel className="min-w-0">
          <div ref={scroller} className="overflow-auto" data-testid="machine-chart">
            <MachineChartView chart={chart} active={active} selected={selectedPath} onSelect={(path) => setSelected({ machine: chart.id, path })} />
          </div>
          <p className="mt-2 flex flex-wrap gap-4 text-xs text-slate-500">
            <span>
              <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded border-2 border-amber-600 bg-amber-100 align-middle" />
              {t.legendCurrent}
            </span>
            <span>
              <span aria-hidden="true" className="mr-1 inline-block h-2 w-2 rounded-full bg-slate-700 align-middle" />
              {t.legendInitial}
            </span>
            <span>{t.stately}</span>
          </p>
        </Panel>
        <div className="grid min-w-0 items-start gap-4 lg:grid-cols-3">
          <LivePanel actors={live.actors} shown={shown} onOpen={openActor} />
          <UsesPanel entry={entry} chart={chart} path={selectedPath} />
          <EventsPanel events={live.events} />
        </div>
      </div>
    </div>
  );
}

function LivePanel({ actors, shown, onOpen }: { actors: LiveActor[]; shown: LiveActor | undefined; onOpen: (a: LiveActor) => void }) {
  return (
    <Panel title={t.live} actions={actors.length > 0 ? <span className="text-xs text-slate-500">{t.liveRunning(actors.length)}</span> : null}>
      {actors.length === 0 ? (
        <p className="text-sm text-slate-500">{t.liveNone}</p>
      ) : (
        <ul className="space-y-1.5 text-sm" aria-label={t.live}>
          {actors.map((a) => {
            const leaves = a.states.filter((s) => !a.states.some((o) => o.startsWith(`${s}.`)));
            const isShown = shown?.actorId === a.actorId && shown.tabId === a.tabId;
            return (
              <li key={`${a.tabId}:${a.actorId}`}>
                <button
                  type="button"
                  onClick={() => onOpen(a)}
                  aria-pressed={isShown}
                  className={`w-full rounded border px-2 py-1 text-left ${isShown ? 'border-amber-500 bg-amber-50' : 'border-slate-200 hover:bg-slate-50'}`}
                >
                  <span className="font-medium">{a.machineId}</span> <span className="text-slate-500">{a.path}</span>
                  <span className="block font-mono text-xs break-all text-amber-800" data-testid="actor-state">
                    {leaves.join(' · ')}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}

function UsesPanel({ entry, chart, path }: { entry: CatalogEntry; chart: MachineChart; path: string | null }) {
  const stateKeys = useMemo(() => new Set(keysOf(chart.root)), [chart]);
  if (path === null)
    return (
      <Panel title={t.uses}>
        <p className="text-sm text-slate-500">{t.usesHint}</p>
      </Panel>
    );
  const key = path === '' ? chart.id : (path.split('.').pop() ?? path);
  const uses = stateUses(entry, key, stateKeys);
  const named = path === '' ? [] : uses.named;
  return (
    <Panel title={`${t.uses} · ${t.usesOf(path || chart.id)}`}>
      <div className="space-y-3 text-sm" data-testid="state-uses">
        <section>
          <h3 className="font-medium text-slate-800">{t.named}</h3>
          {named.length === 0 ? <p className="text-slate-500">{t.namedNone}</p> : named.map((u) => <ExportRow key={`${u.module}:${u.name}`} use={u} />)}
        </section>
        <section>
          <h3 className="font-medium text-slate-800">{t.whole}</h3>
          <p className="font-mono text-xs break-all text-slate-500">{uses.whole.map((u) => u.name).join(', ') || t.none}</p>
          <UseLists screens={unionOf(uses.whole, 'screens')} calls={unionOf(uses.whole, 'calls')} via={unionOf(uses.whole, 'callsVia')} />
        </section>
        <p className="text-xs text-slate-500">{t.source}</p>
      </div>
    </Panel>
  );
}

function ExportRow({ use }: { use: ExportUse }) {
  return (
    <div className="mt-1 rounded border border-slate-200 p-2">
      <p className="font-mono text-xs font-semibold break-all">
        {use.name} <span className="font-normal text-slate-500">{use.module}</span>
      </p>
      <UseLists screens={use.screens} calls={use.calls} via={use.callsVia} />
    </div>
  );
}

const SHOWN = 8;

/** A list of names, the first few shown and the rest behind 另外 N 个. */
function Names({ names, className = '' }: { names: string[]; className?: string }) {
  if (names.length === 0) return <dd className={className}>{t.none}</dd>;
  return (
    <dd className={`font-mono break-words ${className}`}>
      {names.slice(0, SHOWN).join(', ')}
      {names.length > SHOWN && (
        <details>
          <summary className="cursor-pointer font-sans text-blue-700">{t.more(names.length - SHOWN)}</summary>
          {names.slice(SHOWN).join(', ')}
        </details>
      )}
    </dd>
  );
}

function UseLists({ screens, calls, via }: { screens: string[]; calls: string[]; via: string[] }) {
  const screenName = (s: string) => (s === '/*' ? t.everyScreen : s);
  return (
    <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5 text-xs">
      <dt className="text-slate-500">{t.screens}</dt>
      <Names names={screens.map(screenName)} />
      <dt className="text-slate-500">{t.calls}</dt>
      <Names names={calls} />
      {via.length > 0 && (
        <>
          <dt className="text-slate-500">{t.callsVia}</dt>
          <Names names={via} className="text-slate-600" />
        </>
      )}
    </dl>
  );
}

function EventsPanel({ events }: { events: LoggedEvent[] }) {
  return (
    <Panel title={t.events}>
      {events.length === 0 ? (
        <p className="text-sm text-slate-500">{t.eventsNone}</p>
      ) : (
        <ol className="max-h-80 space-y-1 overflow-auto font-mono text-xs" aria-label={t.events}>
          {events.map((e) => (
            <li key={e.seq} className="border-b border-slate-100 pb-1 break-all">
              <span className="text-slate-500">{new Date(e.at).toLocaleTimeString('zh-CN', { hour12: false })}</span>{' '}
              <span className="text-slate-600">{e.machineId}</span> <span className="font-semibold text-blue-800">{e.event}</span>{' '}
              {e.detail && <span className="text-slate-500">{e.detail}</span>}
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
