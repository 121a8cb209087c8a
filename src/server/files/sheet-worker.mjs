// The one place an uploaded spreadsheet is parsed. It runs in a worker_thread of its own, started
// for one file and ended with it (parse-sheet.ts), with a small heap and a wall-clock timeout,
// because xlsx 0.18.5 has unpatched advisories on its read path (prototype pollution
// GHSA-4r6h-8v6p-xvw6, ReDoS GHSA-5pgg-2g8v-p4x9): whatever a crafted file does to this
// thread's objects dies with the thread, and a parse that loops or grows is cut off.
// Plain JavaScript on purpose: a worker does not inherit the TypeScript loader of tsx or vitest,
// and this file must run as it is under both. Its input and answer: parse().
import { Buffer } from 'node:buffer';
import { TextDecoder, TextEncoder } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
// A reader per format (docs/decisions/068-spreadsheets-as-offices-send-them.md):
// - .xlsx: xlsx's mini build (the Office Open XML reader only), after checkZip has walked and capped
//   the ZIP container; loading the full build was most of a worker's start (docs/performance.md).
// - .ods (a ZIP as well, checked the same way) and .xls (a compound file, WPS and older Excel): the
//   full build, loaded only for them (~1 s more of the worker's start on this machine).
// - .csv: never given to xlsx; read here (UTF-8 by BOM or validity, else GB18030, which Chinese Excel
//   and WPS write), every cell text, so an id keeps its leading zeros.
// Whatever the format, the worker's heap, the wall clock and the row and column caps hold; the row
// cap also ends the reading of an .xlsx or CSV file once its rows are past it (parse(), decision 172).
import XLSX from 'xlsx/dist/xlsx.mini.min.js';

