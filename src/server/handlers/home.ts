// The admin home (getAdminHome; decision 052): the counts of what waits, in one call
// (src/server/admin-home.ts). Who may call it is the contract's x-roles; the withdraw counts are
// answered to whoever may open the withdraw list (listAdminWithdrawRequests' x-roles: admin, not
// lowerAdmin), read from the contract too, so the home never shows what its link would refuse.
import { adminHome } from '../admin-home.ts';
import { rolesOf } from '../contract.ts';
import { me, ok, type Handlers } from './types.ts';

export const homeHandlers: Handlers = {
  async getAdminHome(req, ctx) {
    const user = me(req);
    const withWithdrawals = rolesOf('listAdminWithdrawRequests').includes(user.roleType);
    return ok(await adminHome(ctx.db, { timezone: req.query.timezone ?? 0, withWithdrawals }));
  },
};
