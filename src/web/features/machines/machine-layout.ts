// Where each state's box goes (decision 132): a small layered layout of our own rather than a graph
// library (@dagrejs/dagre 3.1's minified build, graphlib inside, is 49 kB, 17 kB gzipped; this file
// is 1.9 kB minified and gzipped, for charts of at most a dozen states per level).
// Each compound state is laid out inside its box, innermost first: its children are put in ranks top
// to bottom by their fewest transitions from the initial state (a transition deeper down counts for
// the children that hold its ends), each rank ordered by the mean place of its neighbours in the rank
// above to keep arrows short; a parallel state's regions sit side by side. Pure: plain numbers out, tested through the chart it draws.
import { labelText, type ChartEdge, type ChartState, type MachineChart } from './machine-graph';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ChartLayout {
  width: number;
  height: number;
  boxes: Map<string, Rect>;
}

export const LINE = 15;
export const HEADER = 24;
const PAD = 12;
const GAP_X = 36;
const GAP_Y = 80;
const CHAR = 6.6;

/** Width of a line of chart text in px (12 px system font, ASCII names). */
export const textWidth = (text: string) => Math.ceil(text.length * CHAR);

/** The lines written inside a state's box, under its name: what it invokes and what keeps it there. */
export function innerLines(state: ChartState): string[] {
  return [...state.invokes.map((src) => `invoke ${src}`), ...state.stays.map((s) => `↻ ${labelText(s)}`)];
}

/** The child of `parent` that holds `path` (itself or an ancestor of it), if any. */
function childHolding(parent: ChartState, path: string): ChartState | undefined {
  return parent.children.find((c) => path === c.path || path.startsWith(`${c.path}.`));
}

/** Ranks of the children: each at its fewest transitions from the initial one (unreached ones start their own walk). */
function ranksOf(parent: ChartState, edges: readonly ChartEdge[]): ChartState[][] {
  const next = new Map<string, Set<string>>(parent.children.map((c) => [c.path, new Set<string>()]));
  for (const e of edges) {
    const a = childHolding(parent, e.from);
    const b = childHolding(parent, e.to);
    if (a && b && a !== b) next.get(a.path)?.add(b.path);
  }
  const rank = new Map<string, number>();
  const order: string[] = [];
  const start = [...parent.children].sort((a, b) => Number(b.initial) - Number(a.initial));
  for (const first of start) {
    if (rank.has(first.path)) continue;
    rank.set(first.path, 0);
    const queue = [first.path];
    while (queue.length > 0) {
      const p = queue.shift()!;
      order.push(p);
      for (const q of next.get(p) ?? []) {
        if (rank.has(q)) continue;
        rank.set(q, (rank.get(p) ?? 0) + 1);
        queue.push(q);
      }
    }
  }

  const byPath = new Map(parent.children.map((c) => [c.path, c]));
  const ranks: ChartState[][] = [];
  for (const p of order) (ranks[rank.get(p) ?? 0] ??= []).push(byPath.get(p)!);
  // Order each rank by the mean position of its neighbours (either way) in the rank above.
  const linked = (a: string, b: string) => (next.get(a)?.has(b) ?? false) || (next.get(b)?.has(a) ?? false);
  for (let r = 1; r < ranks.length; r++) {
    const above = (ranks[r - 1] ?? []).map((c, i) => [c.path, i] as const);
    const mean = (c: ChartState) => {
      const places = above.filter(([p]) => linked(p, c.path)).map(([, i]) => i);
      return places.length === 0 ? Number.MAX_SAFE_INTEGER : places.reduce((a, b) => a + b, 0) / places.length;
    };
    ranks[r] = (ranks[r] ?? [])
      .map((c, i) => ({ c, m: mean(c), i }))
      .sort((a, b) => a.m - b.m || a.i - b.i)
      .map((x) => x.c);
  }
  return ranks.filter((row) => row.length > 0);
}

