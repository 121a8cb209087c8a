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

/** Saves the notice (and mails it to everyone when `isMail`); the saved text, or null when it failed (toasted by the client). */
export async function saveNotice(api: ApiClient, content: string, isMail: boolean): Promise<string | null> {
  const outcome = await outcomeOf(api.POST('/api/notice/save', { body: { content, isMail } }));
  return outcome.ok ? (outcome.data?.content ?? content) : null;
}
