// The Excel upload of purchased records (SPEC §2 /user/upload, §3 "Upload result row", §7
// /api/purchased/user/excel/upload/import|update; DECISIONS "Files"). The file is parsed by
// parse-sheet.ts; an unusable file is refused as a whole (A00001, nothing changes), otherwise every
// row is reported in sheet order. Rows are checked before the first write, then the valid rows go
// through savePurchasedRecords (the record dialog's rules and words) in slices of whole tracking
// ids, each its own transaction taking its locks in matching's one lock order
// (docs/decisions/060-uploads-in-slices.md), so the same file again finishes an interrupted upload.
// A member has one upload in flight at a time (upload-gate.ts, decision 061).
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import type { Db, Tx } from '../db/client.ts';
import { tasks } from '../db/schema/tasks.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { MAX_PRODUCT_COUNT, MAX_TRACKING_ID, purchasedMessages, savePurchasedRecords } from '../tasks/purchased-service.ts';
import { canonicalTrackingId } from '../../../machines/tracking-id.ts';
import { TASK_NOT_FOUND } from '../tasks/apply-event.ts';
import { parseSheet, SHEET_LIMITS, type Cell, type SheetColumn, type SheetLimits, type SheetPlace, type SheetRow } from './parse-sheet.ts';
import { forEachPaced, mapPaced, type Slicing } from './slices.ts';
import { oneUploadPerMember } from './upload-gate.ts';
import { isAdminSide } from '../boards/visibility.ts';
import {
  applyInSlices,
  cellMessage,
  cellText as text,
  foldedText,
  isNumberCell,
  isRoundedNumber,
  nameErrorCells,
  uploadResult,
  uploadRowMessages,
  wholeNumber,
  withCellWarning,
} from './upload-rows.ts';
import { writeWorkbook } from './xlsx-write.ts';

type UploadResult = components['schemas']['UploadResult'];
type UploadResultRow = components['schemas']['UploadResultRow'];
export type PurchasedUploadMode = 'import' | 'update';

/**
 * The template (GET /ext/excel/template/purchased) has one sheet "采购记录" with these columns;
 * headers are matched by name (any order, width- and case-insensitive, other spellings here), the
 * first non-blank row is the header:
 *   任务ID     required  the task: its id, or mainId-subId as the task lists show it (12, 12-1)
 *   商品ID     optional  for the reader; when filled it must be the task's item (catches a wrong task id)
 *   商品名称   optional  for the reader only
 *   tracking   required  the tracking id (at most 64 characters)
 *   快递公司   optional  the carrier, for the reader only (not stored)
 *   数量       required  units bought under that tracking id (1..1000000)
 * The id columns and tracking are formatted as text in the template, so Excel keeps "12-1" and a
 * 22-digit tracking id as typed; a tracking id that Excel already turned into a rounded number is
 * refused for the row rather than stored wrong.
 */
export const PURCHASED_COLUMNS = [
  { key: 'taskId', headers: ['任务ID', '任务编号', 'taskId', 'task id', 'task'], required: true },
  { key: 'itemId', headers: ['商品ID', '商品编号', 'itemId', 'item id'], required: false },
  { key: 'name', headers: ['商品名称', '商品', 'name', 'itemName', 'item name'], required: false },
  { key: 'tracking', headers: ['快递单号', 'tracking', 'trackingId', 'tracking id', 'tracking号', '运单号', '物流单号'], required: true },
  { key: 'express', headers: ['快递公司', '快递', 'express', 'carrier'], required: false },
  { key: 'qty', headers: ['数量', '数目', 'qty', 'count', 'productCount', 'quantity'], required: true },
] as const satisfies readonly SheetColumn<string>[];

type ColumnKey = (typeof PURCHASED_COLUMNS)[number]['key'];

/**
 * Data rows of one purchased upload: 10,000, half the parser's general 20,000. The rows are saved
 * set-based (savePurchasedRecords) and matched once at the end, so the time grows linearly (npm run
 * bench measures a full file: docs/performance.md).
 */
export const PURCHASED_LIMITS: SheetLimits = { ...SHEET_LIMITS, maxRows: 10_000 };

/**
 * Wall-clock budget for applying the rows. Past it the rows not yet applied are reported as not
 * processed (uploadRowMessages.notProcessed): a file of many rows for one task makes matching slow
 * slice after slice, and one upload must not keep the server busy for many minutes.
 */
