// Handlers of this area, keyed by operationId (filled in by issue 4).
import type { Handlers } from './types.ts';

export const purchasedHandlers: Handlers = {};
