// No import cycles in src/ or machines/, types included. import-x/no-cycle (eslint.config.js) stops
// cycles of values but skips `import type`, and both cycles issue 34 found were of types alone
// (scan.machine <-> scan2.machine, confirm <-> confirm-dialog): this walks every relative import,
// export-from and import() of the code and fails on any cycle, naming its files
// (docs/decisions/039-no-import-cycles.md).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const GENERATED = new Set(['src/api/schema.d.ts', 'src/web/routeTree.gen.ts']);

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return name === 'migrations' ? [] : sources(rel);
    return /\.tsx?$/.test(name) && !GENERATED.has(rel) ? [rel] : [];
  });
}

/** The file a relative specifier of `from` names (with or without its extension), or null. */
function resolve(from: string, spec: string): string | null {
  const base = path.posix.join(path.posix.dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, '.ts'), `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((c) => /\.tsx?$/.test(c) && existsSync(path.join(root, c))) ?? null;
}

/** `from '…'` of import and export statements (types included), and import('…'). */
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of [...sources('machines'), ...sources('src')]) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const targets = [...text.matchAll(SPECIFIERS)].map((m) => resolve(file, m[1]!)).filter((t): t is string => t !== null);
    edges.set(file, [...new Set(targets)]);
  }
  return edges;
}

/** The cycles of `edges` (Tarjan's strongly connected components of more than one file, or a file importing itself). */
function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!order.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('finds a cycle of types alone (the check itself)', () => {
    const edges = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(edges)).toEqual([['a.ts', 'b.ts']]);
  });

  it('reads the imports of both kinds', () => {
    const edges = graph();
    expect(edges.get('machines/scan2.machine.ts')).toContain('machines/scan-station.ts');
    // `import type` and import() count.
    expect(edges.get('src/web/components/ui/confirm-dialog.tsx')).toContain('src/web/components/ui/confirm-request.ts');
    expect(edges.get('src/web/components/ui/confirm.tsx')).toContain('src/web/components/ui/confirm-dialog.tsx');
  });

  it('src/ and machines/ have none, types included', () => {
    expect(cycles(graph())).toEqual([]);
  });
});
