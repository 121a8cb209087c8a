// Handlers delegate (docs/decisions/164-handlers-delegate.md; issue 34 "handlers in one style"): a
// handler of src/server/handlers parses and checks the request, calls its area's module and
// answers. It holds no SQL, so it imports neither drizzle-orm nor the tables (src/server/db/schema):
// the queries and writes live in the area's module, where a job, a script or another handler can
// call them and where their tests point. This test reads every handler's imports (static, type-only,
// re-exports and import()) and fails with the files that reach either. The handlers not moved yet
// are allowed one file at a time, each with its reason; an entry whose file no longer imports them
// fails too, so the list only shrinks.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const HANDLERS = path.join(root, 'src/server/handlers');
const SCHEMA = path.join(root, 'src/server/db/schema');

/** A handler still allowed to hold SQL: the file and why it has not moved yet. */
interface Allowed {
  file: string;
  reason: string;
}

/** None: every handler has moved its queries; an entry here needs a reason a reviewer accepts. */
const ALLOWED: Allowed[] = [];

/** The file without its comments (// to the end of a line, /* ... *\/), so prose may name a module. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[\s;,{}()])\/\/.*$/gm, '$1');
}

/** Every module specifier a file imports or re-exports, statically or with import(). */
export function specifiers(text: string): string[] {
  const body = code(text);
  const patterns = [/\bfrom\s*(['"])([^'"]+)\1/g, /\bimport\s*(['"])([^'"]+)\1/g, /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g];
  return patterns.flatMap((re) => [...body.matchAll(re)].map((m) => m[2]!));
}

/** Whether a specifier of a file in `dir` is drizzle-orm (or one of its entry points) or a table module. */
function isSql(spec: string, dir: string): boolean {
  if (spec === 'drizzle-orm' || spec.startsWith('drizzle-orm/')) return true;
  if (!spec.startsWith('.')) return false;
  const target = path.resolve(dir, spec);
  return target === SCHEMA || target.startsWith(SCHEMA + path.sep) || target.startsWith(SCHEMA + '.');
}

/** The handlers importing SQL that no allowed entry explains, and the allowed entries no longer needed. */
function findings(): { found: string[]; unused: Allowed[] } {
  const found: string[] = [];
  const used = new Set<Allowed>();
  for (const name of readdirSync(HANDLERS).filter((f) => /\.(ts|mts|js|mjs)$/.test(f))) {
    const sql = specifiers(readFileSync(path.join(HANDLERS, name), 'utf8')).filter((s) => isSql(s, HANDLERS));
    if (!sql.length) continue;
    const allowed = ALLOWED.find((a) => a.file === name);
    if (allowed) used.add(allowed);
    else found.push(`src/server/handlers/${name}: ${sql.join(', ')}`);
  }
  return { found, unused: ALLOWED.filter((a) => !used.has(a)) };
}

describe('handlers in src/server/handlers', () => {
  const { found, unused } = findings();

  it('import neither drizzle-orm nor db/schema: their SQL is in the area modules (the allowed files say why)', () => {
    expect(found).toEqual([]);
  });

  it('allows only files that still import them', () => {
    expect(unused.map((a) => a.file)).toEqual([]);
  });

  it('sees every form of import (the probe)', () => {
    const probe = [
      'import { and,',
      "  eq } from 'drizzle-orm';",
      "import type { users } from '../db/schema/accounts.ts';",
      "export { items } from '../db/schema/catalog.ts';",
      "const m = await import('drizzle-orm/pg-core');",
      "// import { sql } from 'drizzle-orm' in a comment",
      "import { ok } from './types.ts';",
      "import { listUsers } from '../people/users.ts';",
    ].join('\n');
    expect(specifiers(probe).filter((s) => isSql(s, HANDLERS))).toEqual([
      'drizzle-orm',
      '../db/schema/accounts.ts',
      '../db/schema/catalog.ts',
      'drizzle-orm/pg-core',
    ]);
  });
});
