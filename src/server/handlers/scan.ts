// The scan calls (SPEC §2 /admin/scan, /admin/scan2, /admin/tracking-list; §7 "GET
// /api/scan/admin/tracking/list ...; GET /api/scan/admin/tracking/{id}/list (response isExist,
// scanTrackingList); POST create, modify and add under /api/scan/admin/tracking/{id} (responses
// opStatus and scanTrackingList, or scanTracking for modify)"). Admin side only (x-roles lowerAdmin,
// admin). The rules live in receiving/scan-service.ts, the list in receiving/scan-queries.ts; these
// handlers choose the transaction (create and add: the scan batcher's, receiving/scan-batcher.ts)
// and shape the answers. A duplicate is a business outcome
// (A00000 with opStatus failed and the msg, which the client shows as an error toast, SPEC §8).
import { pageOf } from '../paging.ts';
import { pageScans, scanFilters } from '../receiving/scan-queries.ts';
import { addJob, checkTrackingId, createJob, modifyScan, scanOut, scanRowsOut, trackingOf, type ScanOutcome } from '../receiving/scan-service.ts';
import type { Db } from '../db/client.ts';
import { me, ok, type Handlers } from './types.ts';

// After the scan's transaction: the near misses of a parcel no member recorded are read then (decision 098).
const answer = async (db: Db, r: ScanOutcome) =>
  ok({ opStatus: r.opStatus, msg: r.msg, scanTrackingList: await scanRowsOut(db, r.trackingId, r.rows, r.upcs) }, r.msg);

export const scanHandlers: Handlers = {
  async listScanTrackings(req, ctx) {
    const p = pageOf(req.query);
    const f = scanFilters({ ...req.query, isDesc: p.isDesc });
    const { rows, totalPages, totalCapped } = await pageScans(ctx.db, f, p);
    return ok({ totalPages, totalCapped, size: p.size, content: rows.map((row) => scanOut(row)) });
  },

  async getScanTracking(req, ctx) {
    const trackingId = checkTrackingId(req.params.id);
    const { rows, upcs } = await trackingOf(ctx.db, trackingId);
    return ok({ isExist: rows.length > 0, scanTrackingList: await scanRowsOut(ctx.db, trackingId, rows, upcs) });
  },

  async createScanTrackings(req, ctx) {
    const user = me(req);
    return answer(ctx.db, await ctx.scans.submit(createJob(user, req.params.id, req.body.items)));
  },

  async addScanTracking(req, ctx) {
    const user = me(req);
    return answer(ctx.db, await ctx.scans.submit(addJob(user, req.params.id, req.body)));
  },

  async modifyScanTracking(req, ctx) {
    const user = me(req);
    // itemId null is a record without an item posted back as read: no change.
    const r = await ctx.db.transaction((tx) => modifyScan(tx, user, req.params.id, { ...req.body, itemId: req.body.itemId ?? undefined }));
    return ok({ opStatus: r.opStatus, msg: r.msg, scanTracking: scanOut(r.row) }, r.msg);
  },
};
