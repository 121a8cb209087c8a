// The one place an uploaded spreadsheet is parsed. It runs in a worker_thread of its own, started
// for one file and ended with it (parse-sheet.ts), with a small heap and a wall-clock timeout,
// because xlsx 0.18.5 has unpatched advisories on its read path (prototype pollution
// GHSA-4r6h-8v6p-xvw6, ReDoS GHSA-5pgg-2g8v-p4x9): whatever a crafted file does to this
// thread's objects dies with the thread, and a parse that loops or grows is cut off.
// Plain JavaScript on purpose: a worker does not inherit the TypeScript loader of tsx or vitest,
// and this file must run as it is under both. Its input and answer: parse().
import { Buffer } from 'node:buffer';
import { TextEncoder } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
// xlsx's mini build: the Office Open XML reader without the codepage tables and the other formats'
// readers (XLS, XLSB, ODS, Numbers), which this worker refuses before xlsx sees a file anyway. Every
// file starts a worker, and loading the full build was most of a worker's start (docs/performance.md).
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
 * Walks the ZIP container exactly the way xlsx's reader does (end-of-central-directory found by
 * scanning back for its signature, entry count and offset from it, each entry's data from its
 * local header, deflate streams read to their end) and inflates every entry with a hard output
 * cap. xlsx inflates every entry itself, trusting the sizes the file declares (it allocates a
 * buffer of the declared size) or growing without bound when none is declared; those buffers live
 * outside the worker's heap limit, so a zip bomb would otherwise take the whole process's memory.
 * Only Office Open XML workbooks pass: [Content_Types].xml and xl/workbook.xml present, none of
 * the markers that send xlsx to its OpenDocument or Numbers readers.
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
    let size;
    if (method === 0) {
      if (start + csz > b.length) throw new Refusal('unreadable');
      size = csz;
    } else if (method === 8) {
      try {
        size = zlib.inflateRawSync(b.subarray(start), { maxOutputLength: Math.max(1, limits.maxUnzippedBytes - total) }).length;
      } catch (err) {
        throw new Refusal(err && err.code === 'ERR_BUFFER_TOO_LARGE' ? 'too-big' : 'unreadable');
      }
    } else {
      throw new Refusal('unreadable');
    }
    total += Math.max(size, usz);
    if (total > limits.maxUnzippedBytes) throw new Refusal('too-big');
  }
  if (!names.has('[content_types].xml') || !names.has('xl/workbook.xml')) throw new Refusal('not-xlsx');
  for (const marker of ['meta-inf/manifest.xml', 'objectdata.xml', 'index/document.iwa', 'index.xml', 'index.xml.gz']) {
    if (names.has(marker)) throw new Refusal('not-xlsx');
  }
}

/** A cell as a primitive: text, number, boolean or null (errors, stubs and anything else). */
function cellValue(cell) {
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
      return v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString() : null;
    default:
      return null;
  }
}

/**
 * Input (workerData): { bytes: Uint8Array, maxRows, maxUnzippedBytes, maxZipEntries, maxColumns }.
 * Output (one message): { ok: true, text: Uint8Array } - the rows as UTF-8 JSON lines, one
 * [rowIndex, cells[]] per line, only non-blank rows, cells string | number | boolean | null; the
 * buffer is transferred, not cloned, and the server reads it a piece at a time (parse-sheet.ts) -
 * or { ok: false, reason, count? } with reason one of not-xlsx, too-big, unreadable, no-sheet,
 * too-many-rows.
 */
function parse() {
  const { bytes, maxRows, maxUnzippedBytes, maxZipEntries, maxColumns } = workerData;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  checkZip(buf, { maxUnzippedBytes, maxZipEntries });
  let wb;
  try {
    wb = XLSX.read(buf, {
      type: 'buffer',
      dense: true,
      sheets: 0,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellNF: false,
      cellStyles: false,
      // Date-formatted cells come back as dates (then ISO text), never as the bare serial number
      // Excel stores: a task id "12-1" that Excel turned into 1 December must not read as 45627.
      cellDates: true,
      bookVBA: false,
      bookDeps: false,
      bookFiles: false,
      bookProps: false,
      WTF: false,
    });
  } catch {
    throw new Refusal('unreadable');
  }
  const first = Array.isArray(wb.SheetNames) ? wb.SheetNames[0] : undefined;
  const sheet = typeof first === 'string' && wb.Sheets ? wb.Sheets[first] : undefined;
  if (!Array.isArray(sheet)) throw new Refusal('no-sheet');
  const rows = [];
  const limit = Math.min(sheet.length, 1_048_576);
  for (let r = 0; r < limit; r++) {
    const row = sheet[r];
    if (!Array.isArray(row)) continue;
    const cells = [];
    let blank = true;
    const width = Math.min(row.length, maxColumns);
    for (let c = 0; c < width; c++) {
      const v = cellValue(row[c]);
      if (v !== null && !(typeof v === 'string' && v.trim() === '')) blank = false;
      cells.push(v);
    }
    if (blank) continue;
    rows.push([r, cells]);
    // The header row and maxRows data rows are allowed: one more is too many.
    if (rows.length > maxRows + 1) {
      let count = rows.length - 1;
      for (let rr = r + 1; rr < limit; rr++) if (Array.isArray(sheet[rr]) && sheet[rr].some((x) => cellValue(x) !== null)) count++;
      throw Object.assign(new Refusal('too-many-rows'), { count });
    }
  }
  return rows;
}

try {
  const text = new TextEncoder().encode(
    parse()
      .map((row) => JSON.stringify(row))
      .join('\n'),
  );
  parentPort.postMessage({ ok: true, text }, [text.buffer]);
} catch (err) {
  if (err instanceof Refusal) parentPort.postMessage({ ok: false, reason: err.reason, count: typeof err.count === 'number' ? err.count : undefined });
  else parentPort.postMessage({ ok: false, reason: 'unreadable' });
}