class Refusal extends Error {
  /** @param {string} reason */
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

const u16 = (b, o) => b[o] | (b[o + 1] << 8);
const u32 = (b, o) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 0x1000000;

/**
 * A worksheet part's last row number, read from its XML without parsing it: rows come in ascending
 * order (ECMA-376 18.3.1.73), so the last <row> element's r attribute names it; without r attributes
 * the rows are numbered by their order, so it is their count. Namespace-prefixed row elements are not
 * looked into: Infinity (the sheet is then read whole, as before the row cap read less).
 * @param {Buffer} xml
 */
function lastRowNumber(xml) {
  if (xml.includes(':row ') || xml.includes(':row>')) return Infinity;
  const at = Math.max(xml.lastIndexOf('<row '), xml.lastIndexOf('<row>'));
  if (at < 0) return 0;
  const end = xml.indexOf('>', at);
  const r = /\sr\s*=\s*["'](\d{1,9})["']/.exec(xml.subarray(at, end < 0 ? xml.length : end).toString('latin1'));
  if (r) return Number(r[1]);
  let count = 0;
  for (const tag of ['<row ', '<row>']) for (let i = xml.indexOf(tag); i >= 0; i = xml.indexOf(tag, i + 4)) count++;
  return count;
}

/**
 * A worksheet's XML without its rows numbered above `limit` (rows come in ascending order): the text
 * up to the first such <row>, then from </sheetData> on (merged cells and the rest). Unchanged when
 * it has none, or rows this does not read (namespace-prefixed).
 * @param {Buffer} xml
 * @param {number} limit
 */
function cutRows(xml, limit) {
  if (xml.includes(':row ') || xml.includes(':row>')) return xml;
  let count = 0;
  const rows = rowStarts(xml);
  for (let at = rows.next(); at >= 0; at = rows.next()) {
    count++;
    const end = xml.indexOf('>', at);
    const r = /\sr\s*=\s*["'](\d{1,9})["']/.exec(xml.subarray(at, end < 0 ? xml.length : end).toString('latin1'));
    if ((r ? Number(r[1]) : count) <= limit) continue;
    const tail = xml.lastIndexOf('</sheetData>');
    return tail < at ? xml : Buffer.concat([xml.subarray(0, at), xml.subarray(tail)]);
  }
  return xml;
}

/** The starts of the <row> elements of `xml` in order (not <rowBreaks>), each search going on from the last. */
function rowStarts(xml) {
  let spaced = xml.indexOf('<row ');
  let bare = xml.indexOf('<row>');
  return {
    next() {
      if (spaced < 0 && bare < 0) return -1;
      if (bare < 0 || (spaced >= 0 && spaced < bare)) {
        const at = spaced;
        spaced = xml.indexOf('<row ', at + 5);
        return at;
      }
      const at = bare;
      bare = xml.indexOf('<row>', at + 5);
      return at;
    },
  };
}

/**
 * A ZIP of `parts` stored (not compressed) - what xlsx reads in place of the upload once its
 * worksheets are cut short (readWorkbook): nothing here is inflated again, and xlsx never holds the
 * rows past the cut as text.
 * @param {{ rawName: Buffer, data: Buffer }[]} parts
 */
function storedZip(parts) {
  const local = [];
  const central = [];
  let offset = 0;
  for (const { rawName, data } of parts) {
    const crc = zlib.crc32(data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(data.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(rawName.length, 26);
    local.push(head, rawName, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(rawName.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, rawName);
    offset += 30 + rawName.length + data.length;
  }
  const size = central.reduce((n, x) => n + x.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}

/**
 * Walks the ZIP container exactly the way xlsx's reader does (end-of-central-directory found by
 * scanning back for its signature, entry count and offset from it, each entry's data from its
 * local header, deflate streams read to their end) and inflates every entry with a hard output
 * cap. xlsx inflates every entry itself, trusting the sizes the file declares (it allocates a
 * buffer of the declared size) or growing without bound when none is declared; those buffers live
 * outside the worker's heap limit, so a zip bomb would otherwise take the whole process's memory.
 * Only Office Open XML workbooks ([Content_Types].xml and xl/workbook.xml) and OpenDocument
 * spreadsheets (content.xml and META-INF/manifest.xml) pass, named by what is returned; none of the
 * markers that send xlsx to its Numbers readers.
 * @param {Buffer} b
 * @param {{ maxUnzippedBytes: number, maxZipEntries: number }} limits
 */
function checkZip(b, limits) {
  if (b.length < 22 || b[0] !== 0x50 || b[1] !== 0x4b || b[2] !== 0x03 || b[3] !== 0x04) throw new Refusal('not-xlsx');
  let eocd = b.length - 4;
  while (eocd >= 0 && !(b[eocd] === 0x50 && b[eocd + 1] === 0x4b && b[eocd + 2] === 0x05 && b[eocd + 3] === 0x06)) --eocd;
  if (eocd < 0 || eocd + 22 > b.length) throw new Refusal('unreadable');
  const count = u16(b, eocd + 8);
  let cd = u32(b, eocd + 16);
  if (count === 0) throw new Refusal('unreadable');
  if (count > limits.maxZipEntries) throw new Refusal('too-big');
  const names = new Set();
  let total = 0;
  // The last row number of any worksheet (the row cap reads no further than it needs: parse()), and
  // every part inflated (kept until readWorkbook knows whether a worksheet is cut short).
  let lastRow = 0;
  const parts = [];
  for (let i = 0; i < count; i++) {
    if (cd + 46 > b.length) throw new Refusal('unreadable');
    const nameLen = u16(b, cd + 28);
    const extraLen = u16(b, cd + 30);
    const commentLen = u16(b, cd + 32);
    const local = u32(b, cd + 42);
    cd += 46 + nameLen + extraLen + commentLen;
    if (local + 30 > b.length || u32(b, local) !== 0x04034b50) throw new Refusal('unreadable');
    const flags = u16(b, local + 6);
    const method = u16(b, local + 8);
    const csz = u32(b, local + 18);
    const usz = u32(b, local + 22);
    const lNameLen = u16(b, local + 26);
    const lExtraLen = u16(b, local + 28);
    const start = local + 30 + lNameLen + lExtraLen;
    if (start > b.length) throw new Refusal('unreadable');
    if (flags & 0x2041) throw new Refusal('unreadable'); // encrypted: xlsx refuses it too
    const name = b
      .subarray(local + 30, local + 30 + lNameLen)
      .toString('latin1')
      .replace(/^\//, '')
      .toLowerCase();
    names.add(name);
    // A declared size above the budget is refused before anything is allocated for it.
    if (usz > limits.maxUnzippedBytes - total) throw new Refusal('too-big');
    let part;
    if (method === 0) {
      if (start + csz > b.length) throw new Refusal('unreadable');
      part = b.subarray(start, start + csz);
    } else if (method === 8) {
      try {
        part = zlib.inflateRawSync(b.subarray(start), { maxOutputLength: Math.max(1, limits.maxUnzippedBytes - total) });
      } catch (err) {
        throw new Refusal(err && err.code === 'ERR_BUFFER_TOO_LARGE' ? 'too-big' : 'unreadable');
      }
    } else {
      throw new Refusal('unreadable');
    }
    const size = part.length;
    const worksheet = /^xl\/worksheets\/[^/]+\.xml$/.test(name);
    if (worksheet) lastRow = Math.max(lastRow, lastRowNumber(part));
    parts.push({ rawName: b.subarray(local + 30, local + 30 + lNameLen), worksheet, data: part });
    total += Math.max(size, usz);
    if (total > limits.maxUnzippedBytes) throw new Refusal('too-big');
  }
  // Numbers and older markers that would send xlsx to readers this worker does not offer.
  for (const marker of ['objectdata.xml', 'index/document.iwa', 'index.xml', 'index.xml.gz']) {
    if (names.has(marker)) throw new Refusal('not-xlsx');
  }
  if (names.has('[content_types].xml') && names.has('xl/workbook.xml') && !names.has('meta-inf/manifest.xml')) return { kind: 'xlsx', lastRow, parts };
  if (names.has('content.xml') && names.has('meta-inf/manifest.xml') && !names.has('xl/workbook.xml')) return { kind: 'ods', lastRow: Infinity, parts };
  throw new Refusal('not-xlsx');
}

/** A cell as a primitive: text, number, boolean or null (errors, stubs and anything else); a CSV cell is its text already. */
function cellValue(cell) {
  if (typeof cell === 'string') return cell;
  if (cell === null || typeof cell !== 'object') return null;
  const v = cell.v;
  switch (cell.t) {
    case 's':
    case 'str':
      return typeof v === 'string' ? v : v == null ? null : String(v);
    case 'n':
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    case 'b':
      return typeof v === 'boolean' ? v : null;
    case 'd':
      return v instanceof Date && !Number.isNaN(v.getTime()) ? dateText(v) : null;
    default:
      return null;
  }
}

/** xlsx's own epoch for serial numbers, in this thread's time zone (xlsx's datenum). */
const SERIAL_BASE = new Date(1899, 11, 30, 0, 0, 0);

/**
 * A date cell as the day it shows, YYYY-MM-DD. xlsx built the Date from the serial number in this
 * thread's time zone, whose offset in 1899 is not today's (Shanghai's was +8:05:43): the serial is
 * taken back the way xlsx's datenum does, and its day counted in UTC, where no offset moves it.
 */
function dateText(d) {
  const base = SERIAL_BASE.getTime() + (d.getTimezoneOffset() - SERIAL_BASE.getTimezoneOffset()) * 60_000;
  const days = Math.floor((d.getTime() - base) / 86_400_000 + 1e-6);
  const t = new Date(Date.UTC(1899, 11, 30) + days * 86_400_000);
  const p = (n) => String(n).padStart(2, '0');
  return `${t.getUTCFullYear()}-${p(t.getUTCMonth() + 1)}-${p(t.getUTCDate())}`;
}

const isBlankValue = (v) => v === null || (typeof v === 'string' && v.trim() === '');

/** The same comparison as parse-sheet.ts normalizeHeader (this file cannot import TypeScript). */
const normalizeHeader = (text) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s*＊:：]/g, '');

/** The text of a CSV file: UTF-8 (with or without BOM), UTF-16 by its BOM, else GB18030 (a superset of GBK). */
function csvText(b) {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder('utf-8').decode(b.subarray(3));
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2));
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return new TextDecoder('gb18030').decode(b);
  }
}

/**
 * A CSV file as one dense sheet of text cells (RFC 4180: quoted fields, doubled quotes, CRLF or LF;
 * the separator is a comma, or a tab or semicolon when the first line has more of those). Every cell
 * stays text: an id keeps its leading zeros and digits. Refused when the bytes are not text.
 * Its first `rowLimit` non-blank rows are kept (each cell its text, not an object); the non-blank rows
 * after them are only counted (`rest`), their cells never kept.
 */
function readCsv(b, maxColumns, rowLimit) {
  if (b.includes(0)) throw new Refusal('not-xlsx');
  const text = csvText(b);
  // Control characters other than tab and line ends at its start: binary, not a table.
  for (let i = 0; i < Math.min(text.length, 4096); i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) throw new Refusal('not-xlsx');
  }
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length);
  const count = (ch) => firstLine.split(ch).length - 1;
  const sep = [',', '\t', ';'].reduce((best, ch) => (count(ch) > count(best) ? ch : best), ',');
  // Sparse: a blank line takes no memory (a file of 10 MB of line ends stays small), and each row
  // keeps its index, the line the user sees.
  const rows = [];
  let lines = 0;
  let kept = 0;
  let rest = 0;
  let row = [];
  let field = '';
  let quoted = false;
  // Past rowLimit kept rows: whether the row has anything, not its cells.
  let filled = false;
  const endField = () => {
    if (kept >= rowLimit) filled ||= field.trim() !== '';
    else if (row.length < maxColumns) row.push(field === '' ? null : field);
    field = '';
  };
  const endRow = () => {
    endField();
    if (kept >= rowLimit) {
      if (filled) rest++;
      filled = false;
    } else if (row.some((cell) => cell !== null)) {
      rows[lines] = row;
      kept++;
    }
    lines++;
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === sep) endField();
    else if (ch === '\n') endRow();
    else if (ch === '\r') {
      if (text[i + 1] !== '\n') endRow();
    } else field += ch;
  }
  if (field !== '' || row.length || filled) endRow();
  return { wb: { SheetNames: ['CSV'], Sheets: { CSV: rows } }, rest, cut: rest > 0 };
}

