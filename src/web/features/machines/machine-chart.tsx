// One machine drawn as SVG (decision 132): each state a box (compound and parallel states hold their
// children; a parallel state's regions are dashed), each transition an arrow labelled `event [guard]`,
// and the transitions that stay in a state listed inside its box (↻). The active states of the
// chosen live actor are filled (aria-current); a state is a button, named by what it shows, that
// selects it (its dependents are listed beside the chart).
import { useMemo, type JSX, type KeyboardEvent } from 'react';
import type { ChartState, MachineChart } from './machine-graph';
import { arrowsOf, HEADER, innerLines, layoutChart, LINE, type Rect } from './machine-layout';
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
  const arrows = useMemo(() => arrowsOf(chart, layout), [chart, layout]);
  // The drawing's bounds: the machine's box, and any label moved beyond it.
  const view = useMemo(() => {
    const x = Math.min(0, ...arrows.map((a) => a.label.x)) - MARGIN;
    const y = Math.min(0, ...arrows.map((a) => a.label.y)) - MARGIN;
    const right = Math.max(layout.width, ...arrows.map((a) => a.label.x + a.label.w)) + MARGIN;
    const bottom = Math.max(layout.height, ...arrows.map((a) => a.label.y + a.label.h)) + MARGIN;
    return { x, y, w: right - x, h: bottom - y };
  }, [arrows, layout]);
  const box = (path: string) => layout.boxes.get(path);

  const states: ChartState[] = [];
  const walk = (s: ChartState) => {
    states.push(s);
    s.children.forEach(walk);
  };
  walk(chart.root);

  return (
    <svg
      role="group"
      aria-label={t.chartLabel(chart.id)}
      width={view.w}
      height={view.h}
      viewBox={`${view.x} ${view.y} ${view.w} ${view.h}`}
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
      {arrows.map((a) => (
        <path key={a.key} d={a.d} className="pointer-events-none fill-none stroke-slate-500" strokeWidth={1.2} markerEnd={`url(#arrow-${chart.id})`} />
      ))}
      {/* Labels over every arrow, so that no line crosses a label. */}
      {arrows.map((a) => (
        <g key={a.key} className="pointer-events-none" data-edge={a.lines.join(' | ')}>
          <rect x={a.label.x} y={a.label.y} width={a.label.w} height={a.label.h} rx={3} className="fill-white/90" />
          {a.lines.map((line, i) => (
            <text key={line} x={a.label.x + a.label.w / 2} y={a.label.y + 13 + i * 14} textAnchor="middle" className="fill-blue-900 text-[11px]">
              {line}
            </text>
          ))}
        </g>
      ))}
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
