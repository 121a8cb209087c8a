// The homes: what waits for each role, in one call. The admin home (getAdminHome; decision 052) is
// counts (src/server/home/admin-home.ts); who may call it is the contract's x-roles, and the withdraw
// counts are answered to whoever may open the withdraw list (listAdminWithdrawRequests' x-roles:
// admin, not lowerAdmin), read from the contract too, so the home never shows what its link would
// refuse. The member home (getMemberHome; decision 107) is the member's own lists
// (src/server/home/member-home.ts), read in one read-only snapshot.
import { adminHome } from '../home/admin-home.ts';
import { memberHome } from '../home/member-home.ts';
import { rolesOf } from '../contract.ts';
import { me, ok, type Handlers } from './types.ts';

export const homeHandlers: Handlers = {
  async getAdminHome(req, ctx) {
    const user = me(req);
    const withWithdrawals = rolesOf('listAdminWithdrawRequests').includes(user.roleType);
    return ok(await adminHome(ctx.db, { timezone: req.query.timezone ?? 0, withWithdrawals, missingDays: ctx.config.missingParcelDays }));
  },

  async getMemberHome(req, ctx) {
    const userId = me(req).id;
    const since = req.query.since;
    return ok(
      await ctx.db.transaction((tx) => memberHome(tx, { userId, since, missingDays: ctx.config.missingParcelDays }), {
        isolationLevel: 'repeatable read',
        accessMode: 'read only',
      }),
    );
  },
};
