// The tracking upload of /admin/upload (SPEC §2 "tracking import with three actions (insert, update,
// confirm); a result table", §3 "Upload result row", §7 "POST /api/scan/admin/excel/upload/import,
// update, confirm"; DECISIONS "Receiving and matching" - init = imported, not yet seen; "Files").
// Three actions (TrackingUploadMode): import announces parcels, update corrects counts, confirm says
// announced parcels arrived; receiving/scan-service.ts has the same vocabulary, and both ask
// machines/scan-record.machine.ts what seen, announced and frozen mean. Like the purchased upload:
// parse-sheet.ts parses, an unusable file is refused as a whole, every row is reported in sheet
// order, and the valid rows are applied in slices of whole tracking ids, each its own transaction
// (docs/decisions/060-uploads-in-slices.md), so the same file again finishes an interrupted upload.
import { sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { writeAudit, type AuditEntry } from '../audit.ts';
import type { Db, Tx } from '../db/client.ts';
import { items } from '../db/schema/catalog.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { lockAndRead, lockThenRead, taskLinks } from '../db/matching-store.ts';
import { MATCH_CHUNK, matchTrackings, type ScanRow } from '../matching/match.ts';
import { scanAudit } from '../matching/plan.ts';
import { insertScanRows, newScanIds, rowsOfTrackings, type ItemBrief } from '../receiving/scan-rows.ts';
import { CONTROL_CHARS, scanMessages, scanTextError } from '../receiving/scan-service.ts';
import { canonicalTrackingId, nearMissMessages } from '../../../machines/tracking-id.ts';
import { nearRecords } from '../matching/near-misses.ts';
import { ANNOUNCED_SCAN_STATUS, isAnnounced, isFrozen, isSeen, MAX_SCAN_COUNT } from '../../../machines/scan-record.machine.ts';
import { failsCheckDigit, gtinForms, productCodeKey, productCodeMessages, restoreLeadingZeros, sameProductCode } from '../../../machines/product-code.ts';
import { parseSheet, SHEET_LIMITS, type SheetColumn, type SheetLimits, type SheetPlace, type SheetRow } from './parse-sheet.ts';
import { forEachPaced, mapPaced, Pacer, SLICING, throughPoll, type Slicing } from './slices.ts';
import { oneUploadPerMember } from './upload-gate.ts';
import { isAdminSide } from '../boards/visibility.ts';
import {
  applyInSlices,
  cellMessage,
  cellText,
  isNumberCell,
  isRoundedNumber,
  nameErrorCells,
  nearPacingOf,
  uploadResult,
  uploadRowMessages,
  wholeNumber,
  withCellWarning,
} from './upload-rows.ts';
import { writeWorkbook } from './xlsx-write.ts';

type UploadResult = components['schemas']['UploadResult'];
type UploadResultRow = components['schemas']['UploadResultRow'];
/**
 * The three actions (the decision):
 * - import: parcels announced before they arrive (a supplier's or carrier's list). Each row
 *   (tracking, upc, 数量) becomes a scan record in status init: not stock yet, so matching ignores
 *   it and nothing is matched. A (tracking, upc) that already has a record (imported or seen) is
 *   skip (oldQty = its count): importing the same file twice changes nothing.
 * - update: corrects the count of the records of (tracking, upc), imported or seen (oldQty = the
 *   count before). If matching had divided the units among several tasks (one row per task), the
 *   rows are merged back into the first one and matched again, so the file's count is the parcel's
 *   count. No record is an error row, the same count is skip, a record whose task is being paid
 *   (wait2pay, payed) is an error row (frozen, as for modify). Seen records are matched again.
 * - confirm: the announced parcels arrived. The init records of (tracking, upc) - or of the whole
 *   tracking id when the upc cell is empty - become scan (seen); a filled 数量 replaces the imported
 *   count (oldQty = the imported count). Records already seen are skip; a tracking id / upc never
 *   imported is an error row (scan it, or import it first). The confirmed tracking ids are matched
 *   once at the end (matchTrackings), which ties the units to members' tasks; matching writes each
 *   confirmed row once, in its matched state, audited 'upload.confirm' with the imported row as
 *   before (matchTrackings' `seen`).
 */
export type TrackingUploadMode = 'import' | 'update' | 'confirm';

const column = <K extends string>(key: K, headers: string[], required: boolean): SheetColumn<K> => ({ key, headers, required });
const BASE_COLUMNS = [
  column('tracking', ['快递单号', 'tracking', 'trackingId', 'tracking id', 'tracking号', '运单号', '物流单号'], true),
  column('upc', ['UPC', 'upc码', '条码', '商品条码', 'barcode'], true),
  column('itemId', ['商品ID', '商品编号', 'itemId', 'item id'], false),
  column('name', ['商品名称', '商品', 'name', 'itemName', 'item name'], false),
  column('express', ['快递公司', '快递', 'express', 'carrier'], false),
] as const;
const QTY_HEADERS = ['数量', '数目', 'qty', 'count', 'quantity'];

/**
 * The columns of import and update (数量 required) and of confirm (数量 optional).
 *
 * The template (GET /ext/excel/template/tracking) has one sheet "扫描记录" with these columns,
 * matched by name like the purchased template (any order, other spellings here):
 *   tracking  required  the tracking id (1..64 characters)
 *   upc       required  column; the cell may stay empty when 商品ID is given (the item's upc is
 *                       used; import and update) and in confirm (the whole tracking id)
 *   商品ID    optional  import: the item of the record (must exist); without it the item is the
 *                       catalogue's item of that upc (the open one with the lowest id), if any -
 *                       an imported row may name a product the catalogue does not have yet
 *   商品名称  optional  import: the record's item name when no catalogue item is found
 *   快递公司  optional  for the reader only (not stored)
 *   数量      import and update: required (1..1000000); confirm: optional
 */
export const TRACKING_COLUMNS = [...BASE_COLUMNS, column('qty', QTY_HEADERS, true)] as const;
export const CONFIRM_COLUMNS = [...BASE_COLUMNS, column('qty', QTY_HEADERS, false)] as const;
type ColumnKey = (typeof TRACKING_COLUMNS)[number]['key'];

/** 50,000 data rows per file: a day of a warehouse's parcels; the rows are written set-based and matched once. */
export const TRACKING_LIMITS: SheetLimits = { ...SHEET_LIMITS, maxRows: 50_000 };

/** Wall-clock budget for applying the rows; past it the rows not yet applied are reported as not processed (as purchased-upload.ts). */
export const TRACKING_APPLY_BUDGET_MS = 120_000;

export const trackingUploadMessages = {
  trackingRequired: uploadRowMessages.trackingRequired,
  trackingTooLong: scanMessages.trackingIdTooLong,
  trackingInvalid: scanMessages.trackingIdInvalid,
  trackingRounded: uploadRowMessages.trackingRounded,
  trackingAsNumber: uploadRowMessages.trackingAsNumber,
  upcRequired: scanMessages.upcRequired,
  upcTooLong: scanMessages.upcTooLong,
  upcInvalid: scanMessages.upcInvalid,
  upcRounded: 'UPC已被Excel转换为数字而失去精度，请将该列设为文本格式后重新填写',
  itemIdInvalid: '商品ID格式不正确',
  itemNotFound: scanMessages.itemNotFound,
  itemNoUpc: '该商品没有UPC，请填写UPC',
  qtyRequired: '请填写数量',
  qtyInvalid: scanMessages.countInvalid,
  qtyNeedsUpc: '填写数量时须同时填写UPC',
  duplicate: (line: number) => `与第${line}行的快递单号和UPC重复`,
  imported: '导入成功',
  alreadyRecorded: '该快递单号已有此UPC的记录',
  saved: '保存成功',
  unchanged: '没有变化',
  noRecord: '没有该快递单号和UPC的记录',
  frozen: scanMessages.frozen,
  confirmed: '确认成功',
  alreadySeen: '已确认（已扫描）',
  notImported: '没有导入该快递单号和UPC的记录',
  notImportedTracking: '没有导入该快递单号的记录',
  busy: uploadRowMessages.busy,
  notProcessed: uploadRowMessages.notProcessed,
} as const;
const M = trackingUploadMessages;

interface CheckedRow {
  out: UploadResultRow;
  tracking: string;
  /** '' when the cell is empty (import/update: taken from the item; confirm: the whole tracking id). */
  upc: string;
  fileItemId: number | null;
  qty: number | null;
  /** The tracking id arrived as a number cell (its answer gets trackingAsNumber). */
  trackingAsNumber: boolean;
}

/**
 * Format checks of one row; out.opStatus 'error' with the first problem, naming its cell (`place`),
 * else 'succ' (pending).
 */
function checkRow(row: SheetRow<ColumnKey>, mode: TrackingUploadMode, place: SheetPlace<ColumnKey>): CheckedRow {
  const v = row.values;
  const tracking = cellText(v.tracking);
  // A UPC column Excel read as a number lost its leading zero: given back when the check digit says so.
  const upc = restoreLeadingZeros(cellText(v.upc));
  const qtyText = cellText(v.qty);
  const qty = wholeNumber(v.qty);
  const itemIdText = cellText(v.itemId);
  const itemId = itemIdText === '' ? null : wholeNumber(v.itemId);
  const out: UploadResultRow = {
    line: row.line,
    // Echoed for the reader; a cell can hold 32,767 characters, the answer does not need them all.
    tracking: tracking.slice(0, 100),
    upc: upc.slice(0, 100),
    // Stored as the item name of an imported row without a catalogue item: no control characters.
    name: cellText(v.name).replace(CONTROL_CHARS, '').slice(0, 256),
    itemId: itemId !== null && itemId >= 1 && itemId <= 2_147_483_647 ? itemId : null,
    express: cellText(v.express).slice(0, 64),
    qty: qty !== null && qty <= 2_147_483_647 ? qty : null,
    oldQty: null,
    opStatus: 'error',
    msg: '',
  };
  const checked: CheckedRow = {
    out,
    tracking: canonicalTrackingId(tracking),
    upc,
    fileItemId: out.itemId ?? null,
    qty: null,
    trackingAsNumber: isNumberCell(v.tracking),
  };
  const fail = (key: ColumnKey, msg: string) => {
    out.msg = cellMessage(place, row.line, key, msg);
    return checked;
  };
  if (isRoundedNumber(v.tracking)) return fail('tracking', M.trackingRounded);
  if (!tracking) return fail('tracking', M.trackingRequired);
  const trackingError = scanTextError('trackingId', tracking);
  if (trackingError) return fail('tracking', trackingError);
  if (isRoundedNumber(v.upc)) return fail('upc', M.upcRounded);
  const upcError = upc ? scanTextError('upc', upc) : null;
  if (upcError) return fail('upc', upcError);
  if (itemIdText !== '' && out.itemId === null) return fail('itemId', M.itemIdInvalid);
  if (!upc && mode !== 'confirm' && out.itemId === null) return fail('upc', M.upcRequired);
  if (qtyText === '') {
    if (mode !== 'confirm') return fail('qty', M.qtyRequired);
  } else {
    if (qty === null || qty < 1 || qty > MAX_SCAN_COUNT) return fail('qty', M.qtyInvalid);
    if (mode === 'confirm' && !upc) return fail('qty', M.qtyNeedsUpc);
    checked.qty = qty;
  }
  out.opStatus = 'succ';
  return checked;
}

/** Rows per statement: every list travels as one array parameter (= any($1), unnest($1, ...)). */
const CHUNK = 5000;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * The items of these ids, and the catalogue's item of each upc (the open one with the lowest id, else
 * the lowest id), found by any written form of its GTIN and keyed by productCodeKey (decision 075).
 */
