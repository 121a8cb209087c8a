// Search-param schemas of the admin lists (/admin/tasks, /admin/task-audit, /admin/tracking-list,
// /admin/tracking-audit): filters, sort (isDesc), page (0-based) and size live in the URL, so a
// filtered page can be linked, reloaded and walked back to. A value that does not parse falls back
// to its default (or is dropped) instead of failing the route; defaults stay out of the URL.
import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE } from '../components/ui/pager';

/** No size list is given for the admin lists in SPEC §9: the default 20 and a few larger ones. */
export const LIST_SIZE_OPTIONS = [20, 50, 100, 200] as const;

/** Left out of the URL when equal (the routes strip them with stripSearchParams). */
export const LIST_SEARCH_DEFAULTS = { isDesc: true, page: 0, size: DEFAULT_PAGE_SIZE } as const;

/** An id in the URL: a positive whole number (TanStack may hand it over as a string); anything else is dropped. */
function toId(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}
export const idParam = v.optional(v.pipe(v.unknown(), v.transform(toId)));

/** Free text in the URL (an all-digit value arrives as a number); blank is dropped. */
function toText(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}
export const textParam = v.optional(v.pipe(v.unknown(), v.transform(toText)));

/** One of `values`, or dropped. */
export function oneOf<const V extends string>(values: readonly V[]) {
  return v.optional(
    v.pipe(
      v.unknown(),
      v.transform((value) => ((values as readonly unknown[]).includes(value) ? (value as V) : undefined)),
    ),
  );
}

/** A calendar day YYYY-MM-DD that exists (2025-02-31 does not), or dropped. */
export function isDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
export const dayParam = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === 'string' && isDay(value) ? value : undefined)),
  ),
);

export const pageParam = v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0), 0);
export const sizeParam = v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), DEFAULT_PAGE_SIZE), DEFAULT_PAGE_SIZE);
export const isDescParam = v.optional(v.fallback(v.boolean(), true), true);
/** A filter that is on or absent (`?notArrived=true`): true is kept, anything else is dropped. */
export const flagParam = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (value === true || value === 'true' ? true : undefined)),
  ),
);

/** `query` without its undefined fields (what a list call is asked for: blanks left out). */
export function definedOnly<T extends object>(query: T): T {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as T;
}

/**
 * What a list page gives its filter form: `key` (a new URL, from the back button or a link,
 * re-seeds the form), apply (the filters, from the first page at the same size) and reset (back to
 * `cleared`, newest first by default).
 */
export function filterForm<S extends { page?: number; size?: number }>(
  search: S,
  onSearch: (next: S) => void,
  cleared: Partial<S> = { isDesc: true } as unknown as Partial<S>,
): { key: string; onApply: (filters: Omit<S, 'page' | 'size'>) => void; onReset: () => void } {
  return {
    key: JSON.stringify({ ...search, page: undefined, size: undefined }),
    onApply: (filters) => onSearch({ ...filters, page: 0, size: search.size } as S),
    onReset: () => onSearch({ ...cleared, page: 0, size: search.size } as S),
  };
}
