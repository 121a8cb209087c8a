// The fine rows of a large upload's answer, kept for paging (docs/decisions/172-uploads-bounded-by-their-caps.md).
// An upload's answer holds its totals and every row that needs attention; when the file had more
// rows than ANSWER_ALL_ROWS, its fine rows (succ without a warning) are left out of it and kept here,
// where GET /api/upload/result/{resultId} pages them (SPEC §3's result rows: every row stays there
// for the result table, SPEC §9's page sizes included). Kept in the database (upload_results), so
// whichever server process or upload worker ran the upload, any process answers the page: as one
// gzipped buffer of JSON lines and their end offsets (no row or object per result row), for
// RESULT_TTL_MS; each keep deletes the results past it.
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import type { Db } from '../db/client.ts';
import { uploadResults } from '../db/schema/files.ts';
import { Pacer } from './slices.ts';

type UploadResultRow = components['schemas']['UploadResultRow'];
export type UploadResultPage = components['schemas']['UploadResultPage'];

/** How long a result stays pageable: an hour, longer than anyone reads one. */
export const RESULT_TTL_MS = 60 * 60 * 1000;

export const uploadResultMessages = {
  gone: '上传结果已过期，请重新上传文件查看（已保存的行会跳过）',
} as const;

const zip = promisify(gzip);
const unzip = promisify(gunzip);
const freshSince = () => new Date(Date.now() - RESULT_TTL_MS);

/** Keeps `rows` for `owner` (a user id); answers the id that pages them. Serialized between turns of the event loop, zipped off it. */
export async function keepUploadResult(db: Db, owner: number, rows: readonly UploadResultRow[]): Promise<string> {
  const pacer = new Pacer();
  const pieces: Buffer[] = [];
  const ends = new Uint32Array(rows.length);
  let at = 0;
  for (let k = 0; k < rows.length; k++) {
    const piece = Buffer.from(JSON.stringify(rows[k]));
    pieces.push(piece);
    at += piece.length;
    ends[k] = at;
    if (k % 256 === 255) await pacer.pace();
  }
  const zipped = await zip(Buffer.concat(pieces, at));
  await db.delete(uploadResults).where(lt(uploadResults.createdAt, freshSince()));
  const [kept] = await db
    .insert(uploadResults)
    .values({ userId: owner, rowCount: rows.length, rows: zipped, ends: Buffer.from(ends.buffer, ends.byteOffset, ends.byteLength) })
    .returning({ id: uploadResults.id });
  return kept!.id;
}

/** A uuid as the contract's path takes any text: anything else names no result (never a database error). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Page `page` (0-based) of `size` rows of result `id`, or null when there is none for `owner` (never kept, expired, or another's). */
export async function uploadResultPage(db: Db, owner: number, id: string, page: number, size: number): Promise<UploadResultPage | null> {
  if (!UUID.test(id)) return null;
  const [kept] = await db
    .select({ rowCount: uploadResults.rowCount, rows: uploadResults.rows, ends: uploadResults.ends })
    .from(uploadResults)
    .where(and(eq(uploadResults.id, sql`${id}::uuid`), eq(uploadResults.userId, owner), gt(uploadResults.createdAt, freshSince())));
  if (!kept) return null;
  const total = kept.rowCount;
  const from = Math.min(total, page * size);
  const to = Math.min(total, from + size);
  if (from === to) return { content: [], totalElements: total, totalPages: Math.ceil(total / size) };
  const text = await unzip(kept.rows);
  const ends = new Uint32Array(kept.ends.buffer.slice(kept.ends.byteOffset, kept.ends.byteOffset + kept.ends.byteLength));
  const start = from === 0 ? 0 : ends[from - 1]!;
  const parts: string[] = [];
  for (let k = from, a = start; k < to; a = ends[k++]!) parts.push(text.toString('utf8', a, ends[k]!));
  return { content: JSON.parse(`[${parts.join(',')}]`) as UploadResultRow[], totalElements: total, totalPages: Math.ceil(total / size) };
}