export const PURCHASED_APPLY_BUDGET_MS = 120_000;

export const uploadMessages = {
  taskIdRequired: '请填写任务ID',
  taskIdInvalid: '任务ID格式不正确（如 12 或 12-1）',
  /** A task id such as 1-1 that Excel turned into 1 January: not guessed back (the order of month and day depends on the computer). */
  taskIdDate: (month: number, day: number) =>
    `任务ID被Excel转换成了日期（${month}月${day}日），请将该列设为文本格式后重新填写任务ID（如 ${month}-${day}，以“我的任务”中显示的为准）`,
  itemIdInvalid: '商品ID格式不正确',
  itemMismatch: (taskItem: number) => `商品ID与任务的商品（${taskItem}）不一致`,
  trackingRounded: uploadRowMessages.trackingRounded,
  trackingRequired: uploadRowMessages.trackingRequired,
  noRecordInRow: '未填写快递单号和数量，跳过',
  trackingAsNumber: uploadRowMessages.trackingAsNumber,
  trackingTooLong: purchasedMessages.trackingIdTooLong,
  qtyInvalid: `数目须为1到${MAX_PRODUCT_COUNT}之间的整数`,
  duplicate: (line: number) => `与第${line}行的任务和快递单号重复`,
  busy: uploadRowMessages.busy,
  notProcessed: uploadRowMessages.notProcessed,
} as const;

/** A task reference of the 任务ID column: its id, or its mainId-subId. */
type TaskRef = { id: number } | { mainId: number; subId: number };

/** Full-width digits and dashes are folded first (foldedText): １２－１ is 12-1. */
function taskRefOf(v: Cell): TaskRef | 'missing' | 'invalid' {
  if (v === null || (typeof v === 'string' && v.trim() === '')) return 'missing';
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 1 && v <= 2_147_483_647 ? { id: v } : 'invalid';
  const m = /^(\d{1,10})(?:\s*[-\u2010-\u2015\u2212]\s*(\d{1,9}))?$/.exec(foldedText(v));
  if (!m) return 'invalid';
  const main = Number(m[1]);
  if (main < 1 || main > 2_147_483_647) return 'invalid';
  return m[2] === undefined ? { id: main } : { mainId: main, subId: Number(m[2]) };
}

interface CheckedRow {
  line: number;
  out: UploadResultRow;
  ref?: TaskRef;
  fileItemId?: number | null;
  tracking: string;
  qty?: number;
  /** The tracking id arrived as a number cell (its answer gets trackingAsNumber). */
  trackingAsNumber: boolean;
}

/** Format checks of one row; sets out.opStatus 'error' with the first problem, naming its cell (`place`). */
function checkRow(row: SheetRow<ColumnKey>, place: SheetPlace<ColumnKey>): CheckedRow {
  const v = row.values;
  const tracking = text(v.tracking);
  const qty = wholeNumber(v.qty);
  const itemIdText = text(v.itemId);
  const itemId = itemIdText === '' ? null : wholeNumber(v.itemId);
  const out: UploadResultRow = {
    line: row.line,
    // Echoed for the reader; a cell can hold 32,767 characters, the answer does not need them all.
    tracking: tracking.slice(0, 100),
    name: text(v.name).slice(0, 256),
    itemId: itemId !== null && itemId <= 2_147_483_647 ? itemId : null,
    express: text(v.express).slice(0, 64),
    qty: qty !== null && qty <= 2_147_483_647 ? qty : null,
    oldQty: null,
    opStatus: 'error',
    msg: '',
  };
  const checked: CheckedRow = { line: row.line, out, tracking, fileItemId: out.itemId, trackingAsNumber: isNumberCell(v.tracking) };
  const fail = (key: ColumnKey, msg: string) => {
    out.msg = cellMessage(place, row.line, key, msg);
    return checked;
  };
  const dated = row.dates.includes('taskId') ? /^\d{4}-(\d\d)-(\d\d)$/.exec(text(v.taskId)) : null;
  if (dated) return fail('taskId', uploadMessages.taskIdDate(Number(dated[1]), Number(dated[2])));
  const ref = taskRefOf(v.taskId);
  if (ref === 'missing') return fail('taskId', uploadMessages.taskIdRequired);
  if (ref === 'invalid') return fail('taskId', uploadMessages.taskIdInvalid);
  if (itemIdText !== '' && out.itemId === null) return fail('itemId', uploadMessages.itemIdInvalid);
  // A task without purchased records, as the member's own export writes it (user-task-export.ts).
  if (!tracking && text(v.qty) === '') {
    out.opStatus = 'skip';
    out.msg = uploadMessages.noRecordInRow;
    return checked;
  }
  if (isRoundedNumber(v.tracking)) return fail('tracking', uploadMessages.trackingRounded);
  if (!tracking) return fail('tracking', uploadMessages.trackingRequired);
  if (tracking.length > MAX_TRACKING_ID) return fail('tracking', uploadMessages.trackingTooLong);
  if (text(v.qty) === '') return fail('qty', purchasedMessages.countRequired);
  if (qty === null || qty < 1 || qty > MAX_PRODUCT_COUNT) return fail('qty', uploadMessages.qtyInvalid);
  checked.ref = ref;
  checked.qty = qty;
  out.opStatus = 'succ';
  return checked;
}

