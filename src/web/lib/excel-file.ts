// The spreadsheet files the Excel uploads take (/user/upload, /admin/upload): an .xlsx, checked by
// name before anything is sent (the server checks what is inside), and its size shown to people.

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The file input's `accept`: the extension and the MIME type. */
export const XLSX_ACCEPT = `.xlsx,${XLSX_TYPE}`;

/** The file an upload may send: an .xlsx. */
export function isXlsx(file: Pick<File, 'name'>): boolean {
  return /\.xlsx$/i.test(file.name);
}

/** A file size for people: 12 KB, 3.4 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