async function loadItems(tx: Tx, ids: number[], upcs: string[]) {
  const byId = new Map<number, ItemBrief>();
  const byUpc = new Map<string, ItemBrief & { open: boolean }>();
  const forms = upcs.flatMap((u) => [u, ...gtinForms(u)]);
  for (const part of chunks([...new Set(ids)])) {
    for (const r of await tx
      .select({ id: items.id, itemName: items.itemName, upc: items.upc })
      .from(items)
      .where(sql`${items.id} = any(${sql.param(part)}::int[])`))
      byId.set(r.id, r);
  }
  for (const part of chunks([...new Set(forms)])) {
    const rows = await tx
      .select({ id: items.id, itemName: items.itemName, upc: items.upc, status: items.status })
      .from(items)
      .where(sql`${items.upc} = any(${sql.param(part)}::text[])`)
      .orderBy(items.id);
    for (const r of rows) {
      const key = productCodeKey(r.upc!);
      const have = byUpc.get(key);
      const open = r.status === 'open';
      if (!have || (open && !have.open) || (open === have.open && r.id < have.id)) byUpc.set(key, { id: r.id, itemName: r.itemName, upc: r.upc, open });
    }
  }
  return { byId, byUpc };
}

const sum = (rows: ScanRow[]) => rows.reduce((n, r) => n + r.count, 0);

