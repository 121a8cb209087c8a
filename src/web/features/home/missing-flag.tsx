// The member home's flag of missing parcels (decision 077): when some of the member's tracking ids
// have not arrived after the setting's days, an amber banner says how many (and how many of them the
// member already reported lost) and links to /user/missing-parcels, where each is dealt with.
// Nothing when none is missing: the home shows what needs the member, not what does not.
import { Link } from '@tanstack/react-router';
import type { JSX } from 'react';
import { zh } from '../../i18n/zh';
import type { MemberHome } from './member-home-api';

const M = zh.missing;

export function MissingFlag({ home }: { home: MemberHome | undefined }): JSX.Element | null {
  const missing = home?.missingParcels;
  if (!missing || missing.total === 0) return null;
  return (
    <section
      aria-labelledby="home-missing"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:px-5"
    >
      <p id="home-missing" className="flex flex-wrap items-center gap-x-2">
        <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4 shrink-0 text-amber-700" fill="none" stroke="currentColor" strokeWidth="1.75">
          <path d="M8 6v3M8 11.5v.5M7.1 2.6L1.6 12a1 1 0 00.9 1.5h11a1 1 0 00.9-1.5L8.9 2.6a1 1 0 00-1.8 0z" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="font-medium">{M.homeFlag(missing.total, missing.days)}</span>
        {missing.lost > 0 && <span className="text-amber-900">{M.homeFlagLost(missing.lost)}</span>}
      </p>
      <Link
        to="/user/missing-parcels"
        className="inline-flex h-9 items-center rounded-md border border-amber-400 bg-white px-3 font-medium text-amber-950 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        {M.homeFlagLink}
      </Link>
    </section>
  );
}
