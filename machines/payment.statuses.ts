// The payment application statuses (SPEC §4 "Payment application status"), the states of
// machines/payment.machine.ts.
// Apart from the machine so that a screen can read them without loading the machine and xstate: the
// web's route search schemas check a status in the address, and they load with the first page, the
// login page included (docs/decisions/130). The machine file re-exports them; import from there
// unless that first load matters.

export const PAYMENT_STATUSES = ['applied', 'agreed', 'withdrawing', 'paid', 'collected'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