/** A new (imported) row. */
type NewScan = Pick<ScanRow, 'trackingId' | 'upc' | 'count' | 'itemId' | 'itemName'>;

/** The planned writes of one upload, applied in a few statements by flush(). */
interface Plan {
  inserts: NewScan[];
  /** Rows whose count and/or status change, with the row before. */
  updates: { before: ScanRow; count: number; status: ScanRow['status']; action: string }[];
  /** Rows merged into another (update of rows matching had divided). */
  deletes: { row: ScanRow; into: number }[];
  /** Tracking ids to match at the end. */
  match: Set<string>;
  /** confirm: the imported rows seen, by id, with their count (written by matching, see matchTrackings). */
  seen: Map<number, number>;
}

async function flush(tx: Tx, actor: SessionUser, plan: Plan, insertAction: string, newIds: readonly number[]) {
  const audits: AuditEntry[] = [];
  const now = new Date();
  if (newIds.length < plan.inserts.length) throw new Error(`flush: ${plan.inserts.length} rows, ${newIds.length} ids`);
  // Each new row is made once, as it is written and audited.
  const inserted: ScanRow[] = plan.inserts.map((r, k) => ({
    id: newIds[k]!,
    ...r,
    status: ANNOUNCED_SCAN_STATUS,
    matchedUser: null,
    userId: null,
    mainId: null,
    subId: null,
    taskId: null,
    opUid: actor.id,
    createdAt: now,
    updatedAt: now,
  }));
  await insertScanRows(tx, inserted);
  for (const row of inserted) audits.push(scanAudit(actor, insertAction, null, row));
  for (const part of chunks(plan.updates)) {
    await tx.execute(sql`
      update scan_trackings s set count = v.count, status = v.status::scan_status, op_uid = ${actor.id}, updated_at = ${now}
      from unnest(${sql.param(part.map((u) => u.before.id))}::int[], ${sql.param(part.map((u) => u.count))}::int[], ${sql.param(part.map((u) => u.status))}::text[])
        as v(id, count, status)
      where s.id = v.id`);
    for (const u of part) audits.push(scanAudit(actor, u.action, u.before, { ...u.before, count: u.count, status: u.status, opUid: actor.id, updatedAt: now }));
  }
  for (const part of chunks(plan.deletes)) {
    await tx.execute(sql`delete from scan_trackings where id = any(${sql.param(part.map((d) => d.row.id))}::int[])`);
    for (const d of part) audits.push({ ...scanAudit(actor, 'upload.update.merge', d.row, d.row), after: { mergedInto: d.into } });
  }
  await writeAudit(tx, audits);
}

