// The calls of /admin/task-amount-list (SPEC §2; §7 GET /api/statistics/admin/task/amount/list
// {page, size, isAsc, orderItem, userId, startTime, endTime, timezone}, response data, pageNumber;
// "Uploads and downloads": the task-amount export adds userIds comma-joined):
// - the list answers an empty page on failure (the client has shown why);
// - the export: a download token for kind task-amount (GET /api/download/excel/task-amount/token,
//   which keeps the dates and the timezone), then the plain link /ext/excel/task-amount/{token}
//   carrying the list's filters and, when rows are selected, their userIds (DECISIONS "Files").
import { excelExportUrl } from '../../lib/excel-export';
import type { ApiClient } from '../../../api/client';
import { outcomeOf } from '../../../api/outcome';
import type { components, operations } from '../../../api/schema';
import type { PageResult } from '../../components/ui/paged-table';

export type TaskAmount = components['schemas']['TaskAmount'];
export type AppUser = components['schemas']['User'];

type Paged = { page: number; size: number };
export type TaskAmountQuery = NonNullable<operations['listTaskAmounts']['parameters']['query']> & Paged;
/** The list's filters without paging, with the timezone: what the export reads. */
export type TaskAmountFilters = Omit<TaskAmountQuery, 'page' | 'size'>;

const EMPTY_PAGE: PageResult<TaskAmount> = { content: [], totalPages: 0 };

/** One page of amounts per member, as the tables take it (data -> content, pageNumber -> totalPages). */
export async function loadTaskAmounts(api: ApiClient, query: TaskAmountQuery): Promise<PageResult<TaskAmount>> {
  const outcome = await outcomeOf(api.GET('/api/statistics/admin/task/amount/list', { params: { query } }));
  const page = outcome.ok ? outcome.data : undefined;
  return page ? { content: page.data, totalPages: page.pageNumber } : EMPTY_PAGE;
}

/**
 * The Excel export of the amounts: a token for kind task-amount issued for the dates and timezone,
 * then /ext/excel/task-amount/{token}?userIds=...&<filters>. Null when no token came (the client
 * has shown why).
 */
export async function taskAmountExcelUrl(api: ApiClient, filters: TaskAmountFilters, userIds: readonly number[]): Promise<string | null> {
  const { startTime, endTime, timezone } = filters;
  return excelExportUrl(api, 'task-amount', { startTime, endTime, timezone }, { ...(userIds.length > 0 ? { userIds: userIds.join(',') } : {}), ...filters });
}
