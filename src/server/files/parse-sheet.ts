// Uploaded spreadsheets are untrusted (DECISIONS "Files"; xlsx 0.18.5's read path has known
// advisories). This turns the bytes of one upload into rows of the columns a caller asks for, or
// refuses the file with A00001 and a Chinese message before anything is changed. .xlsx, .xls, .ods
// and .csv are read, a reader each, the header found among the first rows of the first sheet that
// has it (docs/decisions/068-spreadsheets-as-offices-send-them.md). Parsing happens in
// sheet-worker.mjs, a fresh worker_thread per file with a small heap and a wall-clock timeout
// (SHEET_LIMITS); few parse at once and admin-side files go first (ParseSlots,
// docs/decisions/061-upload-queue.md). Only the caller's known columns are copied out, by header
// name, into fresh null-prototype objects built from the caller's own keys: a header or cell such as
// `__proto__` or `constructor` is only ever a string value, never a property name on a server object.
import { Worker } from 'node:worker_threads';
import { AppError, Code, badRequest } from '../errors.ts';
import { Pacer } from './slices.ts';
import { runFile } from '../run-files.ts';

export type Cell = string | number | boolean | null;

export interface SheetColumn<K extends string> {
  key: K;
  /** The header the template writes (first) and other accepted spellings. */
  headers: readonly string[];
  required: boolean;
}

export interface SheetRow<K extends string> {
  /** 1-based line of the sheet, as the user sees it in Excel. */
  line: number;
  /** The known columns only; null where the column is absent or the cell empty. */
  values: Readonly<Record<K, Cell>>;
  /** The known columns whose cell was a date (its value is then the day shown, YYYY-MM-DD). */
  dates: readonly K[];
}

/** Where the rows were read: the sheet's name ('' for a CSV file) and each known column's position and header. */
export interface SheetPlace<K extends string> {
  sheet: string;
  /** 0-based column index of each column found in the header row. */
  index: ReadonlyMap<K, number>;
  /** Each column's Chinese name (the template's header). */
  names: Readonly<Record<K, string>>;
}

