// Which screens and server calls use which export of machines/ (decision 132), read from the source
// at build time and served to the chart viewer as the virtual module `virtual:machine-uses`, so the
// answer to "what depends on this state?" is derived from the code every build and cannot drift.
//
// What it reads: the import statements of src/web, src/server and machines/ (static, re-exports and
// dynamic import() of a path). A screen is a route file (createFileRoute('/...'), pathless segments
// dropped) and everything it imports, transitively; the app's entry (main.tsx) is the screen '/*',
// every page. A server call is an operationId: a method of a
// handlers object in src/server/handlers/, with the imports its body (and the file's top-level
// helpers it calls) names, then everything those import, transitively (a call is listed apart,
// as reaching it "via" shared modules, when more than one module lies between). A file counts as using the
// names it imports from a machine module (machines/<name>.machine.ts or .statuses.ts). Below the
// handler method the resolution is per file: a service that imports a name is taken to use it for
// every call that reaches it. Not seen: what reaches a handler through ctx (the scan batcher, the
// outbox) rather than an import, and type-only imports (they decide nothing at run time).
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export interface NameUses {
  screens: string[];
  /** Calls whose handler names it, or calls a module that does, or a module that one imports. */
  calls: string[];
  /** Calls that reach it only through more shared modules. */
  callsVia: string[];
}

/** Machine module path (e.g. 'machines/task.machine.ts') -> exported name ('*' for a whole-module import) -> its users. */
export type MachineUses = Record<string, Record<string, NameUses>>;

const SOURCE = /\.(ts|tsx)$/;
const MACHINE_MODULE = /^machines\/[\w-]+\.(machine|statuses)\.ts$/;
const ROOTS = ['src/web', 'src/server', 'machines'];
/** The chart viewer reads every machine whole to draw it: not a use of any state. */
const VIEWER = 'src/web/features/machines/';

interface FileImports {
  /** Resolved file -> names imported from it ('*' for namespace, dynamic or export-all). */
  from: Map<string, Set<string>>;
  /** Local binding -> the file it comes from. */
  locals: Map<string, string>;
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of ROOTS) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full, { recursive: true, encoding: 'utf8' })) {
      if (SOURCE.test(f) && !f.endsWith('.d.ts') && !f.endsWith('.gen.ts')) out.push(path.posix.join(dir, f.split(path.sep).join('/')));
    }
  }
  return out;
}

function resolve(files: Set<string>, fromFile: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) if (files.has(candidate)) return candidate;
  return null;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;=()'"]*?)\s*from\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The imports of one file's text. */
export function importsOf(files: Set<string>, file: string, text: string): FileImports {
  const from = new Map<string, Set<string>>();
  const locals = new Map<string, string>();
  const add = (target: string, name: string) => {
    const set = from.get(target) ?? new Set<string>();
    set.add(name);
    from.set(target, set);
  };
  for (const m of text.matchAll(IMPORT)) {
    const [, kind, typeOnly, clause = '', spec = ''] = m;
    if (typeOnly) continue;
    const target = resolve(files, file, spec);
    if (!target) continue;
    const braces = /\{([\s\S]*)\}/.exec(clause);
    if (/\*/.test(clause) && !braces) {
      add(target, '*');
      const ns = /\*\s+as\s+(\w+)/.exec(clause);
      if (ns?.[1]) locals.set(ns[1], target);
    }
    const defaultName = /^(\w+)\s*(,|$)/.exec(clause.trim());
    if (kind === 'import' && defaultName?.[1] && defaultName[1] !== 'type') {
      add(target, 'default');
      locals.set(defaultName[1], target);
    }
    for (const part of braces?.[1]?.split(',') ?? []) {
      const item = part.trim();
      if (!item || item.startsWith('type ')) continue;
      const [name = '', local = name] = item.split(/\s+as\s+/).map((s) => s.trim());
      add(target, name);
      locals.set(local, target);
    }
  }
  for (const m of text.matchAll(DYNAMIC)) {
    const target = resolve(files, file, m[1] ?? '');
    if (target) add(target, '*');
  }
  return { from, locals };
}

/** The route's path as the app shows it: '/_app/_admin/admin/scan' -> '/admin/scan'; null for a layout route. */
export function screenOf(text: string): string | null {
  const m = /createFileRoute\(\s*'([^']+)'\s*\)/.exec(text);
  if (!m?.[1]) return null;
  const segments = m[1].split('/').filter(Boolean);
  if (segments.length > 0 && segments[segments.length - 1]!.startsWith('_')) return null;
  return `/${segments.filter((s) => !s.startsWith('_')).join('/')}`;
}

const WORD = /[A-Za-z_$][\w$]*/g;
const words = (text: string) => new Set(text.match(WORD) ?? []);

