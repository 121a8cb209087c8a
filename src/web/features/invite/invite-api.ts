// The invitation call (SPEC §2, §7): the addresses go as a form field `mails`, comma-joined; the
// answer is one row per address {mail, sendStatus, msg}.
import { FORM_URLENCODED, type ApiClient } from '../../../api/client';
import { outcomeOf } from '../../../api/outcome';
import type { components } from '../../../api/schema';

export type InviteResult = components['schemas']['InviteResult'];

/** Invites each address; one row per address, or null when the call failed (toasted by the client). */
export async function inviteMails(api: ApiClient, mails: string[]): Promise<InviteResult[] | null> {
  const outcome = await outcomeOf(api.POST('/api/admin/invite', { body: { mails: mails.join(',') }, headers: FORM_URLENCODED }));
  return outcome.ok ? (outcome.data ?? []) : null;
}
