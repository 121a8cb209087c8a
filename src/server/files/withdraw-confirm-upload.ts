// The admin's confirmation of paid withdraw lines by Excel upload (SPEC §4 "the admin confirms
// payment orders by Excel upload", §7 "Admin: ... confirm (file upload)", §8 "Withdraw-confirm upload
// failure: '上传错误'"; DECISIONS "Money": "Admin confirm by Excel upload marks the listed lines paid,
// all or nothing, and reports each row"; "Files"). The template is the Excel export of
// /admin/withdraw-list (withdraw-export.ts, same headers): export the waited lines, pay them, upload
// the file. Unlike the other uploads it is all or nothing in ONE transaction (decision 060: the
// listed lines are paid together or not at all), through withdraw-service.ts payLines.
import { sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { paymentTypeLabel } from '../../../machines/bank-card.ts';
import { amountToCents, decideWithdrawLine, PAID_WITHDRAW_STATUS } from '../../../machines/withdraw.machine.ts';
import type { Db } from '../db/client.ts';
import { withdrawRequests } from '../db/schema/money.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { fromCents } from '../money/cents.ts';
import { masked } from '../money/card-crypto.ts';
import { lockOrderLines, payLines, withdrawServiceMessages } from '../money/withdraw-service.ts';
import { publicOrderId, type LineRow } from '../money/withdraw-shapes.ts';
import { parseSheet, SHEET_LIMITS, type SheetColumn, type SheetLimits, type SheetRow } from './parse-sheet.ts';
import { mapPaced } from './slices.ts';
import { applyInOneTransaction, cellText, isRoundedNumber, uploadResult, wholeNumber } from './upload-rows.ts';

type UploadResult = components['schemas']['UploadResult'];
type UploadResultRow = components['schemas']['UploadResultRow'];

/** The header the export writes for each column (the first spelling). */
export const CONFIRM_HEADERS = { id: '提现ID', orderId: '订单号', amount: '金额' } as const;

const column = <K extends string>(key: K, headers: string[], required: boolean): SheetColumn<K> => ({ key, headers, required });
/**
 * The file (decision): the first sheet, a header row, one row per paid line, columns matched by
 * name like the other uploads (any order; other spellings here):
 *   提现ID  required  the line's id (the requestId / id of the lists; the first column of the export)
 *   订单号  optional  when filled, must be the line's orderId (a check against a wrong row)
 *   金额    optional  when filled, must be the line's amount to the cent (a check as well)
 * Any other column is ignored, so the export is the template.
 */
export const CONFIRM_COLUMNS = [
  column('id', [CONFIRM_HEADERS.id, 'id', 'requestId', 'request id', '提现编号'], true),
  column('orderId', [CONFIRM_HEADERS.orderId, 'orderId', 'order id', '订单ID'], false),
  column('amount', [CONFIRM_HEADERS.amount, 'withdrawAmount', '提现金额', 'amount'], false),
] as const;
type ColumnKey = (typeof CONFIRM_COLUMNS)[number]['key'];

export const withdrawConfirmMessages = {
  idRequired: '请填写提现ID',
  idInvalid: '提现ID格式不正确',
  orderIdInvalid: '订单号格式不正确',
  amountInvalid: '金额格式不正确',
  duplicate: (line: number) => `与第${line}行的提现ID重复`,
  notFound: withdrawServiceMessages.notFound,
  orderMismatch: '订单号与该提现记录不符',
  amountMismatch: '金额与该提现记录不符',
  alreadyPaid: '已付款',
  confirmed: '确认成功',
  notApplied: '未处理：文件中有错误行',
  /** The answer's msg when a row is an error (nothing applied). */
  rejected: (error: number) => `上传失败：${error}行有错误，未做任何修改`,
} as const;
const M = withdrawConfirmMessages;

export const CONFIRM_LIMITS: SheetLimits = SHEET_LIMITS;

interface Checked {
  out: UploadResultRow;
  id: number | null;
  orderId: number | null;
  cents: number | null;
}

function checkRow(row: SheetRow<ColumnKey>): Checked {
  const v = row.values;
  const out: UploadResultRow = { line: row.line, itemId: null, name: '', opStatus: 'error', msg: '' };
  const checked: Checked = { out, id: null, orderId: null, cents: null };
  const fail = (msg: string) => {
    out.msg = msg;
    return checked;
  };
  const idText = cellText(v.id);
  if (!idText) return fail(M.idRequired);
  const id = wholeNumber(v.id);
  if (id === null || id < 1 || id > 2_147_483_647 || isRoundedNumber(v.id)) return fail(M.idInvalid);
  checked.id = id;
  out.itemId = id;
  if (cellText(v.orderId)) {
    const orderId = wholeNumber(v.orderId);
    if (orderId === null || orderId < 1 || orderId > 2_147_483_647) return fail(M.orderIdInvalid);
    checked.orderId = orderId;
  }
  if (cellText(v.amount)) {
    const cents = amountToCents(typeof v.amount === 'number' ? v.amount : cellText(v.amount));
    if (cents === null) return fail(M.amountInvalid);
    checked.cents = cents;
  }
  out.opStatus = 'succ';
  return checked;
}

const summary = (l: LineRow) =>
  `订单${publicOrderId(l.orderId)} ${paymentTypeLabel(l.paymentType)} ${l.cardNoEncrypt ? masked(l.cardNoLast4) : ''} ${fromCents(l.withdrawAmount).toFixed(2)}`.replace(
    /\s+/g,
    ' ',
  );

/**
 * Parses, checks and (when every row is valid) applies one confirm upload.
 *
 * All or nothing: every row is checked under the locks of the lines' orders; if any row is an
 * error, nothing changes and the answer lists every row (errors with their reason, the others
 * opStatus skip '未处理：文件中有错误行'). Otherwise every listed waited line is paid through
 * withdraw-service.ts payLines (wd.pay by the machine, cancelFlag cleared on the order, the
 * applications of wholly paid orders pay.paid) in ONE transaction; a line already paid is skip
 * ('已付款'), so uploading the same file twice changes nothing the second time. The answer is the
 * UploadResult of the other uploads (A00000; `error` > 0 means nothing was applied), each row with
 * itemId = the line id and name = a summary of the line (order, type, masked card number, amount).
 */
export async function confirmWithdrawUpload(
  db: Db,
  actor: SessionUser,
  bytes: Buffer | null | undefined,
  limits: SheetLimits = CONFIRM_LIMITS,
): Promise<UploadResult> {
  const { rows } = await parseSheet(bytes, CONFIRM_COLUMNS, limits, { adminSide: true });
  const checked = await mapPaced(rows, checkRow);
  const firstLine = new Map<number, number>();
  for (const c of checked) {
    if (c.out.opStatus !== 'succ' || c.id === null) continue;
    const first = firstLine.get(c.id);
    if (first !== undefined) {
      c.out.opStatus = 'error';
      c.out.msg = M.duplicate(first);
    } else firstLine.set(c.id, c.out.line);
  }

  await applyInOneTransaction(db, async (tx) => {
    const valid = checked.filter((c) => c.out.opStatus === 'succ');
    const ids = valid.map((c) => c.id!);
    // A line's order never changes: read it, then lock every line of those orders (lock order step 1).
    const found = ids.length
      ? await tx
          .select({ id: withdrawRequests.id, orderId: withdrawRequests.orderId })
          .from(withdrawRequests)
          .where(sql`${withdrawRequests.id} = any(${sql.param(ids)}::int[])`)
      : [];
    const orderLines = await lockOrderLines(
      tx,
      found.map((f) => f.orderId),
    );
    const byId = new Map(orderLines.map((l) => [l.id, l]));
    const toPay: LineRow[] = [];
    for (const c of valid) {
      const out = c.out;
      const result = (opStatus: UploadResultRow['opStatus'], msg: string) => {
        out.opStatus = opStatus;
        out.msg = msg;
      };
      const line = byId.get(c.id!);
      if (!line) {
        result('error', M.notFound);
        continue;
      }
      out.name = summary(line);
      if (c.orderId !== null && publicOrderId(line.orderId) !== c.orderId) result('error', M.orderMismatch);
      else if (c.cents !== null && line.withdrawAmount !== c.cents) result('error', M.amountMismatch);
      else if (line.status === PAID_WITHDRAW_STATUS) result('skip', M.alreadyPaid);
      else {
        const d = decideWithdrawLine(line, { type: 'wd.pay', by: 'admin' });
        if (!d.ok) result('error', d.msg);
        else {
          toPay.push(line);
          result('succ', M.confirmed);
        }
      }
    }
    if (checked.some((c) => c.out.opStatus === 'error')) {
      for (const c of checked) {
        if (c.out.opStatus === 'succ') {
          c.out.opStatus = 'skip';
          c.out.msg = M.notApplied;
        }
      }
      return;
    }
    if (toPay.length) await payLines(tx, actor, toPay, orderLines, 'confirm');
  });

  return uploadResult(checked.map((c) => c.out));
}
