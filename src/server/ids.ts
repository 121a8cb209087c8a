// Ids are PostgreSQL integer columns: 1..2147483647. The contract bounds every id it takes
// (openapi.yaml), and comma-joined id lists (uids, groupIds, taskIds, userIds: its IdList schema)
// arrive already checked id by id; parseIdList is the one parser of such a list.
import { badRequest } from './errors.ts';

export const MAX_ID = 2_147_483_647;
export const isDbId = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_ID;

/** The distinct ids of a comma-joined list, in their order; an id out of range is A00001 naming the field. */
export function parseIdList(csv: string, field: string): number[] {
  const ids = [...new Set(csv.split(',').map((s) => (/^[1-9][0-9]*$/.test(s) ? Number(s) : NaN)))];
  const bad = ids.find((id) => !isDbId(id));
  if (bad !== undefined) throw badRequest(`参数错误：字段 ${field} 应为逗号分隔的id（1至${MAX_ID}）`);
  return ids;
}
