// The server's modules import each other without a circle (SessionUser lived in
// handlers/types.ts, which names the services the request context carries, so the services and the
// handlers' types imported each other: sessions -> handlers/types -> scan-batcher -> scan-service
// -> matching -> tasks/apply-event -> handlers/types). A circle makes the load order decide which
// module sees the other half-initialised; type imports count, since they tie the modules' design.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../src/server/', import.meta.url));

/** Every .ts file under src/server and the src/server files it imports (relative imports, types included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(root, file), 'utf8');
    const deps = [...text.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gms)]
      .map((m) => normalize(join(dirname(file), m[1]!)).replace(/(?<!\.ts)$/, '.ts'))
      .filter((dep) => !dep.startsWith('..'));
    graph.set(normalize(file), deps);
  }
  return graph;
}

/** One import circle of the graph, as the files along it, or null. */
function findCircle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...trail.slice(trail.indexOf(file)), file];
    state.set(file, 'open');
    trail.push(file);
    for (const dep of graph.get(file) ?? []) {
      const circle = visit(dep);
      if (circle) return circle;
    }
    trail.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return null;
}

describe('server modules', () => {
  it('import each other without a circle', () => {
    const graph = importGraph();
    expect(graph.get(normalize('receiving/scan-service.ts'))).toContain(normalize('auth/session-user.ts'));
    expect(findCircle(graph)).toBeNull();
  });

  it('the check finds a circle when there is one', () => {
    expect(
      findCircle(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
        ]),
      ),
    ).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  });
});
