// Timing of the member's board screens.

/** SPEC §9 "status reloads use a 10 ms delay": the wait before reloading after a claim. */
export const STATUS_RELOAD_DELAY_MS = 10;
