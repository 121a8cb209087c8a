// Missing parcels (decision 077): the member's own list and report (a note, lost or not), the
// admins' list of everybody's. Every rule and query is src/server/tasks/missing-parcels.ts; the days
// are the MISSING_PARCEL_DAYS setting (config.ts), so every list and count reads one number.
import { allMissingParcels, memberMissingParcels, reportMissingParcel } from '../tasks/missing-parcels.ts';
import { me, ok, type Handlers } from './types.ts';

export const missingHandlers: Handlers = {
  async listMyMissingParcels(req, ctx) {
    return ok(await memberMissingParcels(ctx.db, me(req).id, ctx.config.missingParcelDays, req.query));
  },

  async reportMissingParcel(req, ctx) {
    const user = me(req);
    const { parcel, msg } = await ctx.db.transaction((tx) => reportMissingParcel(tx, user, ctx.config.missingParcelDays, req.body));
    return ok(parcel, msg);
  },

  async listMissingParcels(req, ctx) {
    return ok(await allMissingParcels(ctx.db, ctx.config.missingParcelDays, req.query));
  },
};
