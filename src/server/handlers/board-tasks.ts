// Handlers of this area, keyed by operationId (filled in by issue 3).
import type { Handlers } from './types.ts';

export const boardTasksHandlers: Handlers = {};
