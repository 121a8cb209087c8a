// Payment applications and the member's balance (SPEC §7 "Payments"; DECISIONS "Money", "Roles"):
// thin handlers over src/server/money/payment-service.ts, whose header holds the decisions. Roles
// come from x-roles in openapi.yaml (enforced by app.ts); the data rules (a member's own rows only)
// are the service's.
import { fromCents } from '../money/cents.ts';
import {
  agreeToPayment,
  applyForArrived,
  applyForPayment,
  balanceCents,
  collectPayment,
  confirmPaid,
  listApplications,
  withdrawableApplications,
} from '../money/payment-service.ts';
import { me, ok, type Handlers } from './types.ts';

export const paymentsHandlers: Handlers = {
  async listPaymentApplies(req, ctx) {
    return ok(await listApplications(ctx.db, me(req), req.query));
  },

  async applyPayment(req, ctx) {
    const result = await applyForPayment(ctx.db, me(req), req.body);
    return ok(result, result.msg);
  },

  async applyPaymentForArrived(req, ctx) {
    const result = await applyForArrived(ctx.db, me(req), req.body);
    return ok(result, result.msg);
  },

  async agreePayment(req, ctx) {
    const result = await agreeToPayment(ctx.db, me(req), req.body);
    return ok(result, result.msg);
  },

  async confirmPayment(req, ctx) {
    const result = await confirmPaid(ctx.db, me(req), req.body.paymentApplyId);
    return ok(result, result.msg);
  },

  async confirmCollect(req, ctx) {
    const result = await collectPayment(ctx.db, me(req), req.body.paymentApplyId);
    return ok(result, result.msg);
  },

  async listWithdrawableApplies(req, ctx) {
    return ok({ paymentApplies: await withdrawableApplications(ctx.db, me(req).id) });
  },

  async getUserBalance(req, ctx) {
    return ok({ balance: fromCents(await balanceCents(ctx.db, me(req).id)) });
  },
};
