// Who may give which role on /admin/user-list (DECISIONS "Roles"; openapi AdminUserUpdateRequest):
// an admin may set any role on anyone; a lowerAdmin can neither make anyone an admin nor change an
// admin; nobody changes their own role. The server refuses the same (updateAdminUser, with A00003,
// which sends the caller home), so the UI keeps the refused choices out of reach.
import type { RoleType } from '../../../../machines/session.machine';

export const ROLE_TYPES: readonly RoleType[] = ['admin', 'lowerAdmin', 'user'];

/** The roles `viewer` may give to someone. */
export function assignableRoles(viewer: RoleType | null): RoleType[] {
  if (viewer === 'admin') return [...ROLE_TYPES];
  if (viewer === 'lowerAdmin') return ROLE_TYPES.filter((role) => role !== 'admin');
  return [];
}

/** Whether `viewer` may edit a user whose role is `target`. */
export function canEditUser(viewer: RoleType | null, target: RoleType): boolean {
  if (viewer === 'admin') return true;
  if (viewer === 'lowerAdmin') return target !== 'admin';
  return false;
}

/** Whether `viewerId` may change the role of user `targetId` (nobody changes their own). */
export function canChangeRole(viewerId: number | null, targetId: number): boolean {
  return viewerId !== targetId;
}
