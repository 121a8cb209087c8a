// Which rows of an upload's result need a look (SPEC §3 "Upload result row"; decision 172): an
// error, a skip, or a success whose message carries a warning joined after '；' (a tracking id that
// Excel stored as a number, a UPC's check digit, parcels near an unrecorded tracking id). The others
// are fine. The server answers a large file's rows that need attention and pages its fine ones
// (src/server/files/upload-rows.ts); the result table shows the rows that need attention first
// (src/web/components/upload-result-table.tsx).

/** What joins a warning to a row's message: '导入成功；…'. */
export const WARNING_JOIN = '；';

export type UploadRowOutcome = 'succ' | 'skip' | 'error';

/** Whether the user should look at this row: not a plain success. */
export const needsAttention = (row: { opStatus: UploadRowOutcome; msg?: string | null }): boolean =>
  row.opStatus !== 'succ' || (row.msg ?? '').includes(WARNING_JOIN);