/**
 * The bytes as a workbook, each format by its reader (see the top of this file), read no further
 * than `rowLimit` rows where the format allows (the row cap, parse()): a CSV file's first rowLimit
 * non-blank rows (the others counted, `rest`), an .xlsx sheet's first rowLimit rows (xlsx's
 * sheetRows; the rows below are skipped unparsed) when a worksheet goes past it (`lastRow`, from
 * checkZip). `cut`: rows may have been left out. .xls and .ods are read whole. `rowLimit` Infinity:
 * everything.
 */
async function readWorkbook(buf, limits, rowLimit) {
  const isZip = buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
  const isCfb = buf.length >= 8 && buf.readUInt32BE(0) === 0xd0cf11e0 && buf.readUInt32BE(4) === 0xa1b11ae1;
  if (!isZip && !isCfb) return readCsv(buf, limits.maxColumns, rowLimit);
  const { kind, lastRow, parts } = isZip ? checkZip(buf, limits) : { kind: 'xls', lastRow: Infinity, parts: [] };
  const reader = kind === 'xlsx' ? XLSX : (await import('xlsx/dist/xlsx.full.min.js')).default;
  const cut = kind === 'xlsx' && lastRow > rowLimit;
  // Cut short, the worksheets lose their rows past rowLimit before xlsx sees them (sheetRows alone
  // still had xlsx hold the whole sheet as text and look at every row's tag).
  const bytes = cut ? storedZip(parts.map((p) => (p.worksheet ? { ...p, data: cutRows(p.data, rowLimit) } : p))) : buf;
  parts.length = 0;
  try {
    const wb = reader.read(bytes, {
      type: 'buffer',
      sheetRows: cut ? rowLimit : 0,
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellNF: false,
      cellStyles: false,
      // Date-formatted cells come back as dates (then their day as text), never as the bare serial
      // number Excel stores: a task id "12-1" that Excel turned into 1 December must not read as 45627.
      cellDates: true,
      bookVBA: false,
      bookDeps: false,
      bookFiles: false,
      bookProps: false,
      WTF: false,
    });
    return { wb, rest: 0, cut, lastRow };
  } catch {
    throw new Refusal('unreadable');
  }
}

