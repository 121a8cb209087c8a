// Router <Link>s that look like the UI kit's buttons (<Button> renders a <button>; a navigation
// is a link, so it opens in a new tab and reads as a link to screen readers).
export const primaryLinkClass =
  'inline-flex h-9 items-center justify-center gap-1.5 rounded-md bg-blue-600 px-4 text-sm font-medium whitespace-nowrap ' +
  'text-white shadow-sm transition-colors hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 ' +
  'focus-visible:outline-blue-500';

export const secondaryLinkClass =
  'inline-flex h-9 items-center justify-center gap-1.5 rounded-md border border-slate-300 bg-white px-4 text-sm ' +
  'font-medium whitespace-nowrap text-slate-700 shadow-sm transition-colors hover:bg-slate-50 focus-visible:outline-2 ' +
  'focus-visible:outline-offset-2 focus-visible:outline-blue-500';

export const textLinkClass = 'text-sm font-medium text-blue-600 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500';
