// The pager of SPEC §9: element-ui's classic pager with pager-count 7. At most 7 page numbers are shown
// (first and last always among them); when pages are hidden an ellipsis stands in for them and jumps
// 5 pages (pager-count - 2) back or forward. Pages are 0-based here as on the wire; labels are 1-based.
import { useId, type JSX } from 'react';
import { UI_TEXT } from './ui-text';

export const PAGER_SLOTS = 7;
export const PAGER_JUMP = PAGER_SLOTS - 2;

export const DEFAULT_PAGE_SIZE = 20;
export const SMALL_PAGE_SIZE = 10;

/**
 * SPEC §9's "very large value", meaning "everything on one page"; the size select names it 全部. It is
 * above the server's size bound (1..1000), so use it only where the whole list is already in hand.
 */
export const ALL_ROWS_PAGE_SIZE = 100000;

export const PAGE_SIZE_OPTIONS = {
  uploadResults: [20, 40, 60, 100, 200, ALL_ROWS_PAGE_SIZE],
  withdraw: [20, 50, 100, 500, 1000],
  boardAndItem: [10, 15, 20, 40, 60, 100, 200, 500],
} as const satisfies Record<string, readonly number[]>;

export type PageSlot = number | 'prev-jump' | 'next-jump';

/** The slots to render for 0-based `current` out of `totalPages` (fewer than 1 page counts as 1). */
export function computePageSlots(current: number, totalPages: number): PageSlot[] {
  const count = Math.max(1, Math.floor(totalPages));
  const cur = Math.min(Math.max(0, Math.floor(current)), count - 1);
  if (count <= PAGER_SLOTS) return Array.from({ length: count }, (_, i) => i);

  const last = count - 1;
  const half = Math.floor(PAGER_SLOTS / 2); // 3
  const showPrevJump = cur > PAGER_SLOTS - half - 1; // 1-based: current > 4
  const showNextJump = cur < last - half; // 1-based: current < count - 3
  const inner = PAGER_SLOTS - 2; // numbers between first and last

  let start: number;
  if (showPrevJump && showNextJump) start = cur - Math.floor(inner / 2);
  else if (showPrevJump) start = last - inner;
  else start = 1;

  const middle = Array.from({ length: inner }, (_, i) => start + i);
  return [0, ...(showPrevJump ? (['prev-jump'] as const) : []), ...middle, ...(showNextJump ? (['next-jump'] as const) : []), last];
}

/** The page an ellipsis jumps to, clamped to the range. */
export function jumpTarget(slot: 'prev-jump' | 'next-jump', current: number, totalPages: number): number {
  const last = Math.max(1, totalPages) - 1;
  return slot === 'prev-jump' ? Math.max(0, current - PAGER_JUMP) : Math.min(last, current + PAGER_JUMP);
}

const navButton =
  'inline-flex h-8 min-w-8 items-center justify-center rounded px-2 text-sm text-slate-700 hover:bg-slate-100 ' +
  'disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent focus-visible:outline-2 focus-visible:outline-blue-500';

export interface PagerProps {
  /** 0-based current page. */
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  className?: string;
}

export function Pager({ page, totalPages, onChange, className = '' }: PagerProps): JSX.Element {
  const count = Math.max(1, totalPages);
  const go = (target: number) => {
    if (target !== page) onChange(target);
  };
  return (
    <nav aria-label={UI_TEXT.pagination} className={`flex items-center gap-1 ${className}`}>
      <button type="button" className={navButton} disabled={page <= 0} onClick={() => go(page - 1)}>
        {UI_TEXT.prevPage}
      </button>
      <ul className="flex items-center gap-1">
        {computePageSlots(page, count).map((slot) =>
          typeof slot === 'number' ? (
            <li key={slot}>
              <button
                type="button"
                aria-label={UI_TEXT.pageN(slot + 1)}
                aria-current={slot === page ? 'page' : undefined}
                onClick={() => go(slot)}
                className={slot === page ? `${navButton} bg-blue-600 font-semibold text-white hover:bg-blue-600` : navButton}
              >
                {slot + 1}
              </button>
            </li>
          ) : (
            <li key={slot}>
              <button
                type="button"
                aria-label={slot === 'prev-jump' ? UI_TEXT.jumpBack(PAGER_JUMP) : UI_TEXT.jumpForward(PAGER_JUMP)}
                title={slot === 'prev-jump' ? UI_TEXT.jumpBack(PAGER_JUMP) : UI_TEXT.jumpForward(PAGER_JUMP)}
                onClick={() => go(jumpTarget(slot, page, count))}
                className={`${navButton} group`}
              >
                <span className="group-hover:hidden" aria-hidden="true">
                  …
                </span>
                <span className="hidden group-hover:inline" aria-hidden="true">
                  {slot === 'prev-jump' ? '«' : '»'}
                </span>
              </button>
            </li>
          ),
        )}
      </ul>
      <button type="button" className={navButton} disabled={page >= count - 1} onClick={() => go(page + 1)}>
        {UI_TEXT.nextPage}
      </button>
    </nav>
  );
}

export interface PageSizeSelectProps {
  value: number;
  options: readonly number[];
  onChange: (size: number) => void;
  className?: string;
}

export function PageSizeSelect({ value, options, onChange, className = '' }: PageSizeSelectProps): JSX.Element {
  const id = useId();
  // Keep the current size selectable even when a caller's options do not list it.
  const all = options.includes(value) ? options : [...options, value].sort((a, b) => a - b);
  return (
    <div className={`flex items-center gap-1 text-sm text-slate-600 ${className}`}>
      <label htmlFor={id}>{UI_TEXT.perPage}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="h-8 rounded border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        {all.map((n) => (
          <option key={n} value={n}>
            {n === ALL_ROWS_PAGE_SIZE ? UI_TEXT.allRows : n}
          </option>
        ))}
      </select>
      {value !== ALL_ROWS_PAGE_SIZE && <span aria-hidden="true">{UI_TEXT.rows}</span>}
    </div>
  );
}
