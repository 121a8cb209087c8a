import type { JSX } from 'react';
import type { RoleType } from '../../../../machines/session.machine';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';

const ROLE_TONE: Record<RoleType, BadgeTone> = { admin: 'danger', lowerAdmin: 'warning', user: 'neutral' };

/** A user's role as a coloured label (管理员 / 次级管理员 / 普通用户). */
export function RoleBadge({ role }: { role: RoleType }): JSX.Element {
  return <StatusBadge tone={ROLE_TONE[role]}>{zh.roles[role] ?? role}</StatusBadge>;
}
