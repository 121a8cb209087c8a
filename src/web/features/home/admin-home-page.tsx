// /admin/home: what waits for the admin side, each count a link to the list it counts, filtered by
// the status its machine names (never a literal here), and the two scan stations one click away.
// One call (getAdminHome, the day in this browser's timezone); the withdraw counts are admin only,
// like the withdraw list, and so is assigning a contested parcel's units (listed below the counts
// when there are any: contested-parcels.tsx, decision 096). The page loads its counts itself so its title and links stay while they
// load (skeletons), and a failed load is said in place of the cards with a retry.
import { Link, linkOptions, type LinkOptions } from '@tanstack/react-router';
import { useCallback, type JSX } from 'react';
import { errorText } from '../../../api/client';
import type { ApiOutcome } from '../../../api/outcome';
import { AWAITING_AGREE_PAYMENT_STATUS } from '../../../../machines/payment.machine';
import { isUnmatched, NOT_ARRIVED_AFTER_DAYS, RECENT_CLAIM_DAYS, SCAN_STATUSES } from '../../../../machines/scan-record.machine';
import { CLAIM_PENDING_STATUS } from '../../../../machines/task.machine';
import { AWAITING_PAY_WITHDRAW_STATUS, CANCEL_REQUESTED_WITHDRAW_STATUS } from '../../../../machines/withdraw.machine';
import { useAppContext } from '../../app/app-context';
import { Button } from '../../components/ui/button';
import { formatDay, formatMoney } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { timezoneOffsetHours } from '../../lib/timezone';
import { useRemote } from '../../lib/use-remote';
import { ADMIN_ONLY_ROLES } from '../../session/route-guards';
import { useSessionRole } from '../../session/use-session';
import { ContestedParcels } from './contested-parcels';
import { loadAdminHome, type AdminHome } from './home-api';

const H = zh.home;

/** The scan status of a row matching tied to no task, as the machine's question answers it. */
const UNMATCHED_SCAN_STATUS = SCAN_STATUSES.find((status) => isUnmatched({ status }));

interface CountCard {
  key: string;
  label: string;
  /** Undefined while loading. */
  count: number | undefined;
  hint: string;
  /** Something waits behind the card though its count is 0 (its hint says what): opened, not 暂无. */
  waiting?: boolean;
  link: LinkOptions;
}

function countCards(home: AdminHome | undefined, today: string, withWithdrawals: boolean): CountCard[] {
  const days = home?.notArrivedDays ?? NOT_ARRIVED_AFTER_DAYS;
  const cards: CountCard[] = [
    {
      key: 'pendingClaims',
      label: H.card.pendingClaims,
      count: home?.pendingClaims,
      hint: H.hint.pendingClaims,
      link: linkOptions({ to: '/admin/tasks', search: { taskStatus: CLAIM_PENDING_STATUS } }),
    },
    {
      key: 'scannedTodayUnmatched',
      label: H.card.scannedTodayUnmatched,
      count: home?.scannedTodayUnmatched,
      hint: H.hint.scannedTodayUnmatched,
      link: linkOptions({ to: '/admin/tracking-list', search: { status: UNMATCHED_SCAN_STATUS, startTime: today, endTime: today } }),
    },
    {
      key: 'notArrived',
      label: H.card.notArrived(days),
      // What the list it opens lists: a row per member who recorded the parcel (decision 077); when
      // several recorded one, the hint says how many tracking ids those rows are.
      count: home?.notArrivedRecords,
      hint: home && home.notArrived < home.notArrivedRecords ? H.hint.notArrivedShared(home.notArrived) : H.hint.notArrived,
      // The parcels themselves, with age, carrier and member (decision 077).
      link: linkOptions({ to: '/admin/missing-parcels' }),
    },
    {
      // Unknown parcels (decision 169): the claims to take off the shelf, and how many still wait.
      key: 'parcelClaims',
      label: zh.unknown.homeCard(home?.parcelClaims.days ?? RECENT_CLAIM_DAYS),
      count: home?.parcelClaims.claimed,
      hint: zh.unknown.homeHint(home?.parcelClaims.unknown ?? 0),
      waiting: (home?.parcelClaims.unknown ?? 0) > 0,
      link: linkOptions({ to: '/admin/parcel-claims' }),
    },
    {
      key: 'appliesToAgree',
      label: H.card.appliesToAgree,
      count: home?.appliesToAgree,
      hint: H.hint.appliesToAgree,
      link: linkOptions({ to: '/admin/apply-list', search: { status: AWAITING_AGREE_PAYMENT_STATUS } }),
    },
  ];
  if (!withWithdrawals) return cards;
  const waiting = home?.withdrawalsWaiting;
  return [
    ...cards,
    {
      key: 'withdrawalsWaiting',
      label: H.card.withdrawalsWaiting,
      count: home === undefined ? undefined : (waiting?.count ?? 0),
      hint: H.hint.withdrawalsWaiting(formatMoney(waiting?.total ?? 0)),
      link: linkOptions({ to: '/admin/withdraw-list', search: { status: AWAITING_PAY_WITHDRAW_STATUS } }),
    },
    {
      key: 'requestedCancels',
      label: H.card.requestedCancels,
      count: home === undefined ? undefined : (home.requestedCancels ?? 0),
      hint: H.hint.requestedCancels,
      link: linkOptions({ to: '/admin/withdraw-list', search: { status: CANCEL_REQUESTED_WITHDRAW_STATUS } }),
    },
  ];
}