/**
 * Parses, checks and applies one tracking upload.
 *
 * Every row is reported in sheet order (line, tracking, upc, name, itemId, express, qty, oldQty,
 * opStatus, msg) with the totals. Every check that needs no lock (the cells, the items, duplicates in
 * the file) is made before the first write; then the valid rows are applied in slices (upload-rows.ts
 * applyInSlices): each slice is the rows of whole tracking ids, its own transaction, which takes those
 * tracking ids' locks (db/matching-store.ts lockTrackings), reads their rows, writes set-based
 * (UPDATE ... FROM unnest, multi-row INSERT), audits every changed row (entity 'tracking', actions
 * upload.import / upload.update / upload.update.merge / upload.confirm) and matches them; other
 * requests are served between slices. So a file is applied as if its parcels had arrived one slice
 * after another, and uploading the same file again after an interrupted upload finishes it (import:
 * skip what exists; update: skip an unchanged count; confirm: skip what is already seen). Past the
 * time budget the rows not yet applied are reported as not processed; a lock conflict (after
 * retries) is 409.
 */
export async function uploadTrackings(
  db: Db,
  actor: SessionUser,
  bytes: Buffer | null | undefined,
  mode: TrackingUploadMode,
  opts: { limits?: SheetLimits; budgetMs?: number; matchChunk?: number; slicing?: Partial<Slicing> } = {},
): Promise<UploadResult> {
  return oneUploadPerMember(actor, async () => {
    // The sheet's rows are not kept, only what each row answers.
    const columns = mode === 'confirm' ? CONFIRM_COLUMNS : TRACKING_COLUMNS;
    const { rows, place } = await parseSheet(bytes, columns, opts.limits ?? TRACKING_LIMITS, { adminSide: isAdminSide(actor) });
    const checked = await mapPaced(rows, (r) => checkRow(r, mode, place));
    const todo = await resolveRows(db, checked, mode, place);
    // The rows of each tracking id, in the order the file first names them: one slice takes all of them.
    const groups = new Map<string, Todo[]>();
    await forEachPaced(todo, (t) => {
      const group = groups.get(t.c.tracking);
      if (group) group.push(t);
      else groups.set(t.c.tracking, [t]);
    });
    // Update and confirm match: the tracking ids a task links go in one piece (decision 161).
    const cap = opts.slicing?.maxRows ?? SLICING.pg.maxRows;
    const pieces = mode === 'import' ? [...groups.values()] : await piecesAlongTasks([...groups.values()], await linksOf(db, [...groups.keys()]), cap);
    await applyInSlices(db, pieces, {
      rowsOf: (piece) => piece.length,
      outsOf: (piece) => piece.map((t) => t.c.out),
      apply: (tx, slice) => applySlice(tx, actor, mode, slice.flat(), opts.matchChunk),
      budgetMs: opts.budgetMs ?? TRACKING_APPLY_BUDGET_MS,
      slicing: opts.slicing,
      // An import's slices read nothing another writes; an update's or a confirm's lock the tasks
      // they share (matching's lock order) and read once they hold them.
      overlap: true,
    });
    await noteNearMisses(db, checked);
    nameErrorCells(
      checked.map((c) => c.out),
      place,
      'tracking',
    );
    // Never a plain 导入成功 for an id whose leading zeros Excel may have dropped.
    for (const c of checked) if (c.trackingAsNumber && c.out.msg) c.out.msg = withCellWarning(c.out.msg, place, c.out.line, 'tracking', M.trackingAsNumber);
    return uploadResult(checked.map((c) => c.out));
  });
}

