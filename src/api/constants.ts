// Fixed values of the contract that openapi.yaml states only in words: the generated types
// (schema.d.ts) carry types, not values. Both ends read them from here.

/**
 * SPEC §9 "The default board task address is a fixed code": what a board task's address is when
 * none is given (the server's column default and create fallback; the admin form's prefill).
 */
export const DEFAULT_BOARD_TASK_ADDRESS = 'DEFAULT';