/** A column's letters as the spreadsheet shows them: 0 = A, 26 = AA. */
export function columnLetters(index: number): string {
  let out = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

/** A row as the user finds it: 工作表“采购记录” 第5行 (no sheet for a CSV file). */
export const rowPlace = (place: SheetPlace<string>, line: number) => `${place.sheet ? `工作表“${place.sheet}” ` : ''}第${line}行`;

/** A cell as the user finds it: 工作表“采购记录” 第5行 C列 快递单号 (no letter for an absent column). */
export function cellPlace<K extends string>(place: SheetPlace<K>, line: number, key: K): string {
  const i = place.index.get(key);
  return `${rowPlace(place, line)} ${i === undefined ? '' : `${columnLetters(i)}列 `}${place.names[key]}`;
}

export interface SheetLimits {
  maxBytes: number;
  /** Data rows (the header row and blank rows are not counted). */
  maxRows: number;
  timeoutMs: number;
  /** The worker's old-generation heap. */
  heapMb: number;
  /** The sum of the unzipped sizes of the file's parts. */
  maxUnzippedBytes: number;
  maxZipEntries: number;
  /** Columns read per row; a header must be within them. */
  maxColumns: number;
}

/**
 * The same limit as app.ts's UPLOAD_LIMIT_BYTES (importing app.ts from here would be a cycle).
 *
 * Nothing empty and nothing above it is parsed; uploads.test.ts checks the two limits agree.
 */
export const MAX_SHEET_BYTES = 10 * 1024 * 1024;

/**
 * The worker gets a ~128 MB heap and a 10 s wall-clock timeout after which it is terminated; it
 * also reads only .xlsx, .xls, .ods and .csv, caps the unzipped size of a ZIP (zip bombs) before
 * xlsx sees the bytes, and reads CSV itself.
 */
export const SHEET_LIMITS: SheetLimits = {
  maxBytes: MAX_SHEET_BYTES,
  maxRows: 20_000,
  timeoutMs: 10_000,
  heapMb: 128,
  maxUnzippedBytes: 100 * 1024 * 1024,
  maxZipEntries: 1_000,
  maxColumns: 64,
};

/** Parses running at once; each holds a worker of up to heapMb, so they are few. */
export const MAX_PARALLEL_PARSES = 2;
/** Of those, how many members' files may take: the others are kept for the admin side. */
export const MAX_MEMBER_PARSES = 1;
/**
 * The server's memory budget while it takes uploads (docs/performance.md: < 500 MB). A second parse
 * starts only while the process leaves room under it for two workers' heaps (heapMb; the running one
 * may not have grown yet); else it waits for the running one. One parse always may run
 * (docs/decisions/062-memory-and-turns-on-pglite.md).
 */
export const MEMORY_BUDGET_BYTES = 500 * 1024 * 1024;

const WORKER_URL = runFile('./files/sheet-worker.mjs', './sheet-worker.mjs');

export const SHEET_MESSAGES = {
  noFile: '请选择要上传的Excel文件',
  empty: '上传的文件为空',
  tooLarge: (mb: number) => `文件过大，最大${mb}MB`,
  notXlsx: '文件不是支持的表格（.xlsx、.xls、.ods 或 .csv），请下载模板填写后上传',
  unreadable: '无法读取该Excel文件，文件可能已损坏',
  tooBig: '表格内容过大，无法处理，请拆分后分批上传',
  timeout: '表格解析超时，请减少行数后分批上传',
  noSheet: '表格中没有工作表',
  noData: '表格中没有数据',
  tooManyRows: (max: number, count: number) => `表格行数过多：最多${max}行，当前${count}行，请拆分后分批上传`,
  missingColumns: (names: string[]) => `表格缺少必需的列：${names.join('、')}，请使用模板`,
  duplicateColumn: (name: string) => `表格中有重复的列：${name}`,
} as const;

type WorkerReason = 'not-xlsx' | 'too-big' | 'unreadable' | 'no-sheet' | 'too-many-rows' | 'timeout';

/** The worker's answer, checked: rows of [0-based row index, primitive cells, indexes of date cells]. */
type RawRows = [number, Cell[], readonly number[]][];

const reasonMessage = (reason: WorkerReason, limits: SheetLimits, count?: number): string => {
  switch (reason) {
    case 'not-xlsx':
      return SHEET_MESSAGES.notXlsx;
    case 'too-big':
      return SHEET_MESSAGES.tooBig;
    case 'no-sheet':
      return SHEET_MESSAGES.noSheet;
    case 'too-many-rows':
      return SHEET_MESSAGES.tooManyRows(limits.maxRows, count ?? limits.maxRows + 1);
    case 'timeout':
      return SHEET_MESSAGES.timeout;
    default:
      return SHEET_MESSAGES.unreadable;
  }
};

/**
 * The parse slots: at most `max` at once, of which members take at most `memberMax`; a waiting
 * admin-side file starts before any waiting member's file, and each side is served in arrival order.
 */
export class ParseSlots {
  private admins = 0;
  private members = 0;
  private readonly waiting = { admin: [] as (() => void)[], member: [] as (() => void)[] };
  /** `roomForAnother`: whether a parse may start beside those running (memory). */
  constructor(
    private readonly max: number,
    private readonly memberMax: number,
    private readonly roomForAnother: () => boolean = () => true,
  ) {}
  private free(adminSide: boolean) {
    const running = this.admins + this.members;
    return running < this.max && (adminSide || this.members < this.memberMax) && (running === 0 || this.roomForAnother());
  }
  async run<T>(adminSide: boolean, fn: () => Promise<T>): Promise<T> {
    const queue = adminSide ? this.waiting.admin : this.waiting.member;
    if (queue.length || !this.free(adminSide)) await new Promise<void>((resolve) => queue.push(resolve));
    else this.take(adminSide);
    try {
      return await fn();
    } finally {
      if (adminSide) this.admins--;
      else this.members--;
      this.next();
    }
  }
  /** Files being parsed and waiting, per side (for the log and the tests of the queue). */
  get state() {
    return { running: { admin: this.admins, member: this.members }, waiting: { admin: this.waiting.admin.length, member: this.waiting.member.length } };
  }
  private take(adminSide: boolean) {
    if (adminSide) this.admins++;
    else this.members++;
  }
  /** Starts whoever may start now: the admin side first. The slot is taken here, for the one started. */
  private next() {
    for (;;) {
      const side = this.waiting.admin.length && this.free(true) ? 'admin' : this.waiting.member.length && this.free(false) ? 'member' : null;
      if (!side) return;
      this.take(side === 'admin');
      this.waiting[side].shift()!();
    }
  }
}

// A worker just started has not grown yet: the running one is counted at its full heap too.
const parses = new ParseSlots(
  MAX_PARALLEL_PARSES,
  MAX_MEMBER_PARSES,
  () => process.memoryUsage.rss() + 2 * SHEET_LIMITS.heapMb * 1024 * 1024 <= MEMORY_BUDGET_BYTES,
);

/**
 * What the last parse of this thread read: the row slots of its sheet (a refused file over the row
 * cap stops at about the cap, decision 172). For the tests and scripts/upload-bounds.ts.
 */
export const sheetReadStats = { rowsRead: 0 };

/** The files being parsed and waiting, per side. */
export const parseQueueState = () => parses.state;

const isCell = (v: unknown): v is Cell => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * Accepts only the shape the worker promises; anything else counts as an unreadable file. Checked in
 * place, not copied (the rows are the server's own, fresh from JSON.parse): a row without date
 * columns gets a shared empty list. Fewer objects per row: the copies were most of the parse's
 * garbage on this thread (decision 172).
 */
export function acceptWorkerRows(rows: unknown, limits: SheetLimits = SHEET_LIMITS): RawRows | null {
  if (!Array.isArray(rows) || rows.length > limits.maxRows + 1) return null;
  for (const entry of rows as unknown[]) {
    if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) return null;
    const [r, cells, dates] = entry as [unknown, unknown, unknown];
    if (dates === undefined) entry.push(NO_DATE_COLUMNS);
    else if (!Array.isArray(dates) || !dates.every((d) => typeof d === 'number' && Number.isSafeInteger(d) && d >= 0 && d < limits.maxColumns)) return null;
    if (typeof r !== 'number' || !Number.isSafeInteger(r) || r < 0) return null;
    if (!Array.isArray(cells) || cells.length > limits.maxColumns) return null;
    for (let i = 0; i < cells.length; i++) if (!isCell(cells[i])) return null;
  }
  return rows as RawRows;
}

const NO_DATE_COLUMNS: readonly number[] = Object.freeze([]);

/**
 * Reads the worker's rows (JSON lines, one [rowIndex, cells] per line) a piece at a time, between
 * turns of the event loop; null when they are not what the worker promises.
 *
 * The worker answers its rows in one transferred buffer rather than one cloned array, so a large
 * file does not take the server's thread in one piece; the rows' columns are read paced as well
 * (slices.ts).
 */
async function rowsOfText(text: Uint8Array, limits: SheetLimits): Promise<RawRows | null> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const pacer = new Pacer();
  const out: RawRows = [];
  const PIECE = 128 * 1024;
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + PIECE);
    if (end < text.length) {
      const newline = text.indexOf(10, end);
      end = newline < 0 ? text.length : newline;
    }
    let parsed: unknown;
    try {
      // A JSON text holds no raw newline inside a string: each newline ends a row.
      parsed = JSON.parse(`[${decoder.decode(text.subarray(start, end)).replaceAll('\n', ',')}]`);
    } catch {
      return null;
    }
    const rows = acceptWorkerRows(parsed, limits);
    if (!rows || out.length + rows.length > limits.maxRows + 1) return null;
    for (const row of rows) out.push(row);
    start = end + 1;
    await pacer.pace();
  }
  return out;
}

