// The spreadsheet files the Excel uploads take (/user/upload, /admin/upload): .xlsx, .xls, .ods or
// .csv (decision 068), checked by name before anything is sent (the server reads what is inside,
// whatever the name), and its size shown to people.

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The file input's `accept`: the extensions and the .xlsx MIME type. */
export const SHEET_ACCEPT = `.xlsx,.xls,.ods,.csv,${XLSX_TYPE}`;

/** The file an upload may send: a spreadsheet the server reads. */
export function isSheetFile(file: Pick<File, 'name'>): boolean {
  return /\.(xlsx|xls|ods|csv)$/i.test(file.name);
}

/** A file size for people: 12 KB, 3.4 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