/**
 * Tracking ids a read of their task links takes (linksOf): on PGlite one read of a 50,000-row file's
 * held the one connection 100-150 ms, a wait for every request (decision 180).
 */
const LINKS_PER_READ = 5000;

/** taskLinks of a file's tracking ids, LINKS_PER_READ at a time, other requests served between two reads. */
async function linksOf(db: Db, trackingIds: string[]) {
  const links: Awaited<ReturnType<typeof taskLinks>> = [];
  for (let i = 0; i < trackingIds.length; i += LINKS_PER_READ) {
    if (i) await throughPoll();
    links.push(...(await taskLinks(db, trackingIds.slice(i, i + LINKS_PER_READ))));
  }
  return links;
}

/** Tracking ids of one upload looked up for near records (decision 098): the first this many of the file, in NEAR_KEYS_PER_STATEMENT statements. */
export const NEAR_UPLOAD_KEYS = 5000;

/**
 * A row applied (or skipped) whose tracking id no member recorded says which records are near it
 * ('…；可能是 …（任务 12-1）', decision 098): after the slices, in statements paced as nearPacingOf says.
 */
async function noteNearMisses(db: Db, checked: CheckedRow[]) {
  const applied = checked.filter((c) => c.out.opStatus !== 'error');
  const keys = [...new Set(applied.map((c) => c.tracking))].slice(0, NEAR_UPLOAD_KEYS);
  if (!keys.length) return;
  const near = await nearRecords(db, keys, { unrecordedOnly: true, pacing: nearPacingOf(db) });
  for (const c of applied) {
    const records = near.get(c.tracking);
    if (records?.length) c.out.msg = nearMissMessages.upload(c.out.msg ?? '', records);
  }
}