/** A handlers file's operations: operationId -> the local names its method (and the helpers it calls) use. */
export function operationsOf(text: string): Map<string, Set<string>> {
  const ops = new Map<string, Set<string>>();
  // Top-level segments: each starts at a line in column 0 that is not a closing bracket.
  const segments = text.split(/\n(?=[^\s}\])])/);
  const helpers = new Map<string, string>();
  let handlersBody: string | null = null;
  for (const seg of segments) {
    if (/:\s*Handlers\s*=\s*\{/.test(seg)) handlersBody = seg;
    else {
      const name = /^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let)\s+(\w+)/.exec(seg)?.[1];
      if (name) helpers.set(name, seg);
    }
  }
  if (!handlersBody) return ops;
  const methods = handlersBody.split(/\n(?= {2}(?:async\s+)?\w+\s*(?:\(|:))/).slice(1);
  for (const method of methods) {
    const id = /^\s*(?:async\s+)?(\w+)/.exec(method)?.[1];
    if (!id) continue;
    const used = words(method);
    // The file's helpers the method calls, and the helpers they call.
    for (let grew = true; grew;) {
      grew = false;
      for (const [name, body] of helpers) {
        if (!used.has(name) || used.has(`#${name}`)) continue;
        used.add(`#${name}`);
        for (const w of words(body)) if (!used.has(w)) used.add(w);
        grew = true;
      }
    }
    ops.set(id, used);
  }
  return ops;
}

export function collectMachineUses(root: string): MachineUses {
  const list = listFiles(root);
  const files = new Set(list);
  const texts = new Map(list.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
  const imports = new Map(list.map((f) => [f, importsOf(files, f, texts.get(f) ?? '')]));

  /** Machine (module, name) pairs reachable from `starts`, following imports, with the fewest files passed to reach each (0: a start names it). */
  function machineNames(starts: Iterable<string>): Map<string, Map<string, number>> {
    const found = new Map<string, Map<string, number>>();
    const seen = new Set<string>();
    let level = [...starts];
    for (let depth = 0; level.length > 0; depth++) {
      const next: string[] = [];
      for (const file of level) {
        if (seen.has(file)) continue;
        seen.add(file);
        if (file.startsWith(VIEWER)) continue;
        for (const [target, names] of imports.get(file)?.from ?? []) {
          if (MACHINE_MODULE.test(target) && !sameMachine(file, target)) {
            const byName = found.get(target) ?? new Map<string, number>();
            for (const n of names) if (!byName.has(n)) byName.set(n, depth);
            found.set(target, byName);
          }
          next.push(target);
        }
      }
      level = next;
    }
    return found;
  }

  const uses: MachineUses = {};
  const credit = (found: Map<string, Map<string, number>>, who: string, kindOf: (depth: number) => keyof NameUses) => {
    for (const [module, names] of found) {
      const byName = (uses[module] ??= {});
      for (const [name, depth] of names) {
        const entry = (byName[name] ??= { screens: [], calls: [], callsVia: [] });
        const list = entry[kindOf(depth)];
        if (!list.includes(who)) list.push(who);
      }
    }
  };

  for (const file of list) {
    const text = texts.get(file) ?? '';
    if (file === APP_ENTRY) credit(machineNames([file]), EVERY_SCREEN, () => 'screens');
    else if (file.startsWith('src/web/routes/')) {
      const screen = screenOf(text);
      if (screen) credit(machineNames([file]), screen, () => 'screens');
    } else if (file.startsWith('src/server/handlers/')) {
      const locals = imports.get(file)?.locals ?? new Map<string, string>();
      for (const [op, used] of operationsOf(text)) {
        const direct = [...locals].filter(([local]) => used.has(local));
        // Depth 0: a module the handler method calls names it; 1: a module that one imports; deeper: via shared modules.
        const found = machineNames(direct.map(([, target]) => target).filter((t) => !MACHINE_MODULE.test(t)));
        for (const [local, target] of direct) {
          if (!MACHINE_MODULE.test(target)) continue;
          const byName = found.get(target) ?? new Map<string, number>();
          byName.set(importedNameOf(text, local), 0);
          found.set(target, byName);
        }
        credit(found, op, (depth) => (depth <= 1 ? 'calls' : 'callsVia'));
      }
    }
  }
  for (const byName of Object.values(uses)) for (const entry of Object.values(byName)) for (const list of Object.values(entry)) list.sort();
  return uses;
}

/** machines/task.machine.ts and machines/task.statuses.ts are one machine: not a use of each other. */
function sameMachine(file: string, target: string): boolean {
  const stem = (f: string) => f.replace(/\.(machine|statuses)\.ts$/, '');
  return file.startsWith('machines/') && stem(file) === stem(target);
}

/** The exported name behind a local binding (`{ a as b }` -> a). */
function importedNameOf(text: string, local: string): string {
  const aliased = new RegExp(`\\b(\\w+)\\s+as\\s+${local}\\b`).exec(text);
  return aliased?.[1] ?? local;
}

const VIRTUAL = 'virtual:machine-uses';
/** The app's entry: what it loads (the session actor) is used on every screen. */
const APP_ENTRY = 'src/web/main.tsx';
export const EVERY_SCREEN = '/*';

/** Vite plugin: `import uses from 'virtual:machine-uses'` gives collectMachineUses() of the project, computed when first imported. */
export function machineUses(): Plugin {
  let root = process.cwd();
  return {
    name: 'purchase-hub:machine-uses',
    configResolved(config) {
      root = config.root;
    },
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
    load(id) {
      if (id !== `\0${VIRTUAL}`) return null;
      return `export default ${JSON.stringify(collectMachineUses(root))};`;
    },
  };
}
