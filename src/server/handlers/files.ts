// Uploads and downloads (SPEC §7 "Uploads and downloads"; DECISIONS "Files"): the
// purchased-records and tracking Excel uploads and their templates, the label PDF of a task, the
// member's task export, the admin's tracking export and the task-amount export (rows and filters:
// money/statistics.ts), each download behind a short-lived token of
// its own (files/download-tokens.ts); the withdraw export's handler is in withdraw.ts (its rows:
// files/withdraw-export.ts), and the board export (files/board-export.ts). The rows these read come
// from those modules and boards/task-queries.ts (decision 164). A large upload's fine rows are paged
// from where the upload ran (files/upload-results.ts, decision 172).
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/client.ts';
import type { components } from '../../api/schema';
import { BOARD_NOT_FOUND, isAdminSide } from '../boards/visibility.ts';
import { loadSpec, type UserRole } from '../contract.ts';
import { formatTime } from '../dates.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { DOWNLOAD_MESSAGES, issueDownloadToken, redeemDownloadToken, type DownloadKind, type DownloadParams } from '../files/download-tokens.ts';
import { renderLabelsPdf } from '../files/labels-pdf.ts';
import { taskDisplayId } from '../../../machines/task.machine.ts';
import { boardExists, boardForExport, boardWorkbook } from '../files/board-export.ts';
import { taskOwnerOf, taskWithOwner } from '../boards/task-queries.ts';
import { purchasedTemplate } from '../files/purchased-upload.ts';
import { userTaskFilters, userTaskParams, userTasksForExport, userTaskWorkbook } from '../files/user-task-export.ts';
import { MAX_TRACKING_EXPORT_ROWS, trackingExportMessages, trackingWorkbook } from '../files/tracking-export.ts';
import { trackingTemplate } from '../files/tracking-upload.ts';
import type { UploadAction } from '../files/upload-jobs.ts';
import { uploadResultMessages, uploadResultPage } from '../files/upload-results.ts';
import { XLSX_TYPE } from '../files/xlsx-write.ts';
import { withdrawExportParams } from '../files/withdraw-export.ts';
import { taskAmountExportFilters, taskAmountsForExport, taskAmountTokenParams, taskAmountWorkbook } from '../money/statistics.ts';
import { moreThan, scanFilterParams, scanFilters, scanFiltersOf, scansForExport } from '../receiving/scan-queries.ts';
import { TASK_NOT_FOUND } from '../tasks/apply-event.ts';
import { parseIdList } from '../ids.ts';
import { me, ok, type Ctx, type Handlers, type OpRequest } from './types.ts';

type ExcelKind = components['schemas']['ExcelKind'];

export const fileMessages = {
  exportNotOpen: '该导出尚未开放',
} as const;

type TokenQuery = OpRequest<'getExcelDownloadToken'>['query'];

/**
 * Excel exports that exist: the token kind each one redeems, the filters it keeps in the token, and
 * what is checked before a token is issued (the export's own limits).
 */
const BUILT_EXPORTS: Partial<
  Record<ExcelKind, { kind: DownloadKind; params: (q: TokenQuery) => DownloadParams; check?: (db: Db, params: DownloadParams) => Promise<void> }>
> = {
  'user-task': { kind: 'excel.userTask', params: userTaskParams },
  tracking: {
    kind: 'excel.tracking',
    // scanFilters validates nothing itself; the dates are checked by the bounded count below.
    params: (q) => scanFilterParams(scanFilters(q)),
    async check(db, params) {
      if (await moreThan(db, scanFiltersOf(params), MAX_TRACKING_EXPORT_ROWS)) throw badRequest(trackingExportMessages.tooMany);
    },
  },
  // The dates and timezone given here; the sort, user and selected rows come with the link (money/statistics.ts).
  'task-amount': { kind: 'excel.taskAmount', params: taskAmountTokenParams },
  // The board is fixed in the token; the link names it again (files/board-export.ts).
  board: {
    kind: 'excel.board',
    params: (q) => {
      if (q.boardId === undefined) throw badRequest('请选择看板');
      return { boardId: q.boardId, timezone: q.timezone ?? 0 };
    },
    async check(db, params) {
      if (!(await boardExists(db, Number(params.boardId)))) throw notFound(BOARD_NOT_FOUND);
    },
  },
  // The timezone given here; the filters of the admin list come with the link (files/withdraw-export.ts).
  withdraw: { kind: 'excel.withdraw', params: withdrawExportParams },
};

