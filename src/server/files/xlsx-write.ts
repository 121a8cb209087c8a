// Workbooks the server hands out (templates and exports). Only xlsx's write path is used here,
// which the read-path advisories do not touch. Text is written as typed string cells,
// never as formulas, so a value such as "=HYPERLINK(...)" stays text in Excel (no formula
// injection); files are compressed (xlsx does not compress unless asked). Most server processes never
// write a workbook: xlsx is loaded with the first one, as its mini build (xlsx alone, as the sheet
// worker reads it; docs/performance.md).
import { createRequire } from 'node:module';
import type * as XLSX from 'xlsx';

const load = createRequire(import.meta.url);
let loaded: typeof XLSX | undefined;
const xlsx = (): typeof XLSX => (loaded ??= load('xlsx/dist/xlsx.mini.min.js') as typeof XLSX);

export type OutCell = string | number | boolean | null | undefined;

export interface SheetSpec {
  name: string;
  header: readonly string[];
  rows: readonly (readonly OutCell[])[];
  /** Column widths in characters. */
  widths?: readonly number[];
  /**
   * Columns formatted as text ('@'), including `blankTextRows` empty rows below the data, so what
   * a user types there (a 22-digit tracking id, a task id such as 12-1) is kept as typed instead of
   * becoming a rounded number or a date.
   */
  textColumns?: readonly number[];
  blankTextRows?: number;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function cellOf(v: OutCell, text: boolean): XLSX.CellObject | undefined {
  if (v === null || v === undefined) return text ? { t: 's', v: '', z: '@' } : undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? { t: 'n', v } : undefined;
  if (typeof v === 'boolean') return { t: 'b', v };
  return text ? { t: 's', v, z: '@' } : { t: 's', v };
}

function sheetOf(spec: SheetSpec): XLSX.WorkSheet {
  const { utils } = xlsx();
  const ws: XLSX.WorkSheet = {};
  const text = new Set(spec.textColumns ?? []);
  const width = spec.header.length;
  spec.header.forEach((h, c) => {
    ws[utils.encode_cell({ r: 0, c })] = { t: 's', v: h };
  });
  const lastRow = spec.rows.length + (text.size ? (spec.blankTextRows ?? 0) : 0);
  for (let r = 1; r <= lastRow; r++) {
    const row = spec.rows[r - 1];
    for (let c = 0; c < width; c++) {
      const cell = cellOf(row?.[c], text.has(c));
      if (cell) ws[utils.encode_cell({ r, c })] = cell;
    }
  }
  ws['!ref'] = utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(lastRow, 0), c: Math.max(width - 1, 0) } });
  if (spec.widths) ws['!cols'] = spec.widths.map((wch) => ({ wch }));
  return ws;
}

/** An .xlsx file of the given sheets, in order. */
export function writeWorkbook(sheets: readonly SheetSpec[]): Buffer {
  const { utils, write } = xlsx();
  const wb = utils.book_new();
  for (const spec of sheets) utils.book_append_sheet(wb, sheetOf(spec), spec.name);
  return write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
