// /user/home: what needs the member (decision 107), from one call (getMemberHome): the open boards
// published to them with the time left (live; a board leaves the list the moment it expires, it is
// never shown as open), the tasks waiting for tracking numbers, the parcels arrived since the last
// visit (kept in this browser, member-home-api.ts), the tasks whose records disagree with what
// arrived, what may be asked for payment now, the balance, the totals (member-totals.tsx) and a flag of
// the missing parcels (decision 077). Every item links to where it is dealt with: a board to its page,
// a task or parcel to /user/my-task filtered to it, the balance to the
// withdrawal page. The page loads its parts itself, so the title and sections stay while they load
// (skeletons), and a failed load is said in place of the sections with a retry.
import { Link, type LinkProps } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState, type JSX, type ReactNode } from 'react';
import { errorText } from '../../../api/client';
import type { ApiOutcome } from '../../../api/outcome';
import { isBoardExpired } from '../../../../machines/board.machine';
import { taskDisplayId } from '../../../../machines/task.machine';
import { Countdown, useNow } from '../../components/countdown';
import { useAppContext } from '../../app/app-context';
import { Button } from '../../components/ui/button';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { StatusBadge } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import { useRemote } from '../../lib/use-remote';
import { LIVE_REFRESH_DELAY_MS, useLiveEvents } from '../../live/use-live';
import { useSessionUser } from '../../session/use-session';
import {
  loadMemberHome,
  readLastVisit,
  writeLastVisit,
  type MemberHome,
  type MemberHomeBoard,
  type MemberHomeParcel,
  type MemberHomeTask,
} from './member-home-api';
import { MissingFlag } from './missing-flag';
import { MemberTotals } from './member-totals';

const H = zh.memberHome;

/**
 * The home each member was last shown, by app (its API client: one a tab, one a test's app): shown
 * again at once when the page is returned to, while it reloads.
 */
const lastShownByApp = new WeakMap<object, Map<number, Loaded>>();
const lastShownOf = (app: object) => {
  let shown = lastShownByApp.get(app);
  if (!shown) lastShownByApp.set(app, (shown = new Map()));
  return shown;
};

interface Loaded {
  outcome: ApiOutcome<MemberHome>;
  /** The server's clock less this browser's, so countdowns read the server's time. */
  offsetMs: number;
}

/**
 * The home's one call, reloaded on the member's live events once a burst settles. What was shown
 * stays while a reload runs (a live event, 刷新, a return to the page: lastShownOf): the parts would
 * otherwise fall back to their skeletons and grow again, moving what the member was about to click
 * (the missing-parcel flag, above the totals, pushed a tile from under a click).
 */
function useMemberHome(userId: number) {
  const { api } = useAppContext();
  // The last visit is read once: a refresh of this page still shows what arrived since then.
  const [since] = useState(() => readLastVisit(userId));
  const load = useCallback(async (): Promise<Loaded> => {
    const outcome = await loadMemberHome(api, since);
    if (outcome.ok) writeLastVisit(userId, outcome.data.now);
    return { outcome, offsetMs: outcome.ok ? outcome.data.now - Date.now() : 0 };
  }, [api, since, userId]);
  const lastShown = lastShownOf(api);
  const remote = useRemote<Loaded>(`member-home-${userId}`, load, lastShown.get(userId));
  useEffect(() => {
    if (remote.data?.outcome.ok) lastShown.set(userId, remote.data);
  }, [lastShown, remote.data, userId]);
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  useLiveEvents(['task', 'apply', 'withdraw'], () => {
    clearTimeout(pending.current);
    pending.current = setTimeout(remote.reload, LIVE_REFRESH_DELAY_MS);
  });
  return remote;
}

export function MemberHomePage(): JSX.Element {
  const user = useSessionUser();
  const remote = useMemberHome(user?.id ?? 0);
  const outcome = remote.data?.outcome;
  const home = outcome?.ok ? outcome.data : undefined;
  const offsetMs = remote.data?.offsetMs ?? 0;

  return (
    <div className="flex min-w-0 flex-col gap-5">
      <PageHeader
        title={zh.titles.userHome}
        description={H.intro}
        actions={
          <Button variant="secondary" loading={remote.loading} onClick={remote.reload}>
            {H.refresh}
          </Button>
        }
      />
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
        <div className="flex flex-col gap-5" aria-busy={remote.loading || undefined}>
          <MissingFlag home={home} />
          <MemberTotals totals={home?.totals} />
          <Summary home={home} />
          <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
            <OpenBoards home={home} offsetMs={offsetMs} />
            <TaskSection
              id="awaiting"
              title={H.awaiting}
              part={home?.awaitingTracking}
              empty={H.awaitingEmpty}
              detail={(task) => H.recorded(task.recorded, task.count)}
            />
            <Arrivals home={home} />
            <TaskSection
              id="disagreeing"
              title={H.disagreeing}
              part={home?.disagreeing}
              empty={H.disagreeingEmpty}
              tone="warning"
              detail={(task) => (
                <>
                  <span className="block">{H.arrivedOfRecorded(task.productCount, task.recorded)}</span>
                  {task.reason && <span className="block text-orange-800">{task.reason}</span>}
                  {task.trackingIds && <span className="block font-mono text-xs break-all text-slate-600">{task.trackingIds}</span>}
                </>
              )}
            />
          </div>
        </div>
      )}
    </div>
  );
}