/** Runs sheet-worker.mjs on one file: its rows (as JSON lines), or the reason it refused the file. */
function runWorker(
  bytes: Buffer,
  limits: SheetLimits,
  columns: readonly SheetColumn<string>[],
): Promise<{ ok: true; sheet: string; text: Uint8Array; rowsRead?: number } | { ok: false; reason: WorkerReason; count?: number; rowsRead?: number }> {
  return new Promise((resolve) => {
    // The worker gets its own copy, transferred (not cloned again); the request keeps its buffer.
    const copy = new Uint8Array(bytes);
    const worker = new Worker(WORKER_URL, {
      workerData: {
        bytes: copy,
        maxRows: limits.maxRows,
        maxUnzippedBytes: limits.maxUnzippedBytes,
        maxZipEntries: limits.maxZipEntries,
        maxColumns: limits.maxColumns,
        // To find the header row and its sheet (a title row above it, the table on a later sheet).
        columns: columns.map((c) => ({ headers: c.headers.map(normalizeHeader), required: c.required })),
      },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, codeRangeSizeMb: 16, stackSizeMb: 4 },
      // No loader flags of the parent (tsx, vitest): the worker is plain JavaScript.
      execArgv: [],
      // xlsx may print warnings about a malformed file; they are not the server's log.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const finish = (result: Parameters<typeof resolve>[0]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), limits.timeoutMs);
    worker.on('message', (msg: unknown) => {
      if (typeof msg !== 'object' || msg === null) return finish({ ok: false, reason: 'unreadable' });
      const m = msg as { ok?: unknown; sheet?: unknown; text?: unknown; reason?: unknown; count?: unknown; rowsRead?: unknown };
      const whole = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined);
      if (m.ok === true)
        return finish(
          m.text instanceof Uint8Array && typeof m.sheet === 'string'
            ? { ok: true, sheet: m.sheet.slice(0, 100), text: m.text, rowsRead: whole(m.rowsRead) }
            : { ok: false, reason: 'unreadable' },
        );
      const known: WorkerReason[] = ['not-xlsx', 'too-big', 'unreadable', 'no-sheet', 'too-many-rows'];
      const reason = known.find((k) => k === m.reason) ?? 'unreadable';
      finish({ ok: false, reason, count: whole(m.count), rowsRead: whole(m.rowsRead) });
    });
    worker.on('error', (err: Error & { code?: string }) => {
      // ERR_WORKER_OUT_OF_MEMORY: the sheet needs more than the worker's heap.
      finish({ ok: false, reason: err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'too-big' : 'unreadable' });
    });
    worker.on('exit', () => finish({ ok: false, reason: 'unreadable' }));
  });
}

