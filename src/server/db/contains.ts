// A "contains" filter typed by a user (the lists' name, mail and keyword boxes): case-insensitive, and
// %, _ and \ typed by the user match themselves (PostgreSQL's LIKE escape is \ by default), so a
// search for "50%" finds "50%" and not every name with "50". The one LIKE pattern of the server.
import { ilike, type AnyColumn, type SQL } from 'drizzle-orm';

/** The ILIKE pattern that finds `text` anywhere, its wildcards escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column ILIKE '%text%'`, the text's wildcards escaped. */
export const containsText = (column: AnyColumn, text: string): SQL => ilike(column, containsPattern(text));
