// The member home's money at a glance (decision 111): five figures in the order a unit travels -
// claimed, bought (tracking ids recorded), arrived, paid, withdrawable - each in units and yuan and
// each a link to the list behind it, with that list's filter in the URL (my tasks by status, the
// payment applications, the withdrawal page). Two tiles a row on a phone, five in a row on a wide
// screen. Its own component so other parts of the home merge beside it.
import { Link, type LinkProps } from '@tanstack/react-router';
import type { JSX } from 'react';
import { formatMoney } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import type { MemberHome } from './member-home-api';

const H = zh.memberHome;
type Totals = MemberHome['totals'];

/** Each figure, its words and where it leads. */
const FIGURES: readonly { key: keyof Totals; label: string; link: LinkProps }[] = [
  { key: 'claimed', label: H.totalClaimed, link: { to: '/user/my-task', search: { status: 'all', claimed: true } } },
  { key: 'recorded', label: H.totalRecorded, link: { to: '/user/my-task', search: { status: 'all', recorded: true } } },
  { key: 'arrived', label: H.totalArrived, link: { to: '/user/my-task', search: { status: 'locked' } } },
  { key: 'paid', label: H.totalPaid, link: { to: '/user/apply-list' } },
  { key: 'withdrawable', label: H.totalWithdrawable, link: { to: '/user/withdraw-request' } },
];

export function MemberTotals({ totals }: { totals: Totals | undefined }): JSX.Element {
  return (
    <section aria-labelledby="home-totals" className="flex flex-col gap-3">
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id="home-totals" className="text-base font-semibold text-slate-900">
          {H.totals}
        </h2>
        <p className="text-sm text-slate-600">{H.totalsHint}</p>
      </header>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {FIGURES.map(({ key, label, link }) => (
          <li key={key} className={key === 'withdrawable' ? 'col-span-2 sm:col-span-1' : undefined}>
            <Link
              {...link}
              data-testid={`home-total-${key}`}
              className="flex h-full flex-col gap-1 rounded-xl border border-slate-200 bg-white p-3 shadow-sm hover:border-blue-300 hover:bg-blue-50/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500 sm:p-4"
            >
              <span className="text-sm text-slate-600">{label}</span>
              {totals ? (
                <>
                  <span className="text-2xl font-semibold text-slate-900 tabular-nums">{H.units(totals[key].units)}</span>
                  <span className="text-sm font-medium text-slate-700 tabular-nums">{H.amount(formatMoney(totals[key].amount))}</span>
                </>
              ) : (
                <span aria-hidden="true" className="block h-12 w-20 animate-pulse rounded-md bg-slate-200" />
              )}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
