// Order amounts per member (/admin/task-amount-list; SPEC §7 GET
// /api/statistics/admin/task/amount/list): src/server/money/statistics.ts holds what is counted and
// how (its header). The Excel export of the same rows is in files.ts.
import { listTaskAmounts } from '../money/statistics.ts';
import { ok, type Handlers } from './types.ts';

export const statisticsHandlers: Handlers = {
  async listTaskAmounts(req, ctx) {
    return ok(await listTaskAmounts(ctx.db, req.query));
  },
};