/** Lays out a chart: boxes by state path, in the chart's own coordinates (top-left 0, 0). */
export function layoutChart(chart: MachineChart): ChartLayout {
  const boxes = new Map<string, Rect>();
  // Sizes and positions relative to the parent's top-left, then made absolute.
  const local = new Map<string, Rect>();

  function size(state: ChartState): { w: number; h: number } {
    const lines = innerLines(state);
    const head = HEADER + lines.length * LINE;
    const textW = Math.max(textWidth(state.key) + 2 * PAD, ...lines.map((l) => textWidth(l) + 2 * PAD), 96);
    if (state.children.length === 0) return { w: textW, h: Math.max(head + 8, 40) };

    const sizes = new Map(state.children.map((c) => [c.path, size(c)]));
    let contentW = 0;
    let contentH = 0;
    if (state.kind === 'parallel') {
      let x = 0;
      for (const c of state.children) {
        const s = sizes.get(c.path)!;
        local.set(c.path, { x, y: 0, ...s });
        x += s.w + GAP_X / 2;
        contentH = Math.max(contentH, s.h);
      }
      contentW = x - GAP_X / 2;
    } else {
      const ranks = ranksOf(state, chart.edges);
      const rowW = ranks.map((row) => row.reduce((w, c) => w + sizes.get(c.path)!.w, 0) + GAP_X * (row.length - 1));
      contentW = Math.max(...rowW);
      let y = 0;
      ranks.forEach((row, r) => {
        const h = Math.max(...row.map((c) => sizes.get(c.path)!.h));
        let x = (contentW - (rowW[r] ?? 0)) / 2;
        for (const c of row) {
          const s = sizes.get(c.path)!;
          local.set(c.path, { x, y: y + (h - s.h) / 2, ...s });
          x += s.w + GAP_X;
        }
        y += h + GAP_Y;
      });
      contentH = y - GAP_Y;
    }
    const w = Math.max(textW, contentW + 2 * PAD);
    // Children start below the header, centred when the header is the wider.
    const shift = (w - contentW) / 2;
    for (const c of state.children) {
      const r = local.get(c.path)!;
      local.set(c.path, { ...r, x: r.x + shift, y: r.y + head + PAD });
    }
    return { w, h: head + PAD + contentH + PAD };
  }

  function place(state: ChartState, ox: number, oy: number) {
    const r = local.get(state.path)!;
    const abs = { ...r, x: ox + r.x, y: oy + r.y };
    boxes.set(state.path, abs);
    for (const c of state.children) place(c, abs.x, abs.y);
  }

  const rootSize = size(chart.root);
  local.set(chart.root.path, { x: 0, y: 0, ...rootSize });
  place(chart.root, 0, 0);
  return { width: rootSize.w, height: rootSize.h, boxes };
}

/** The point where the segment from the box's centre toward (tx, ty) leaves the box. */
export function borderPoint(box: Rect, tx: number, ty: number): { x: number; y: number } {
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const dx = tx - cx;
  const dy = ty - cy;
  if (dx === 0 && dy === 0) return { x: cx, y: cy };
  const scale = Math.min(dx === 0 ? Infinity : box.w / 2 / Math.abs(dx), dy === 0 ? Infinity : box.h / 2 / Math.abs(dy));
  return { x: cx + dx * scale, y: cy + dy * scale };
}

/** Where an arrow meets a box: a compound state's from above, on its top edge (its middle holds its children). */
function endOf(box: Rect, compound: boolean, toward: { x: number; y: number }) {
  if (compound && toward.y < box.y) return { x: Math.min(Math.max(toward.x, box.x + 24), box.x + box.w - 24), y: box.y };
  return borderPoint(box, toward.x, toward.y);
}

export interface ArrowShape {
  key: string;
  /** SVG path: a quadratic curve from the source's border to the target's. */
  d: string;
  lines: string[];
  /** The label's box (its lines centred in it). */
  label: Rect;
}

const LABEL_LINE = 14;
const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * The arrows of a laid-out chart. Each is bent to the left of its direction, so that a -> b and
 * b -> a do not overlap; its label sits at the curve's middle, moved up or down by its height
 * when it would cover a state's name or a label placed before it.
 */
export function arrowsOf(chart: MachineChart, layout: ChartLayout): ArrowShape[] {
  const compound = new Set<string>();
  const walk = (s: ChartState) => {
    if (s.children.length > 0) compound.add(s.path);
    s.children.forEach(walk);
  };
  walk(chart.root);
  // Labels keep off the states' names and lines, and off each other.
  const placed: Rect[] = [];
  const walkBoxes = (s: ChartState) => {
    const r = layout.boxes.get(s.path);
    if (r && s.path !== '') placed.push(s.children.length > 0 ? { ...r, h: HEADER + innerLines(s).length * LINE } : r);
    s.children.forEach(walkBoxes);
  };
  walkBoxes(chart.root);
  const shapes: ArrowShape[] = [];
  for (const e of chart.edges) {
    const from = layout.boxes.get(e.from);
    const to = layout.boxes.get(e.to);
    if (!from || !to) continue;
    const fc = { x: from.x + from.w / 2, y: from.y + from.h / 2 };
    const tc = { x: to.x + to.w / 2, y: to.y + to.h / 2 };
    const dx = tc.x - fc.x;
    const dy = tc.y - fc.y;
    const len = Math.hypot(dx, dy) || 1;
    const bend = Math.min(40, len / 4);
    const control = { x: (fc.x + tc.x) / 2 + (dy / len) * bend, y: (fc.y + tc.y) / 2 - (dx / len) * bend };
    const p0 = endOf(from, compound.has(e.from), control);
    const p2 = endOf(to, compound.has(e.to), control);
    const mid = { x: (p0.x + 2 * control.x + p2.x) / 4, y: (p0.y + 2 * control.y + p2.y) / 4 };
    const lines = e.labels.map(labelText);
    const w = Math.max(...lines.map((l) => textWidth(l))) + 8;
    const h = lines.length * LABEL_LINE + 4;
    const at = (shift: number): Rect => ({ x: mid.x - w / 2, y: mid.y - h / 2 + shift, w, h });
    const shifts = [0, 1, -1, 2, -2, 3, -3, 4, -4].map((k) => k * (h + 2));
    const label = shifts.map(at).find((r) => !placed.some((p) => overlaps(p, r))) ?? at(0);
    placed.push(label);
    shapes.push({ key: `${e.from}->${e.to}`, d: `M ${p0.x} ${p0.y} Q ${control.x} ${control.y} ${p2.x} ${p2.y}`, lines, label });
  }
  return shapes;
}
