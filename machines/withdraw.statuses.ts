// The withdraw line statuses (SPEC §4 "Withdraw status"), the states of machines/withdraw.machine.ts.
// Apart from the machine so that a screen can read them without loading the machine and xstate: the
// web's route search schemas check a status in the address, and they load with the first page, the
// login page included (docs/decisions/130). The machine file re-exports them; import from there
// unless that first load matters.

export const WITHDRAW_STATUSES = ['canceled', 'waited', 'paid', 'requestedCancel'] as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];
/** A line waiting to be paid: the admin home's withdrawals, the payment file and bulk pay take these. */
export const AWAITING_PAY_WITHDRAW_STATUS = 'waited' satisfies WithdrawStatus;