// ---------------------------------------------------------------- parts

/** The money: the balance (to withdraw) and what may be asked for payment now, with the tasks. */
function Summary({ home }: { home: MemberHome | undefined }): JSX.Element {
  return (
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
      <section aria-labelledby="home-balance" className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <h2 id="home-balance" className="text-sm font-semibold text-slate-600">
          {H.balance}
        </h2>
        {home ? <p className="text-3xl font-semibold text-slate-900 tabular-nums">{formatMoney(home.balance)}</p> : <Bar className="h-9 w-32" />}
        <div className="mt-auto">
          <Link
            to="/user/withdraw-request"
            className="inline-flex h-9 items-center rounded-md bg-blue-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-blue-700"
          >
            {H.withdraw}
          </Link>
        </div>
      </section>
      <TaskSection
        id="payable"
        title={H.payable}
        part={home?.payable}
        empty={H.payableEmpty}
        tone="success"
        extra={home && home.payable.total > 0 ? H.payableTotal(formatMoney(home.payable.amount)) : undefined}
        detail={(task) => (
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-slate-900 tabular-nums">{formatMoney(task.amount)}</span>
            {task.partial && <StatusBadge tone="warning">{H.partial}</StatusBadge>}
          </span>
        )}
      />
    </div>
  );
}

function OpenBoards({ home, offsetMs }: { home: MemberHome | undefined; offsetMs: number }): JSX.Element {
  const now = useNow(1000, offsetMs);
  // A board whose deadline passes while the page is open leaves the list at once.
  const boards = home?.openBoards.items.filter((board) => !isBoardExpired(board, now));
  const expiredSince = (home?.openBoards.items.length ?? 0) - (boards?.length ?? 0);
  const hidden = home ? home.openBoards.total - home.openBoards.items.length : 0;
  return (
    <Section id="boards" title={H.boards} total={home ? home.openBoards.total - expiredSince : undefined}>
      {boards === undefined ? (
        <Skeleton />
      ) : boards.length === 0 ? (
        <Empty text={H.boardsEmpty} />
      ) : (
        <ItemList>
          {boards.map((board: MemberHomeBoard) => (
            <Item key={board.id} link={{ to: '/user/board/$uuid', params: { uuid: board.uuid } }} title={board.boardName} detail={board.remark}>
              <Countdown expireAt={board.expireAt} offsetMs={offsetMs} className="text-sm" />
            </Item>
          ))}
        </ItemList>
      )}
      {hidden > 0 && <MoreLink link={{ to: '/user/board-list' }} text={H.boardsAll(home!.openBoards.total)} />}
    </Section>
  );
}

function Arrivals({ home }: { home: MemberHome | undefined }): JSX.Element {
  const part = home?.arrived;
  return (
    <Section id="arrived" title={H.arrived} total={part?.total} extra={home ? H.arrivedSince(formatDateTime(home.since)) : undefined} tone="info">
      {part === undefined ? (
        <Skeleton />
      ) : part.items.length === 0 ? (
        <Empty text={H.arrivedEmpty} />
      ) : (
        <ItemList>
          {part.items.map((parcel: MemberHomeParcel) => (
            <Item
              key={parcel.id}
              link={{ to: '/user/my-task', search: { trackingId: parcel.trackingId } }}
              title={<span className="font-mono">{parcel.trackingId}</span>}
              detail={
                <>
                  {parcel.itemName || parcel.upc} · {H.parcelCount(parcel.count)} ·{' '}
                  {parcel.mainId != null && parcel.subId != null ? H.parcelTask(taskDisplayId({ mainId: parcel.mainId, subId: parcel.subId })) : H.parcelUntied}
                </>
              }
            >
              <StatusBadge tone={parcel.taskId == null ? 'warning' : 'success'}>{zh.status.scan[parcel.status]}</StatusBadge>
            </Item>
          ))}
        </ItemList>
      )}
      {part && part.total > part.items.length && <MoreLink link={{ to: '/user/my-task' }} text={H.more(part.total - part.items.length)} />}
    </Section>
  );
}