/**
 * The rows of each tracking id (`groups`, in file order) gathered into pieces of whole tracking ids:
 * those a task links (`links`, its records) in one piece, each piece in the order the file first
 * names its tracking ids, cut after `cap` rows. Two pieces then share no task (unless one task links
 * more than `cap` rows), so each task is judged in one slice, and two slices in flight seldom wait for
 * each other's task locks.
 */
async function piecesAlongTasks(groups: Todo[][], links: { trackingId: string; taskId: number }[], cap: number): Promise<Todo[][]> {
  const parent = new Map<string, string>();
  const root = (t: string): string => {
    let r = t;
    while (parent.get(r) !== r) r = parent.get(r)!;
    for (let k = t; k !== r;) {
      const next = parent.get(k)!;
      parent.set(k, r);
      k = next;
    }
    return r;
  };
  const pacer = new Pacer();
  await forEachPaced(groups, (group) => parent.set(group[0]!.c.tracking, group[0]!.c.tracking), pacer);
  const firstOfTask = new Map<number, string>();
  await forEachPaced(
    links,
    ({ trackingId, taskId }) => {
      const other = firstOfTask.get(taskId);
      if (other === undefined) firstOfTask.set(taskId, trackingId);
      else parent.set(root(trackingId), root(other));
    },
    pacer,
  );
  const linked = new Map<string, Todo[][]>();
  await forEachPaced(
    groups,
    (group) => {
      const r = root(group[0]!.c.tracking);
      const members = linked.get(r);
      if (members) members.push(group);
      else linked.set(r, [group]);
    },
    pacer,
  );
  const pieces: Todo[][] = [];
  await forEachPaced(
    linked.values(),
    (members) => {
      let piece: Todo[] = [];
      for (const group of members) {
        if (piece.length && piece.length + group.length > cap) {
          pieces.push(piece);
          piece = [];
        }
        piece.push(...group);
      }
      pieces.push(piece);
    },
    pacer,
  );
  return pieces;
}

/** A valid row with the item it names (import), after the checks that need no lock. */
type Todo = { c: CheckedRow; item: ItemBrief | null };

/**
 * The checks that need no lock, before anything is written: each valid row's item (商品ID, or the
 * catalogue's item of its upc in import) and duplicates within the file (after the upc is known).
 * Fills in the answer of the rows refused here; answers the others.
 */
