// Uploads and downloads (SPEC §7 "Uploads and downloads"; DECISIONS "Files"; issue 4): the
// purchased-records Excel upload and its template, the label PDF of a task and the member's task
// export, each download behind a short-lived token of its own (files/download-tokens.ts).
// The other Excel exports (withdraw, tracking, board, task-amount) belong to later issues: their
// /ext links stay unbuilt ('未实现') and no token is issued for them ('该导出尚未开放'), so nobody
// holds a link that cannot work.
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { components } from '../../api/schema';
import { isAdminSide } from '../boards/visibility.ts';
import { loadSpec, type UserRole } from '../contract.ts';
import { users } from '../db/schema/accounts.ts';
import { tasks } from '../db/schema/tasks.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { DOWNLOAD_MESSAGES, issueDownloadToken, redeemDownloadToken, type DownloadKind, type DownloadParams } from '../files/download-tokens.ts';
import { renderLabelsPdf, taskDisplayId } from '../files/labels-pdf.ts';
import { purchasedTemplate, uploadPurchased, type PurchasedUploadMode } from '../files/purchased-upload.ts';
import { formatTime, userTaskFilters, userTaskParams, userTasksForExport, userTaskWorkbook } from '../files/user-task-export.ts';
import { XLSX_TYPE } from '../files/xlsx-write.ts';
import { TASK_NOT_FOUND } from '../tasks/apply-event.ts';
import { me, ok, type Ctx, type Handlers, type OpRequest } from './types.ts';

type ExcelKind = components['schemas']['ExcelKind'];

export const fileMessages = {
  exportNotOpen: '该导出尚未开放',
  uploaded: (r: { succ: number; skip: number; error: number }) => `上传完成：成功${r.succ}条，跳过${r.skip}条，失败${r.error}条`,
} as const;

type TokenQuery = OpRequest<'getExcelDownloadToken'>['query'];

/** Excel exports that exist: the token kind each one redeems and the filters it keeps in the token. */
const BUILT_EXPORTS: Partial<Record<ExcelKind, { kind: DownloadKind; params: (q: TokenQuery) => DownloadParams }>> = {
  'user-task': { kind: 'excel.userTask', params: userTaskParams },
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
  return reply
    .status(200)
    .header('content-type', type)
    .header('content-disposition', disposition)
    // Personal data in a file: not kept by the browser cache or a proxy.
    .header('cache-control', 'no-store')
    .send(body);
}

let templateCache: Buffer | undefined;

async function upload(req: OpRequest<'importPurchasedExcel'> | OpRequest<'updatePurchasedExcel'>, ctx: Ctx, mode: PurchasedUploadMode) {
  const file = req.raw.upload;
  // The contract's field is `file`; a file under another name is not the upload.
  const bytes = file && file.field === 'file' ? file.buffer : null;
  const result = await uploadPurchased(ctx.db, me(req), bytes, mode);
  return ok(result, fileMessages.uploaded(result));
}

export const filesHandlers: Handlers = {
  async importPurchasedExcel(req, ctx) {
    return upload(req, ctx, 'import');
  },

  async updatePurchasedExcel(req, ctx) {
    return upload(req, ctx, 'update');
  },

  /** Anonymous: the template holds no data. Built once per process. */
  async downloadPurchasedTemplate(_req, _ctx, reply) {
    templateCache ??= purchasedTemplate();
    return sendFile(reply, templateCache, XLSX_TYPE, attachment('purchased-template.xlsx', '采购记录上传模板.xlsx'));
  },

  /** A member: own tasks only (another's reads as not existing); the admin side: any task. */
  async getPdfDownloadToken(req, ctx) {
    const user = me(req);
    const [task] = await ctx.db.select({ id: tasks.id, userId: tasks.userId }).from(tasks).where(eq(tasks.id, req.params.id));
    if (!task || (!isAdminSide(user) && task.userId !== user.id)) throw notFound(TASK_NOT_FOUND);
    return ok(await issueDownloadToken(ctx.db, { userId: user.id, kind: 'pdf.labels', resourceId: task.id }));
  },

  async downloadTaskPdf(req, ctx, reply) {
    const { user } = await redeemDownloadToken(ctx.db, req.params.token, 'pdf.labels', req.params.id);
    const [row] = await ctx.db
      .select({ task: tasks, owner: { nickName: users.nickName, mailAddr: users.mailAddr } })
      .from(tasks)
      .innerJoin(users, eq(users.id, tasks.userId))
      .where(eq(tasks.id, req.params.id));
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
    return ok(await issueDownloadToken(ctx.db, { userId: user.id, kind: built.kind, params: built.params(req.query) }));
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
};
