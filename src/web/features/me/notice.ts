// The site-wide notice (SPEC §3 Notice, §7): everybody reads it; lowerAdmin and admin save it,
// optionally mass-mailing it (isMail).
import type { ApiClient } from '../../../api/client';
import { outcomeOf } from '../../../api/outcome';
import type { RoleType } from '../../../../machines/session.machine';

/** Who may edit the notice (the server enforces the same through x-roles on saveNotice). */
export function canEditNotice(role: RoleType | null): boolean {
  return role === 'admin' || role === 'lowerAdmin';
}

export async function loadNotice(api: ApiClient): Promise<string> {
  const outcome = await outcomeOf(api.GET('/api/notice/get'));
  return outcome.ok ? (outcome.data?.content ?? '') : '';
}
