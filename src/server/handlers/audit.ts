// The two audit screens' calls (SPEC §2 /admin/task-audit "user log", /admin/tracking-audit "admin
// log", with its payout view, decision 168): their pages are read by src/server/audit-pages.ts.
import { listPayoutAudits, listTaskAudits, listTrackingAudits } from '../audit-pages.ts';
import { ok, type Handlers } from './types.ts';

export const auditHandlers: Handlers = {
  async listTaskAudits(req, ctx) {
    return ok(await listTaskAudits(ctx.db, req.query));
  },

  async listTrackingAudits(req, ctx) {
    return ok(await listTrackingAudits(ctx.db, req.query));
  },

  async listPayoutAudits(req, ctx) {
    return ok(await listPayoutAudits(ctx.db, req.query));
  },
};