/** Header rows looked for among the first this many non-blank rows of each sheet (a title row or two above it). */
const HEADER_SEARCH_ROWS = 10;
/** Sheets looked at for the header. */
const MAX_SHEETS = 32;

/**
 * Copies each merged range's top-left cell into the range's other cells (one parcel's tracking cell
 * merged over its two product rows), within the rows and columns read.
 */
function fillMerges(sheet, maxColumns, rowLimit) {
  const merges = Array.isArray(sheet['!merges']) ? sheet['!merges'].slice(0, 10_000) : [];
  for (const m of merges) {
    const top = sheet[m.s.r]?.[m.s.c];
    if (!top) continue;
    for (let r = m.s.r; r <= Math.min(m.e.r, rowLimit - 1); r++) {
      if (!Array.isArray(sheet[r])) sheet[r] = [];
      for (let c = m.s.c; c <= Math.min(m.e.c, maxColumns - 1); c++) if (r !== m.s.r || c !== m.s.c) sheet[r][c] = top;
    }
  }
}

/**
 * The header row: on the first sheet that has one, the first of its first HEADER_SEARCH_ROWS
 * non-blank rows naming every required column; when none does, the row naming the most of them
 * (then parse-sheet.ts says which are missing), else the first sheet's first non-blank row.
 */