type Tone = 'neutral' | 'info' | 'success' | 'warning';

/** A part made of the member's tasks: each links to the task on /user/my-task. */
function TaskSection({
  id,
  title,
  part,
  empty,
  detail,
  extra,
  tone = 'neutral',
}: {
  id: string;
  title: string;
  part: { total: number; items: MemberHomeTask[] } | undefined;
  empty: string;
  detail: (task: MemberHomeTask) => ReactNode;
  extra?: ReactNode;
  tone?: Tone;
}): JSX.Element {
  return (
    <Section id={id} title={title} total={part?.total} extra={extra} tone={tone}>
      {part === undefined ? (
        <Skeleton />
      ) : part.items.length === 0 ? (
        <Empty text={empty} />
      ) : (
        <ItemList>
          {part.items.map((task) => (
            <Item
              key={task.id}
              link={{ to: '/user/my-task', search: { taskId: task.mainId } }}
              title={
                <>
                  <span className="mr-2 text-slate-500 tabular-nums">{H.task(taskDisplayId(task))}</span>
                  {task.itemName}
                </>
              }
              detail={detail(task)}
            />
          ))}
        </ItemList>
      )}
      {part && part.total > part.items.length && <MoreLink link={{ to: '/user/my-task' }} text={H.more(part.total - part.items.length)} />}
    </Section>
  );
}

// ---------------------------------------------------------------- pieces

const TONE_BAR: Record<Tone, string> = {
  neutral: 'border-t-slate-300',
  info: 'border-t-blue-500',
  success: 'border-t-green-600',
  warning: 'border-t-orange-500',
};

function Section({
  id,
  title,
  total,
  extra,
  tone = 'neutral',
  children,
}: {
  id: string;
  title: string;
  total: number | undefined;
  extra?: ReactNode;
  tone?: Tone;
  children: ReactNode;
}): JSX.Element {
  return (
    <section
      aria-labelledby={`home-${id}`}
      className={`flex min-w-0 flex-col rounded-xl border border-t-4 border-slate-200 bg-white shadow-sm ${TONE_BAR[tone]}`}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 px-4 py-3">
        <h2 id={`home-${id}`} className="flex items-baseline gap-2 text-base font-semibold text-slate-900">
          {title}
          {total !== undefined && (
            <span data-testid={`home-${id}-total`} className="rounded-full bg-slate-100 px-2 text-sm font-medium text-slate-700 tabular-nums">
              {total}
            </span>
          )}
        </h2>
        {extra && <span className="text-sm text-slate-600">{extra}</span>}
      </header>
      <div className="flex flex-1 flex-col">{children}</div>
    </section>
  );
}

function ItemList({ children }: { children: ReactNode }): JSX.Element {
  return <ul className="divide-y divide-slate-100">{children}</ul>;
}

function Item({ link, title, detail, children }: { link: LinkProps; title: ReactNode; detail?: ReactNode; children?: ReactNode }): JSX.Element {
  return (
    <li>
      <Link
        {...link}
        className="flex items-start justify-between gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500"
      >
        <span className="flex min-w-0 flex-col gap-0.5">
          <span className="font-medium break-words text-slate-900">{title}</span>
          {detail && <span className="text-sm text-slate-600">{detail}</span>}
        </span>
        <span className="flex shrink-0 items-center gap-2 pt-0.5">
          {children}
          <span aria-hidden="true" className="text-blue-600">
            {H.open} →
          </span>
        </span>
      </Link>
    </li>
  );
}

function MoreLink({ link, text }: { link: LinkProps; text: string }): JSX.Element {
  return (
    <Link {...link} className="mt-auto border-t border-slate-100 px-4 py-2.5 text-sm font-medium text-blue-600 hover:bg-slate-50">
      {text} →
    </Link>
  );
}

function Empty({ text }: { text: string }): JSX.Element {
  return <p className="px-4 py-6 text-sm text-slate-500">{text}</p>;
}

function Bar({ className }: { className: string }): JSX.Element {
  return <span aria-hidden="true" className={`block animate-pulse rounded-md bg-slate-200 ${className}`} />;
}

function Skeleton(): JSX.Element {
  return (
    <div aria-hidden="true" className="flex flex-col gap-3 px-4 py-4">
      <Bar className="h-4 w-3/4" />
      <Bar className="h-4 w-1/2" />
      <Bar className="h-4 w-2/3" />
    </div>
  );
}
