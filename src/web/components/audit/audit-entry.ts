// How an audit entry reads in either log (/admin/task-audit, /admin/tracking-audit): the task it is
// about, who did it, what it is about and what happened.
import type { components } from '../../../api/schema';
import { zh } from '../../i18n/zh';
import { taskDisplayId } from '../../../../machines/task.machine';

type AuditEntry = components['schemas']['AuditEntry'];

const t = zh.audit;

/** mainId, plus '-subId' when subId is not 0 (SPEC §2); '' for an entry about no task. */
export function auditTaskLabel(entry: Pick<AuditEntry, 'mainId' | 'subId'>): string {
  if (entry.mainId === null || entry.mainId === undefined) return '';
  return taskDisplayId({ mainId: entry.mainId, subId: entry.subId ?? 0 });
}

/** Who did it: nickName and id; '系统' when nobody did (matching run by the system). */
export function auditOperatorLabel(entry: Pick<AuditEntry, 'opUid' | 'opName'>): string {
  if (entry.opUid === null || entry.opUid === undefined) return t.system;
  return entry.opName ? `${entry.opName}（#${entry.opUid}）` : `#${entry.opUid}`;
}

/** A known action in Chinese; others as the server wrote them. */
export const auditActionLabel = (action: string): string => (Object.hasOwn(t.action, action) ? t.action[action]! : action);

export const auditEntityLabel = (entity: AuditEntry['entity']): string => t.entity[entity] ?? entity;