type TaskBrief = { id: number; mainId: number; subId: number; userId: number; itemId: number; itemName: string };

/** The referenced tasks the actor may touch (a member: own tasks only), by id and by mainId-subId. */
async function loadTasks(tx: Tx, actor: SessionUser, refs: TaskRef[]) {
  const ids = [...new Set(refs.flatMap((r) => ('id' in r ? [r.id] : [])))];
  const mains = [...new Set(refs.flatMap((r) => ('mainId' in r ? [r.mainId] : [])))];
  const byId = new Map<number, TaskBrief>();
  const byMainSub = new Map<string, TaskBrief>();
  const own = actor.roleType === 'user' ? eq(tasks.userId, actor.id) : undefined;
  const CHUNK = 1000;
  const batches: SQL[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) batches.push(inArray(tasks.id, ids.slice(i, i + CHUNK)));
  for (let i = 0; i < mains.length; i += CHUNK) batches.push(inArray(tasks.mainId, mains.slice(i, i + CHUNK)));
  for (const batch of batches) {
    const rows = await tx
      .select({ id: tasks.id, mainId: tasks.mainId, subId: tasks.subId, userId: tasks.userId, itemId: tasks.itemId, itemName: tasks.itemName })
      .from(tasks)
      .where(own ? and(batch, own) : batch);
    for (const t of rows) {
      byId.set(t.id, t);
      byMainSub.set(`${t.mainId}-${t.subId}`, t);
    }
  }
  return (ref: TaskRef) => ('id' in ref ? byId.get(ref.id) : byMainSub.get(`${ref.mainId}-${ref.subId}`));
}

/**
 * Parses, checks and applies one purchased-records upload.
 *
 * Every row is reported, in sheet order, with line (1-based sheet line), tracking, name, itemId,
 * express, qty, oldQty, opStatus and msg, plus the totals; blank rows are not rows. Rows are checked
 * first (format, duplicates in the file, the task exists and is the caller's own - a member's foreign
 * task id reads '任务不存在' as if it did not exist), all before the first write; then the valid rows
 * go through savePurchasedRecords (import = insert, an existing tracking id is skip; update = change
 * the count, oldQty = before) in slices (upload-rows.ts applyInSlices): each slice is the rows of
 * whole tracking ids, its own transaction, taking its locks first in the one lock order of matching
 * (so two uploads touching the same parcels queue instead of deadlocking) and matching its tracking
 * ids once; other requests are served between slices. Uploading the same file again after an
 * interrupted upload finishes it (import skips the records that exist, update the unchanged counts).
 * Past the time budget (PURCHASED_APPLY_BUDGET_MS) the rows not yet applied are reported as not
 * processed.
 */