export function AdminHomePage(): JSX.Element {
  const { api } = useAppContext();
  const role = useSessionRole();
  const withWithdrawals = role !== null && ADMIN_ONLY_ROLES.includes(role);
  const today = formatDay(new Date());
  const load = useCallback(() => loadAdminHome(api, timezoneOffsetHours()), [api]);
  const remote = useRemote<ApiOutcome<AdminHome>>('admin-home', load);
  const outcome = remote.data;
  const home = outcome?.ok && !remote.loading ? outcome.data : undefined;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <PageHeader
        title={zh.titles.adminHome}
        description={H.today(today)}
        actions={
          <Button variant="secondary" loading={remote.loading} onClick={remote.reload}>
            {H.refresh}
          </Button>
        }
      />

      <section aria-labelledby="home-stations">
        <h2 id="home-stations" className="mb-3 text-sm font-semibold text-slate-500">
          {H.stations}
        </h2>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4">
          <StationLink to="/admin/scan" title={zh.nav['/admin/scan']} text={H.station.scan} glyph="▦" tone="bg-blue-600 hover:bg-blue-700" />
          <StationLink to="/admin/scan2" title={zh.nav['/admin/scan2']} text={H.station.scan2} glyph="▤" tone="bg-slate-800 hover:bg-slate-900" />
        </div>
      </section>

      <section aria-labelledby="home-waiting" aria-busy={remote.loading || undefined}>
        <h2 id="home-waiting" className="mb-3 text-sm font-semibold text-slate-500">
          {H.waiting}
        </h2>
        {outcome && !outcome.ok && !remote.loading ? (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-5 py-4 text-sm text-red-800"
          >
            <div>
              <p className="font-medium">{H.loadFailed}</p>
              <p className="mt-1">{outcome.code === null && !outcome.msg ? zh.common.networkError : errorText(outcome.code, outcome.msg)}</p>
            </div>
            <Button variant="secondary" onClick={remote.reload}>
              {H.retry}
            </Button>
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 xl:grid-cols-3">
            {countCards(home, today, withWithdrawals).map((card) => (
              <li key={card.key}>
                <CountLink card={card} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {home && home.contestedParcels > 0 ? <ContestedParcels mayAssign={role !== null && ADMIN_ONLY_ROLES.includes(role)} onAssigned={remote.reload} /> : null}
    </div>
  );
}

function CountLink({ card }: { card: CountCard }): JSX.Element {
  const zero = card.count === 0;
  return (
    <Link
      {...card.link}
      className="group flex h-full flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-blue-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500 sm:p-5"
    >
      <span className="text-sm font-medium text-slate-600">{card.label}</span>
      {card.count === undefined ? (
        <span aria-hidden="true" className="block h-10 w-16 animate-pulse rounded-md bg-slate-200" />
      ) : (
        <span data-zero={zero || undefined} className={`text-4xl leading-10 font-semibold tabular-nums ${zero ? 'text-slate-500' : 'text-slate-900'}`}>
          {card.count}
        </span>
      )}
      <span className="mt-auto flex items-end justify-between gap-2 text-xs">
        <span className="text-slate-500">{card.hint}</span>
        <span aria-hidden="true" className="shrink-0 font-medium text-blue-700 group-hover:underline">
          {zero && !card.waiting ? H.nothing : H.open} →
        </span>
      </span>
    </Link>
  );
}

function StationLink({
  to,
  title,
  text,
  glyph,
  tone,
}: {
  to: '/admin/scan' | '/admin/scan2';
  title: string;
  text: string;
  glyph: string;
  tone: string;
}): JSX.Element {
  return (
    <Link
      to={to}
      className={`flex items-center gap-4 rounded-xl px-5 py-4 text-white shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500 sm:py-5 ${tone}`}
    >
      <span aria-hidden="true" className="grid size-11 shrink-0 place-items-center rounded-lg bg-white/15 text-2xl">
        {glyph}
      </span>
      <span className="flex min-w-0 flex-col">
        <span className="text-lg font-semibold">{title}</span>
        <span className="text-sm text-blue-50">{text}</span>
      </span>
    </Link>
  );
}