function findHeader(wb, columns, maxColumns) {
  let best = null;
  const names = wb.SheetNames.slice(0, MAX_SHEETS);
  for (const name of names) {
    const sheet = wb.Sheets[name];
    if (!Array.isArray(sheet)) continue;
    let seen = 0;
    for (let r = 0; r < sheet.length && seen < HEADER_SEARCH_ROWS; r++) {
      const row = sheet[r];
      if (!Array.isArray(row)) continue;
      const texts = row.slice(0, maxColumns).map((c) => {
        const v = cellValue(c);
        return typeof v === 'string' || typeof v === 'number' ? normalizeHeader(String(v)) : '';
      });
      if (texts.every((t) => t === '')) continue;
      seen++;
      const found = columns.filter((col) => col.required && col.headers.some((h) => texts.includes(h))).length;
      const score = found + columns.filter((col) => !col.required && col.headers.some((h) => texts.includes(h))).length / 100;
      if (!best || score > best.score) best = { name, r, score };
      if (found === columns.filter((col) => col.required).length && found > 0) return { name, r };
    }
  }
  if (best && best.score > 0) return best;
  return names.length && Array.isArray(wb.Sheets[names[0]]) ? { name: names[0], r: 0 } : null;
}

/**
 * Input (workerData): { bytes: Uint8Array, maxRows, maxUnzippedBytes, maxZipEntries, maxColumns,
 * columns: { headers: string[] (normalized), required: boolean }[] }.
 * Output (one message): { ok: true, sheet, text: Uint8Array } - sheet: the name of the sheet read;
 * text: the rows as UTF-8 JSON lines, one [rowIndex, cells[], dateColumns?] per line, the header
 * row first, then the non-blank rows below it; cells string | number | boolean | null, a date cell
 * as its day (YYYY-MM-DD) with its column index in dateColumns; the buffer is transferred, not
 * cloned, and the server reads it a piece at a time (parse-sheet.ts) - or { ok: false, reason,
 * count? } with reason one of not-xlsx, too-big, unreadable, no-sheet, too-many-rows. Both carry
 * rowsRead: the row slots of the sheet that were read (the row cap's, when it stopped the reading).
 */
