// The wait before a screen reloads a status it just changed (a claim, a task action, a payment application).

/** SPEC §9 "status reloads use a 10 ms delay". */
export const STATUS_RELOAD_DELAY_MS = 10;
