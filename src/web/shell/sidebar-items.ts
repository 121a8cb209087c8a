// The sidebar per role: SPEC §2 "Sidebar by role" (order included), plus each side's home first (what
// waits for the admin side, what needs the member; where `/` leads them) and the two scan stations
// after the tracking list (a clerk reaches them from the menu, not only through the tracking list's
// buttons), the missing parcels after the tasks (decision 077), and the unknown parcels: the admins'
// claim list after them, the members' list to claim from after their tasks (decision 169).
import type { RoleType } from '../../../machines/session.machine';
import { zhApp as zh } from '../i18n/zh-app';

export type SidebarPath = keyof typeof zh.nav;

export interface SidebarItem {
  to: SidebarPath;
  label: string;
}

const ADMIN_PATHS: readonly SidebarPath[] = [
  '/admin/home',
  '/admin/group-list',
  '/admin/user-list',
  '/admin/item-list',
  '/admin/board-list',
  '/admin/tracking-list',
  '/admin/scan',
  '/admin/scan2',
  '/admin/tasks',
  '/admin/missing-parcels',
  '/admin/parcel-claims',
  '/admin/apply-list',
  '/admin/withdraw-list',
  '/admin/task-amount-list',
  '/admin/tracking-audit',
  '/admin/task-audit',
  '/admin/invite',
  '/me',
];

/** lowerAdmin: the admin list without the withdraw list (DECISIONS: no /api/withdraw/admin/*). */
const LOWER_ADMIN_PATHS: readonly SidebarPath[] = ADMIN_PATHS.filter((path) => path !== '/admin/withdraw-list');

const USER_PATHS: readonly SidebarPath[] = [
  '/user/home',
  '/user/board-list',
  '/user/my-task',
  '/user/unknown-parcels',
  '/user/apply-list',
  '/user/upload',
  '/user/bank-card',
  '/user/withdraw-request',
  '/me',
];

const PATHS_BY_ROLE: Record<RoleType, readonly SidebarPath[]> = {
  admin: ADMIN_PATHS,
  lowerAdmin: LOWER_ADMIN_PATHS,
  user: USER_PATHS,
};

export function sidebarFor(role: RoleType | null): SidebarItem[] {
  if (!role) return [];
  return PATHS_BY_ROLE[role].map((to) => ({ to, label: zh.nav[to] }));
}
