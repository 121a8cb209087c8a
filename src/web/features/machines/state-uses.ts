// What depends on a state (decision 132), from two derived facts: which exports of the machine's
// modules name the state (read here, from the exports' values: a status constant 'deleted', a list
// ['open', 'unmatch']), and which screens and server calls use each export (read from the imports
// at build time: virtual:machine-uses, scripts/machine-uses.ts). An export that is not a state's
// name or list of names (the machine, a question such as decide or canApplyForArrived, a table over
// every status) reads whichever state it is given: it counts for every state.
import uses from 'virtual:machine-uses';
import type { CatalogEntry } from './machine-catalog';

export interface ExportUse {
  module: string;
  name: string;
  screens: string[];
  calls: string[];
  callsVia: string[];
}

export interface StateUses {
  /** Exports whose value names this state (and not every state). */
  named: ExportUse[];
  /** Exports that read any state: the machine, its questions, lists of every state. */
  whole: ExportUse[];
}

/** The states an export's value names: a state's name, or a list of them; null when it reads any state. */
export function statesNamed(value: unknown, stateKeys: ReadonlySet<string>): string[] | null {
  if (typeof value === 'string') return stateKeys.has(value) ? [value] : [];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    if (!value.every((v: string) => stateKeys.has(v))) return [];
    return value.length >= stateKeys.size ? null : value;
  }
  if (typeof value === 'function' || (typeof value === 'object' && value !== null)) return null;
  return [];
}

/** Uses of the exports of `entry` for the state keyed `key` (a status value for lifecycle machines). */
export function stateUses(entry: CatalogEntry, key: string, stateKeys: ReadonlySet<string>): StateUses {
  const named: ExportUse[] = [];
  const whole: ExportUse[] = [];
  for (const [module, exports] of Object.entries(entry.modules)) {
    for (const [name, use] of Object.entries(uses[module] ?? {})) {
      const row = { module, name, ...use };
      if (name === '*') {
        whole.push(row);
        continue;
      }
      const states = statesNamed(exports[name], stateKeys);
      if (states === null) whole.push(row);
      else if (states.includes(key)) named.push(row);
    }
  }
  return { named, whole };
}

/** Every distinct entry of `field` over `rows`, sorted. */
export const unionOf = (rows: readonly ExportUse[], field: 'screens' | 'calls' | 'callsVia'): string[] => [...new Set(rows.flatMap((r) => r[field]))].sort();