async function parse() {
  const { bytes, maxRows, maxUnzippedBytes, maxZipEntries, maxColumns, columns } = workerData;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const limits = { maxUnzippedBytes, maxZipEntries, maxColumns };
  // The row cap: the rows that hold the header and cap + 1 data rows are enough to refuse a file,
  // so no more are read (their cells never become objects); only a sheet read short whose rows
  // were mostly blank is read again, whole.
  const read = await readWorkbook(buf, limits, maxRows + 1 + ROW_ROOM);
  return rowsOf(read, maxRows, maxColumns, columns) ?? rowsOf(await readWorkbook(buf, limits, Infinity), maxRows, maxColumns, columns);
}

/** Rows read beyond the header and the cap's: room for title rows above the header and blank rows among the data. */
const ROW_ROOM = 1_000;

/** The last row number (1-based) of a range such as A1:F100001. */
const rangeEnd = (ref) => Number(/(\d+)$/.exec(typeof ref === 'string' ? ref : '')?.[1] ?? 0);

/**
 * The header row and the non-blank rows below it of a workbook read by readWorkbook, or the refusal
 * of a file with more than maxRows of them; null when the workbook was read short (`cut`) and what
 * was read holds no more than maxRows (read it whole then).
 */
function rowsOf({ wb, rest, cut, lastRow }, maxRows, maxColumns, columns) {
  if (!Array.isArray(wb.SheetNames) || !wb.Sheets) throw new Refusal('no-sheet');
  const header = findHeader(wb, Array.isArray(columns) ? columns : [], maxColumns);
  if (!header) throw new Refusal('no-sheet');
  const sheet = wb.Sheets[header.name];
  const limit = Math.min(sheet.length, 1_048_576);
  rowsRead = limit;
  fillMerges(sheet, maxColumns, limit);
  const rows = [];
  for (let r = header.r; r < limit; r++) {
    const row = sheet[r];
    if (!Array.isArray(row)) continue;
    const cells = [];
    const dates = [];
    let blank = true;
    const width = Math.min(row.length, maxColumns);
    for (let c = 0; c < width; c++) {
      const v = cellValue(row[c]);
      if (!isBlankValue(v)) blank = false;
      if (row[c] && row[c].t === 'd' && v !== null) dates.push(c);
      cells.push(v);
    }
    if (blank) continue;
    rows.push(dates.length ? [r, cells, dates] : [r, cells]);
    // The header row and maxRows data rows are allowed: one more is too many.
    if (rows.length > maxRows + 1) {
      let count = rows.length - 1 + rest;
      for (let rr = r + 1; rr < limit; rr++) if (Array.isArray(sheet[rr]) && sheet[rr].some((x) => cellValue(x) !== null)) count++;
      // An .xlsx sheet read short: its rows below the header, as far as its range (or any worksheet's last row) goes.
      if (cut && !rest) count = Math.max(count, (rangeEnd(sheet['!fullref']) || lastRow) - header.r - 1);
      throw Object.assign(new Refusal('too-many-rows'), { count });
    }
  }
  if (cut) return null;
  return { sheet: String(header.name), rows };
}

/** The sheet rows the last parse read (the row slots of the sheet it took the rows from), for the answer. */
let rowsRead = 0;

try {
  const { sheet, rows } = await parse();
  const text = new TextEncoder().encode(rows.map((row) => JSON.stringify(row)).join('\n'));
  parentPort.postMessage({ ok: true, sheet, text, rowsRead }, [text.buffer]);
} catch (err) {
  if (err instanceof Refusal) parentPort.postMessage({ ok: false, reason: err.reason, count: typeof err.count === 'number' ? err.count : undefined, rowsRead });
  else parentPort.postMessage({ ok: false, reason: 'unreadable', rowsRead });
}
