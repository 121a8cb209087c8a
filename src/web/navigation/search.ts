// Search-param schemas shared by route files. TanStack Router JSON-parses search values, so a value
// that looks like a number (an all-digit token, say) arrives as a number: these accept both and
// hand the page a string.
import * as v from 'valibot';

export const searchText = v.pipe(
  v.union([v.string(), v.number(), v.boolean()]),
  v.transform((value) => String(value)),
);

export const optionalSearchText = v.optional(searchText);

/** `?back=<path>`: where an edit page returns to (admin board task and task pages). */
export const backSearch = v.object({ back: optionalSearchText });
