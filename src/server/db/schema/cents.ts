// Every money column: integer cents as a 64-bit bigint, read as a JavaScript number. The contract
// lets one amount reach 99,999,999.99 (9,999,999,999 cents, past int4's 2,147,483,647) and an
// income is buyIn x count on top; the server bounds every stored amount and total below
// Number.MAX_SAFE_INTEGER (src/server/money/cents.ts), so mode 'number' reads each value exactly.
import { bigint } from 'drizzle-orm/pg-core';

export const cents = (name: string) => bigint(name, { mode: 'number' });
