// One machine drawn as SVG (decision 132): each state a box (compound and parallel states hold their
// children; a parallel state's regions are dashed), each transition an arrow labelled `event [guard]`,
// and the transitions that stay in a state listed inside its box (↻). The active states of the
// chosen live actor are filled (aria-current); a state is a button, named by what it shows, that
// selects it (its dependents are listed beside the chart).
import { useMemo, type JSX, type KeyboardEvent } from 'react';
import { labelText, type ChartState, type MachineChart } from './machine-graph';
import { borderPoint, HEADER, innerLines, layoutChart, LINE, type Rect } from './machine-layout';
import { machinesText as t } from '../../i18n/zh-machines';

export interface MachineChartViewProps {
  chart: MachineChart;
  /** Active state paths of the actor shown. */
  active: ReadonlySet<string>;
  selected: string | null;
  onSelect: (path: string) => void;
}

const MARGIN = 8;

export function MachineChartView({ chart, active, selected, onSelect }: MachineChartViewProps): JSX.Element {
  const layout = useMemo(() => layoutChart(chart), [chart]);
  const box = (path: string) => layout.boxes.get(path);

  const states: ChartState[] = [];
  const walk = (s: ChartState) => {
    states.push(s);
    s.children.forEach(walk);
  };
  walk(chart.root);
  const compound = new Set(states.filter((s) => s.children.length > 0).map((s) => s.path));

  return (
    <svg
      role="group"
      aria-label={t.chartLabel(chart.id)}
      width={layout.width + 2 * MARGIN}
      height={layout.height + 2 * MARGIN}
      viewBox={`${-MARGIN} ${-MARGIN} ${layout.width + 2 * MARGIN} ${layout.height + 2 * MARGIN}`}
      className="max-w-none font-sans text-[12px]"
    >
      <defs>
        <marker id={`arrow-${chart.id}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className="fill-slate-500" />
        </marker>
      </defs>
      {states.map((s) => {
        const r = box(s.path);
        return r ? (
          <StateBox key={s.path || '(root)'} state={s} rect={r} active={active.has(s.path)} selected={selected === s.path} onSelect={onSelect} />
        ) : null;
      })}
      {chart.edges.map((e) => {
        const a = box(e.from);
        const b = box(e.to);
        return a && b ? (
          <Arrow
            key={`${e.from}->${e.to}`}
            from={a}
            to={b}
            fromCompound={compound.has(e.from)}
            toCompound={compound.has(e.to)}
            labels={e.labels.map(labelText)}
            marker={`arrow-${chart.id}`}
          />
        ) : null;
      })}
    </svg>
  );
}

function StateBox({
  state,
  rect,
  active,
  selected,
  onSelect,
}: {
  state: ChartState;
  rect: Rect;
  active: boolean;
  selected: boolean;
  onSelect: (path: string) => void;
}) {
  const isRoot = state.path === '';
  const compound = state.children.length > 0;
  // The current leaf is filled; a current compound state only outlined (its children are drawn on it).
  const fill = active && !compound ? 'fill-amber-100' : isRoot ? 'fill-slate-50' : compound ? 'fill-white' : 'fill-sky-50';
  const stroke = selected ? 'stroke-blue-600' : active ? 'stroke-amber-600' : 'stroke-slate-400';
  const select = () => onSelect(state.path);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      select();
    }
  };
  return (
    <g
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-current={active ? 'true' : undefined}
      data-state={state.path}
      data-active={active ? 'true' : undefined}
      onClick={(e) => {
        e.stopPropagation();
        select();
      }}
      onKeyDown={onKey}
      className="cursor-pointer focus:outline-none"
    >
      <rect
        x={rect.x}
        y={rect.y}
        width={rect.w}
        height={rect.h}
        rx={8}
        className={`${fill} ${stroke}`}
        strokeWidth={selected || active ? 2.5 : 1}
        strokeDasharray={state.kind === 'parallel' ? '6 3' : undefined}
      />
      {state.initial && !isRoot && <circle cx={rect.x + 8} cy={rect.y + 8} r={4} className="fill-slate-700" aria-hidden="true" />}
      <text x={rect.x + 16} y={rect.y + 17} className={`fill-slate-900 ${active ? 'font-bold' : 'font-semibold'}`}>
        {isRoot ? `${state.key} · ${t.machineNames[state.key] ?? ''}` : state.kind === 'parallel' ? `${state.key} ∥` : state.key}
      </text>
      {innerLines(state).map((line, i) => (
        <text key={i} x={rect.x + 12} y={rect.y + HEADER + 11 + i * LINE} className="fill-slate-600 text-[11px]">
          {line}
        </text>
      ))}
    </g>
  );
}

/** Where an arrow meets a box: a compound state's from above, on its top edge (its middle holds its children). */
function endOf(box: Rect, compound: boolean, toward: { x: number; y: number }) {
  if (compound && toward.y < box.y) return { x: Math.min(Math.max(toward.x, box.x + 24), box.x + box.w - 24), y: box.y };
  return borderPoint(box, toward.x, toward.y);
}

interface ArrowProps {
  from: Rect;
  to: Rect;
  fromCompound: boolean;
  toCompound: boolean;
  labels: string[];
  marker: string;
}

function Arrow({ from, to, fromCompound, toCompound, labels, marker }: ArrowProps) {
  const fc = { x: from.x + from.w / 2, y: from.y + from.h / 2 };
  const tc = { x: to.x + to.w / 2, y: to.y + to.h / 2 };
  // Bent to the left of its direction, so that a -> b and b -> a do not overlap.
  const dx = tc.x - fc.x;
  const dy = tc.y - fc.y;
  const len = Math.hypot(dx, dy) || 1;
  const bend = Math.min(40, len / 4);
  const control = { x: (fc.x + tc.x) / 2 + (dy / len) * bend, y: (fc.y + tc.y) / 2 - (dx / len) * bend };
  const p0 = endOf(from, fromCompound, control);
  const p2 = endOf(to, toCompound, control);
  const mid = { x: (p0.x + 2 * control.x + p2.x) / 4, y: (p0.y + 2 * control.y + p2.y) / 4 };
  const width = Math.max(...labels.map((l) => l.length)) * 6.2 + 8;
  const height = labels.length * 14 + 4;
  return (
    <g className="pointer-events-none" data-edge={labels.join(' | ')}>
      <path
        d={`M ${p0.x} ${p0.y} Q ${control.x} ${control.y} ${p2.x} ${p2.y}`}
        className="fill-none stroke-slate-500"
        strokeWidth={1.2}
        markerEnd={`url(#${marker})`}
      />
      <rect x={mid.x - width / 2} y={mid.y - height / 2} width={width} height={height} rx={3} className="fill-white/90" />
      {labels.map((label, i) => (
        <text key={label} x={mid.x} y={mid.y - height / 2 + 13 + i * 14} textAnchor="middle" className="fill-blue-900 text-[11px]">
          {label}
        </text>
      ))}
    </g>
  );
}