/** Header text as compared: width-folded (NFKC), lower case, without spaces and required marks. */
export const normalizeHeader = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s*＊:：]/g, '');

const isBlank = (v: Cell) => v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Reads an uploaded .xlsx, .xls, .ods or .csv (sheet-worker.mjs, a reader per format): the header is
 * the first of the first rows naming every required column, on the first sheet that has one (a title
 * row above it, the table on a later sheet); the rows below it are data, a merged cell read as its
 * top-left cell in every cell it covers. Throws A00001 (HTTP 413 for the size limit) when the file itself cannot be used.
 * `adminSide`: the file of an admin or lowerAdmin, parsed before members' files (ParseSlots).
 *
 * What comes back is checked to be rows of primitive cells (acceptWorkerRows). A sheet with no
 * header, missing required columns, no data or more than maxRows data rows is refused as a whole.
 */
export async function parseSheet<K extends string>(
  bytes: Buffer | null | undefined,
  columns: readonly SheetColumn<K>[],
  limits: SheetLimits = SHEET_LIMITS,
  opts: { adminSide?: boolean } = {},
): Promise<{ rows: SheetRow<K>[]; place: SheetPlace<K> }> {
  if (!bytes) throw badRequest(SHEET_MESSAGES.noFile);
  if (bytes.length === 0) throw badRequest(SHEET_MESSAGES.empty);
  if (bytes.length > limits.maxBytes) throw new AppError(Code.badParam, 413, SHEET_MESSAGES.tooLarge(Math.floor(limits.maxBytes / 1024 / 1024)));

  const result = await parses.run(opts.adminSide ?? false, () => runWorker(bytes, limits, columns));
  sheetReadStats.rowsRead = result.rowsRead ?? 0;
  if (!result.ok) throw badRequest(reasonMessage(result.reason, limits, result.count));
  const raw = await rowsOfText(result.text, limits);
  if (!raw) throw badRequest(SHEET_MESSAGES.unreadable);

  const header = raw[0];
  if (!header) throw badRequest(SHEET_MESSAGES.noData);

  // Column index of each known column, found by comparing the header texts with the known names.
  const index = new Map<K, number>();
  header[1].forEach((cell, i) => {
    if (typeof cell !== 'string' && typeof cell !== 'number') return;
    const text = normalizeHeader(String(cell));
    const column = columns.find((c) => c.headers.some((h) => normalizeHeader(h) === text));
    if (!column) return;
    if (index.has(column.key)) throw badRequest(SHEET_MESSAGES.duplicateColumn(column.headers[0]!));
    index.set(column.key, i);
  });
  const missing = columns.filter((c) => c.required && !index.has(c.key)).map((c) => c.headers[0]!);
  if (missing.length) throw badRequest(SHEET_MESSAGES.missingColumns(missing));

  const rows: SheetRow<K>[] = [];
  const pacer = new Pacer();
  for (let k = 1; k < raw.length; k++) {
    const [r, cells, dateIndexes] = raw[k]!;
    if (k % 256 === 0) await pacer.pace();
    const values = Object.create(null) as Record<K, Cell>;
    let blank = true;
    for (const column of columns) {
      const i = index.get(column.key);
      const v = i === undefined ? null : (cells[i] ?? null);
      values[column.key] = v;
      if (!isBlank(v)) blank = false;
    }
    // A row with something only in unknown columns (a note beside the table) is not data.
    const dates = dateIndexes.length ? columns.filter((c) => dateIndexes.includes(index.get(c.key) ?? -1)).map((c) => c.key) : NO_DATES;
    if (!blank) rows.push({ line: r + 1, values: Object.freeze(values), dates });
  }
  if (rows.length === 0) throw badRequest(SHEET_MESSAGES.noData);
  if (rows.length > limits.maxRows) throw badRequest(SHEET_MESSAGES.tooManyRows(limits.maxRows, rows.length));
  const names = Object.create(null) as Record<K, string>;
  for (const c of columns) names[c.key] = c.headers[0]!;
  return { rows, place: { sheet: result.sheet === 'CSV' && isCsv(bytes) ? '' : result.sheet, index, names: Object.freeze(names) } };
}

const NO_DATES: readonly never[] = Object.freeze([]);

/** Neither a ZIP nor a compound file: the worker read it as CSV. */
const isCsv = (b: Buffer) => !(b[0] === 0x50 && b[1] === 0x4b) && !(b.length >= 4 && b.readUInt32BE(0) === 0xd0cf11e0);