async function resolveRows(db: Db, checked: CheckedRow[], mode: TrackingUploadMode, place: SheetPlace<ColumnKey>): Promise<Todo[]> {
  const valid = checked.filter((c) => c.out.opStatus === 'succ');
  const { byId, byUpc } = await loadItems(
    db,
    valid.flatMap((c) => (c.fileItemId !== null ? [c.fileItemId] : [])),
    mode === 'import' ? valid.flatMap((c) => (c.fileItemId === null && c.upc ? [c.upc] : [])) : [],
  );
  const seen = new Map<string, number>();
  const todo: Todo[] = [];
  await forEachPaced(valid, (c) => {
    const fail = (msg: string) => {
      c.out.opStatus = 'error';
      c.out.msg = msg;
    };
    let item: ItemBrief | null = null;
    if (c.fileItemId !== null) {
      item = byId.get(c.fileItemId) ?? null;
      if (!item) return fail(cellMessage(place, c.out.line, 'itemId', M.itemNotFound));
      if (!c.upc && mode !== 'confirm') {
        if (!item.upc?.trim()) return fail(M.itemNoUpc);
        c.upc = item.upc.trim();
        c.out.upc = c.upc;
      }
    } else if (mode === 'import') {
      item = byUpc.get(productCodeKey(c.upc)) ?? null;
    }
    // One product per (tracking, upc) however the upc is written (decision 075).
    const key = `${c.tracking}\u0000${productCodeKey(c.upc)}`;
    const first = seen.get(key);
    if (first !== undefined) return fail(M.duplicate(first));
    seen.set(key, c.out.line);
    todo.push({ c, item });
  });
  return todo;
}

/**
 * One slice, in its transaction: the locks of its tracking ids (db/matching-store.ts: tracking ids
 * before anything else), their stored rows, the plan, its writes, and matching of the tracking ids
 * it changed.
 */
async function applySlice(tx: Tx, actor: SessionUser, mode: TrackingUploadMode, todo: Todo[], matchChunk = MATCH_CHUNK) {
  const trackingIds = [...new Set(todo.map((t) => t.c.tracking))];
  // A confirm writes nothing before matching (matching writes the seen rows): one read under the
  // locks serves its plan and its matching. Import and update read the rows alone (update writes
  // before matching, which then reads for itself), an import with the ids of the rows it may insert
  // (one a row; a row skipped leaves a gap in the sequence), in the same wait as the locks.
  const state = mode === 'confirm' && trackingIds.length <= matchChunk ? await lockAndRead(tx, trackingIds) : undefined;
  const [stored, newIds] = state
    ? [state.scans, []]
    : await lockThenRead(tx, trackingIds, () => Promise.all([rowsOfTrackings(tx, trackingIds), mode === 'import' ? newScanIds(tx, todo.length) : []]));
  // The plan is made in a function of its own, so what it read is garbage before the writes and matching.
  const plan = planSlice(todo, stored, mode);
  await flush(tx, actor, plan, 'upload.import', newIds);
  // Confirmed rows are written by matching, once, in their matched state (audited upload.confirm).
  if (plan.match.size)
    await matchTrackings(tx, plan.match, actor, {
      seen: plan.seen.size ? { counts: plan.seen, action: 'upload.confirm' } : undefined,
      chunk: matchChunk,
      state,
    });
}

