// Every user (GET /api/user/list), the one call of the admin screens that name users or filter by
// them: boards (publish to users), people (the group page's picker), tasks, tracking, payments,
// withdrawals and the task amounts. Here, not in a feature, because features do not import each other.
import type { ApiClient } from '../../api/client';
import { outcomeOf } from '../../api/outcome';
import type { components } from '../../api/schema';

export type AppUser = components['schemas']['User'];

/** Every user; empty when the call failed (the client has already toasted why). */
export async function loadAllUsers(api: ApiClient): Promise<AppUser[]> {
  const outcome = await outcomeOf(api.GET('/api/user/list'));
  return outcome.ok ? (outcome.data ?? []) : [];
}
