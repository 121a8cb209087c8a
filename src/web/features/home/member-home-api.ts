// The call behind the member home (getMemberHome: every part in one call) and the member's last
// visit, kept in this browser (localStorage, per member) and sent as `since`: the parcels seen after
// it are the new ones. Silent: the page says a failure in place of its parts; the session signals
// still flow. No answer is a failure too, not a rejection.
import type { ApiClient } from '../../../api/client';
import { anyResult, outcomeOf, type ApiOutcome } from '../../../api/outcome';
import type { components } from '../../../api/schema';

export type MemberHome = components['schemas']['MemberHome'];
export type MemberHomeTask = components['schemas']['MemberHomeTask'];
export type MemberHomeBoard = components['schemas']['MemberHomeBoard'];
export type MemberHomeParcel = components['schemas']['MemberHomeParcel'];

/** GET /api/home/user?since=: the member's home, or the failure (code and the server's words). */
export function loadMemberHome(api: ApiClient, since: number | undefined): Promise<ApiOutcome<MemberHome>> {
  return outcomeOf(api.GET('/api/home/user', { params: { query: since === undefined ? {} : { since } }, silent: true }), {
    succeeded: anyResult,
    noAnswer: 'fail',
  });
}

const lastVisitKey = (userId: number) => `home.lastVisit.${userId}`;

/** When member `userId` last opened their home in this browser (epoch ms), if ever. */
export function readLastVisit(userId: number): number | undefined {
  try {
    const value = Number(localStorage.getItem(lastVisitKey(userId)));
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers this visit (the server's time of it) for the next one. */
export function writeLastVisit(userId: number, at: number): void {
  try {
    localStorage.setItem(lastVisitKey(userId), String(at));
  } catch {
    // No storage: every visit counts the past days as new.
  }
}