/** Plans the writes of a slice's rows against the stored rows of their tracking ids (read under their locks); fills in each row's answer. */
function planSlice(todo: Todo[], existing: Map<string, ScanRow[]>, mode: TrackingUploadMode): Plan {
  const plan: Plan = { inserts: [], updates: [], deletes: [], match: new Set(), seen: new Map() };
  for (const { c, item } of todo) {
    const ofTracking = existing.get(c.tracking) ?? [];
    // The rows of the row's product, their upc however written (decision 075).
    const ofUpc = c.upc ? ofTracking.filter((r) => sameProductCode(r.upc, c.upc)) : ofTracking;
    const out = c.out;
    const result = (opStatus: UploadResultRow['opStatus'], msg: string) => {
      out.opStatus = opStatus;
      // A UPC whose check digit fails is taken, and flagged (decision 074).
      out.msg = opStatus !== 'error' && failsCheckDigit(c.upc) ? `${msg}；${productCodeMessages.checkDigit}` : msg;
    };
    const describe = (r: ScanRow | undefined) => {
      if (!r) return;
      out.itemId = r.itemId;
      out.name = r.itemName;
    };
    if (mode === 'import') {
      if (ofUpc.length) {
        describe(ofUpc[0]);
        out.oldQty = sum(ofUpc);
        result('skip', M.alreadyRecorded);
        continue;
      }
      out.itemId = item?.id ?? null;
      if (item) out.name = item.itemName;
      plan.inserts.push({ trackingId: c.tracking, upc: c.upc, count: c.qty!, itemId: item?.id ?? null, itemName: item?.itemName ?? out.name ?? '' });
      result('succ', M.imported);
    } else if (mode === 'update') {
      describe(ofUpc[0]);
      if (!ofUpc.length) result('error', M.noRecord);
      else if (ofUpc.some(isFrozen)) result('error', M.frozen);
      else {
        out.oldQty = sum(ofUpc);
        if (ofUpc.length === 1 && ofUpc[0]!.count === c.qty) {
          result('skip', M.unchanged);
          continue;
        }
        const [keep, ...merged] = ofUpc;
        plan.updates.push({ before: keep!, count: c.qty!, status: keep!.status, action: 'upload.update' });
        for (const row of merged) plan.deletes.push({ row, into: keep!.id });
        if (ofUpc.some(isSeen)) plan.match.add(c.tracking);
        result('succ', M.saved);
      }
    } else {
      describe(ofUpc[0]);
      const announced = ofUpc.filter(isAnnounced);
      if (!ofUpc.length) result('error', c.upc ? M.notImported : M.notImportedTracking);
      else if (!announced.length) {
        out.oldQty = sum(ofUpc);
        result('skip', M.alreadySeen);
      } else {
        out.oldQty = sum(announced);
        // (tracking, product) has at most one init row (import skips a pair that has rows; scanning
        // an imported upc sees its row; modify refuses a pair another row has), so a filled
        // 数量 is that row's count.
        announced.forEach((r, k) => plan.seen.set(r.id, k === 0 && c.qty !== null ? c.qty : r.count));
        out.qty = c.qty ?? sum(announced);
        plan.match.add(c.tracking);
        result('succ', M.confirmed);
      }
    }
  }
  return plan;
}

/**
 * The template: the columns above with tracking and upc formatted as text, and a help sheet.
 *
 * Text columns (tracking, upc) are formatted as text so Excel keeps leading zeros and long ids; a
 * number Excel already rounded is refused for the row rather than stored wrong.
 */
export function trackingTemplate(): Buffer {
  const header = TRACKING_COLUMNS.map((c) => c.headers[0]!);
  const help: [string, string, string][] = [
    ['快递单号', '必填', '包裹的快递单号，最多64个字符'],
    ['UPC', '必填列', '商品条码，最多64个字符；填写了商品ID时可留空（使用商品的UPC）；确认时留空表示确认该快递单号的全部导入记录'],
    ['商品ID', '选填', '导入：记录的商品（须已存在）；不填时按UPC查找商品'],
    ['商品名称', '选填', '导入：找不到商品时作为记录的商品名称'],
    ['快递公司', '选填', '仅供参考，不会保存'],
    ['数量', '导入、更新必填', `该快递单号中此商品的数量，1到${MAX_SCAN_COUNT}的整数；确认时选填（填写则以此数量为准）`],
    ['', '', ''],
    ['导入', '', '预先登记尚未到货的包裹：新增状态为“已导入”的记录；该快递单号已有此UPC的记录时跳过'],
    ['更新', '', '修改已有记录的数量（结果中的“原数目”为修改前的数量）；没有该记录时报错；已进入付款流程的记录不能修改'],
    ['确认', '', '包裹已到货：已导入的记录变为“已扫描”并进行匹配；已扫描过的跳过；没有导入过的报错'],
    ['', '', ''],
    [
      '说明',
      '',
      `读取含表头的第一个工作表（表头可在前几行）；支持 .xlsx、.xls、.ods、.csv；每次最多${TRACKING_LIMITS.maxRows}行，文件最大${Math.floor(TRACKING_LIMITS.maxBytes / 1024 / 1024)}MB`,
    ],
  ];
  return writeWorkbook([
    { name: '扫描记录', header, rows: [], widths: [28, 16, 10, 28, 14, 8], textColumns: [0, 1, 2], blankTextRows: 500 },
    { name: '填写说明', header: ['列', '是否必填', '说明'], rows: help, widths: [12, 14, 80] },
  ]);
}
