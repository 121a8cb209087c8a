// A machine's chart read from its definition (decision 132): the state tree as XState built it
// (machine.root), every transition with its event and its guard's name. Nothing here is written by
// hand per machine, so the chart cannot drift from the rules: a new state or guard appears the
// next time the viewer opens. Invoked actors' done/error events read as done(src)/error(src),
// delayed ones as after(ms), eventless ones as always.
import type { AnyStateMachine } from 'xstate';

export type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

/** A transition as the chart labels it. */
export interface ChartLabel {
  event: string;
  /** The guard's name; 'inline' for an unnamed function; null when unguarded. */
  guard: string | null;
}

export interface ChartState {
  /** Path of state keys from the root, dot-joined ('' for the root). */
  path: string;
  key: string;
  kind: StateKind;
  initial: boolean;
  children: ChartState[];
  /** Transitions that stay in this state (no target, or itself): listed inside its box. */
  stays: ChartLabel[];
  /** Invoked actors by their src. */
  invokes: string[];
}

export interface ChartEdge {
  from: string;
  to: string;
  labels: ChartLabel[];
}

export interface MachineChart {
  id: string;
  root: ChartState;
  edges: ChartEdge[];
  /** Every path, for lookups. */
  paths: string[];
}

interface NodeLike {
  key: string;
  path: string[];
  type: StateKind;
  states: Record<string, NodeLike>;
  initial?: { target?: NodeLike[] };
  transitions: Map<string, TransitionLike[]>;
  always?: TransitionLike[];
  invoke: { id: string; src: unknown }[];
}

interface TransitionLike {
  eventType: string;
  target?: NodeLike[];
  guard?: unknown;
}

type GuardFn = ((...args: never[]) => unknown) & { guards?: unknown[] };

/** A guard's name: its key in setup({ guards }), and(a, b) / not(a) for combinators, 'inline' otherwise. */
export function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  if (typeof guard === 'function') {
    const fn = guard as GuardFn;
    if (Array.isArray(fn.guards)) {
      const inner = fn.guards.map((g) => guardName(g) ?? '?').join(', ');
      const name = ['and', 'or', 'not'].includes(fn.name) ? fn.name : 'combined';
      return `${name}(${inner})`;
    }
    return 'inline';
  }
  return 'inline';
}

/** What an event type reads as on the chart. */
function eventLabel(node: NodeLike, eventType: string): string {
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor) {
    const invoked = node.invoke.find((i) => i.id === actor[2]);
    const src = typeof invoked?.src === 'string' ? invoked.src : 'actor';
    return `${actor[1]}(${src})`;
  }
  const after = /^xstate\.after\.(\d+)\./.exec(eventType);
  if (after) return `after(${after[1]}ms)`;
  return eventType;
}

const pathOf = (node: NodeLike) => node.path.join('.');

export function machineChart(machine: AnyStateMachine): MachineChart {
  const edges = new Map<string, ChartEdge>();
  const paths: string[] = [];

  function visit(node: NodeLike, initial: boolean): ChartState {
    const path = pathOf(node);
    paths.push(path);
    const stays: ChartLabel[] = [];
    const add = (eventType: string, t: TransitionLike) => {
      const label = { event: eventLabel(node, eventType), guard: guardName(t.guard) };
      const targets = (t.target ?? []).map(pathOf).filter((to) => to !== path);
      if (targets.length === 0) {
        if (!stays.some((s) => s.event === label.event && s.guard === label.guard)) stays.push(label);
        return;
      }
      for (const to of targets) {
        const key = `${path}->${to}`;
        const edge = edges.get(key) ?? { from: path, to, labels: [] };
        if (!edge.labels.some((l) => l.event === label.event && l.guard === label.guard)) edge.labels.push(label);
        edges.set(key, edge);
      }
    };
    for (const [eventType, transitions] of node.transitions) for (const t of transitions) add(eventType, t);
    for (const t of node.always ?? []) add('always', t);
    const initialKeys = new Set((node.initial?.target ?? []).map((n) => n.key));
    return {
      path,
      key: node.key,
      kind: node.type,
      initial,
      children: Object.values(node.states).map((child) => visit(child, node.type !== 'parallel' && initialKeys.has(child.key))),
      stays,
      invokes: node.invoke.map((i) => (typeof i.src === 'string' ? i.src : 'actor')),
    };
  }

  const root = visit(machine.root as unknown as NodeLike, true);
  return { id: machine.id, root, edges: [...edges.values()], paths };
}

/** A label as one line: `event [guard]`. */
export const labelText = (label: ChartLabel): string => (label.guard ? `${label.event} [${label.guard}]` : label.event);