export async function uploadPurchased(
  db: Db,
  actor: SessionUser,
  bytes: Buffer | null | undefined,
  mode: PurchasedUploadMode,
  opts: { limits?: SheetLimits; budgetMs?: number; slicing?: Partial<Slicing> } = {},
): Promise<UploadResult> {
  return oneUploadPerMember(actor, async () => {
    const { rows, place } = await parseSheet(bytes, PURCHASED_COLUMNS, opts.limits ?? PURCHASED_LIMITS, { adminSide: isAdminSide(actor) });
    const checked = await mapPaced(rows, (r) => checkRow(r, place));
    // The tasks are read without locks, to answer the rows that cannot be applied before anything
    // is written; savePurchasedRecords locks and checks them again in each slice.
    const taskOf = await loadTasks(
      db,
      actor,
      checked.flatMap((c) => (c.ref ? [c.ref] : [])),
    );
    const seen = new Map<string, number>();
    const groups = new Map<string, Todo[]>();
    await forEachPaced(checked, (c) => {
      if (c.out.opStatus === 'error' || !c.ref) return;
      const task = taskOf(c.ref);
      c.out.opStatus = 'error';
      if (!task) {
        c.out.msg = cellMessage(place, c.line, 'taskId', TASK_NOT_FOUND);
        return;
      }
      c.out.name = task.itemName;
      if (c.fileItemId !== null && c.fileItemId !== undefined && c.fileItemId !== task.itemId) {
        c.out.msg = cellMessage(place, c.line, 'itemId', uploadMessages.itemMismatch(task.itemId));
        return;
      }
      c.out.itemId = task.itemId;
      const trackingKey = canonicalTrackingId(c.tracking); // rows of one parcel however written (decision 097)
      const key = `${task.id}\u0000${trackingKey}`;
      const first = seen.get(key);
      if (first !== undefined) {
        c.out.msg = uploadMessages.duplicate(first);
        return;
      }
      seen.set(key, c.line);
      // The rows of each tracking id, in the order the file first names them: one slice takes all of them.
      const group = groups.get(trackingKey);
      if (group) group.push({ c, task });
      else groups.set(trackingKey, [{ c, task }]);
    });
    await applyInSlices(db, [...groups.values()], {
      rowsOf: (group) => group.length,
      outsOf: (group) => group.map((t) => t.c.out),
      apply: async (tx, slice) => {
        const todo = slice.flat();
        const results = await savePurchasedRecords(
          tx,
          actor,
          todo.map(({ c, task }) => ({ taskId: task.id, trackingId: c.tracking, productCount: c.qty! })),
          mode === 'import' ? 'insert' : 'update',
        );
        results.forEach((res, k) => {
          const out = todo[k]!.c.out;
          out.opStatus = res.opStatus;
          out.msg = res.msg;
          out.oldQty = res.oldQty ?? null;
        });
      },
      budgetMs: opts.budgetMs ?? PURCHASED_APPLY_BUDGET_MS,
      slicing: opts.slicing,
    });
    nameErrorCells(
      checked.map((c) => c.out),
      place,
      'tracking',
    );
    // Never a plain success for an id whose leading zeros Excel may have dropped.
    for (const c of checked)
      if (c.trackingAsNumber && c.out.msg) c.out.msg = withCellWarning(c.out.msg, place, c.line, 'tracking', uploadMessages.trackingAsNumber);
    return uploadResult(checked.map((c) => c.out));
  });
}

/** A row to apply, with its task. */
type Todo = { c: CheckedRow; task: TaskBrief };

/** The template: the columns above with their id and tracking columns formatted as text, and a help sheet. */
export function purchasedTemplate(): Buffer {
  const header = PURCHASED_COLUMNS.map((c) => c.headers[0]);
  const help: [string, string, string][] = [
    ['任务ID', '必填', '任务ID，与“我的任务”中显示的一致，如 12 或 12-1'],
    ['商品ID', '选填', '仅供核对：填写时须与任务的商品一致'],
    ['商品名称', '选填', '仅供参考，不会保存'],
    ['快递单号', '必填', '包裹的快递单号，最多64个字符'],
    ['快递公司', '选填', '仅供参考，不会保存'],
    ['数量', '必填', `该快递单号中此任务的商品数量，1到${MAX_PRODUCT_COUNT}的整数`],
    ['', '', ''],
    ['导入', '', '新增采购记录；任务已有相同快递单号的记录时跳过'],
    ['更新', '', '修改已有记录的数量（结果中的“原数目”为修改前的数量）；没有该记录时报错'],
    ['', '', ''],
    [
      '说明',
      '',
      `读取含表头的第一个工作表（表头可在前几行）；支持 .xlsx、.xls、.ods、.csv；每次最多${PURCHASED_LIMITS.maxRows}行，文件最大${Math.floor(PURCHASED_LIMITS.maxBytes / 1024 / 1024)}MB`,
    ],
  ];
  return writeWorkbook([
    { name: '采购记录', header, rows: [], widths: [12, 10, 28, 28, 14, 8], textColumns: [0, 1, 3], blankTextRows: 500 },
    { name: '填写说明', header: ['列', '是否必填', '说明'], rows: help, widths: [12, 10, 70] },
  ]);
}