let kindRolesCache: Record<string, UserRole[]> | undefined;
/** x-kind-roles of getExcelDownloadToken in openapi.yaml: who may ask for a token of each kind. */
function kindRoles(): Record<string, UserRole[]> {
  if (kindRolesCache) return kindRolesCache;
  const paths = loadSpec().paths as Record<string, Record<string, { operationId?: string; 'x-kind-roles'?: Record<string, UserRole[]> }>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op?.operationId === 'getExcelDownloadToken') kindRolesCache = op['x-kind-roles'] ?? {};
    }
  }
  if (!kindRolesCache) throw new Error('openapi.yaml: getExcelDownloadToken missing');
  return kindRolesCache;
}

/**
 * Content-Disposition of a download: `filename` is plain ASCII ([A-Za-z0-9._-], anything else
 * becomes '_'), so no header injection or path is possible; `utf8Name` adds the readable
 * (Chinese) name as RFC 6266 filename*.
 */
export function attachment(filename: string, utf8Name?: string) {
  const safe = filename.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'download';
  // RFC 5987 attr-char: encodeURIComponent leaves ' ( ) * as they are, which it does not allow.
  const ext = utf8Name && encodeURIComponent(utf8Name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${safe}"${ext ? `; filename*=UTF-8''${ext}` : ''}`;
}

function sendFile(reply: FastifyReply, body: Buffer, type: string, disposition: string): FastifyReply {
  return (
    reply
      .status(200)
      .header('content-type', type)
      .header('content-disposition', disposition)
      // Personal data in a file: not kept by the browser cache or a proxy.
      .header('cache-control', 'no-store')
      .send(body)
  );
}

let templateCache: Buffer | undefined;
let trackingTemplateCache: Buffer | undefined;

/** The uploaded file's bytes: the contract's field is `file`; a file under another name is not the upload. */
export function uploadedBytes(req: { raw: OpRequest<'importPurchasedExcel'>['raw'] }) {
  const file = req.raw.upload;
  return file && file.field === 'file' ? file.buffer : null;
}

/**
 * A purchased or tracking upload, run where uploads run (files/upload-jobs.ts), which also builds
 * the answer's bytes: 50,000 result rows serialized in one piece held the thread for ~1 s.
 */
async function upload(req: Pick<OpRequest<'importPurchasedExcel'>, 'raw' | 'user'>, ctx: Ctx, reply: FastifyReply, action: UploadAction) {
  const body = await ctx.uploads.run({ ...action, actor: me(req), bytes: uploadedBytes(req) });
  return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(body);
}

export const filesHandlers: Handlers = {
  async importPurchasedExcel(req, ctx, reply) {
    return upload(req, ctx, reply, { kind: 'purchased', mode: 'import' });
  },

  async updatePurchasedExcel(req, ctx, reply) {
    return upload(req, ctx, reply, { kind: 'purchased', mode: 'update' });
  },

  /** Anonymous: the template holds no data. Built once per process. */
  async downloadPurchasedTemplate(_req, _ctx, reply) {
    templateCache ??= purchasedTemplate();
    return sendFile(reply, templateCache, XLSX_TYPE, attachment('purchased-template.xlsx', '采购记录上传模板.xlsx'));
  },

  async importTrackingExcel(req, ctx, reply) {
    return upload(req, ctx, reply, { kind: 'tracking', mode: 'import' });
  },

  async updateTrackingExcel(req, ctx, reply) {
    return upload(req, ctx, reply, { kind: 'tracking', mode: 'update' });
  },

  async confirmTrackingExcel(req, ctx, reply) {
    return upload(req, ctx, reply, { kind: 'tracking', mode: 'confirm' });
  },

  /** Anonymous, like the purchased template. */
  async downloadTrackingTemplate(_req, _ctx, reply) {
    trackingTemplateCache ??= trackingTemplate();
    return sendFile(reply, trackingTemplateCache, XLSX_TYPE, attachment('tracking-template.xlsx', '扫描记录上传模板.xlsx'));
  },

  /** The fine rows an upload's answer left out (decision 172), kept in the database; only the uploader's. */
  async listUploadResultRows(req, ctx) {
    const page = await uploadResultPage(ctx.db, me(req).id, req.params.resultId, req.query.page ?? 0, req.query.size ?? 20);
    if (!page) throw notFound(uploadResultMessages.gone);
    return ok(page);
  },

  /** A member: own tasks only (another's reads as not existing); the admin side: any task. */
  async getPdfDownloadToken(req, ctx) {
    const user = me(req);
    const task = await taskOwnerOf(ctx.db, req.params.id);
    if (!task || (!isAdminSide(user) && task.userId !== user.id)) throw notFound(TASK_NOT_FOUND);
    return ok(await issueDownloadToken(ctx.db, { actor: user, kind: 'pdf.labels', resourceId: task.id }));
  },

  async downloadTaskPdf(req, ctx, reply) {
    const { user } = await redeemDownloadToken(ctx.db, req.params.token, 'pdf.labels', req.params.id);
    const row = await taskWithOwner(ctx.db, req.params.id);
    // Checked again at download: a token outlives nothing, but the task's owner could have changed.
    if (!row || (user.roleType === 'user' && row.task.userId !== user.id)) throw notFound(DOWNLOAD_MESSAGES.invalid);
    const pdf = await renderLabelsPdf(row.task, row.owner);
    const id = taskDisplayId(row.task);
    return sendFile(reply, pdf, 'application/pdf', attachment(`labels-${id}.pdf`));
  },

  /** Roles per kind from the contract's x-kind-roles (A00003), then only exports that exist (A00001). */
  async getExcelDownloadToken(req, ctx) {
    const user = me(req);
    const kind = req.params.kind;
    if (!(kindRoles()[kind] ?? []).includes(user.roleType)) throw forbidden();
    const built = BUILT_EXPORTS[kind];
    if (!built) throw badRequest(fileMessages.exportNotOpen);
    const params = built.params(req.query);
    await built.check?.(ctx.db, params);
    return ok(await issueDownloadToken(ctx.db, { actor: user, kind: built.kind, params }));
  },

  async exportUserTaskExcel(req, ctx, reply) {
    const { user, params } = await redeemDownloadToken(ctx.db, req.params.token, 'excel.userTask');
    // x-kind-roles: the member's own export; an account no longer a member gets nothing.
    if (user.roleType !== 'user') throw notFound(DOWNLOAD_MESSAGES.invalid);
    const filters = userTaskFilters(params);
    const list = await userTasksForExport(ctx.db, user.id, filters);
    const stamp = formatTime(Date.now(), filters.timezone).replace(/[-: ]/g, '');
    return sendFile(reply, userTaskWorkbook(list, filters.timezone), XLSX_TYPE, attachment(`my-tasks-${stamp}.xlsx`, `我的任务-${stamp}.xlsx`));
  },

  async exportTrackingExcel(req, ctx, reply) {
    const { user, params } = await redeemDownloadToken(ctx.db, req.params.token, 'excel.tracking');
    // x-kind-roles: the admin side's export; an account no longer on the admin side gets nothing.
    if (user.roleType === 'user') throw notFound(DOWNLOAD_MESSAGES.invalid);
    const filters = scanFiltersOf(params);
    const rows = await scansForExport(ctx.db, filters, MAX_TRACKING_EXPORT_ROWS);
    const stamp = formatTime(Date.now(), filters.timezone).replace(/[-: ]/g, '');
    return sendFile(reply, trackingWorkbook(rows, filters.timezone), XLSX_TYPE, attachment(`trackings-${stamp}.xlsx`, `扫描记录-${stamp}.xlsx`));
  },

  async exportBoardExcel(req, ctx, reply) {
    const { user, params } = await redeemDownloadToken(ctx.db, req.params.token, 'excel.board');
    // x-kind-roles: the admin side's export; an account no longer on the admin side gets nothing.
    if (user.roleType === 'user' || Number(params.boardId) !== req.query.boardId) throw notFound(DOWNLOAD_MESSAGES.invalid);
    const data = await boardForExport(ctx.db, req.query.boardId);
    if (!data) throw notFound(BOARD_NOT_FOUND);
    const timezone = Number(params.timezone) || 0;
    const stamp = formatTime(Date.now(), timezone).replace(/[-: ]/g, '');
    return sendFile(
      reply,
      boardWorkbook(data, timezone),
      XLSX_TYPE,
      attachment(`board-${data.board.id}-${stamp}.xlsx`, `看板-${data.board.boardName}-${stamp}.xlsx`),
    );
  },

  async exportTaskAmountExcel(req, ctx, reply) {
    const { user, params } = await redeemDownloadToken(ctx.db, req.params.token, 'excel.taskAmount');
    // x-kind-roles: the admin side's export; an account no longer on the admin side gets nothing.
    if (user.roleType === 'user') throw notFound(DOWNLOAD_MESSAGES.invalid);
    const { userIds, ...link } = req.query;
    const filters = taskAmountExportFilters(params, link);
    const rows = await taskAmountsForExport(ctx.db, filters, userIds ? parseIdList(userIds, 'userIds') : undefined);
    const stamp = formatTime(Date.now(), filters.timezone ?? 0).replace(/[-: ]/g, '');
    return sendFile(reply, taskAmountWorkbook(rows), XLSX_TYPE, attachment(`task-amounts-${stamp}.xlsx`, `订单金额-${stamp}.xlsx`));
  },
};
