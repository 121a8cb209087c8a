// The fine rows of a large upload's answer, kept for paging (docs/decisions/172-uploads-bounded-by-their-caps.md).
// An upload's answer holds its totals and every row that needs attention; when the file had more
// rows than ANSWER_ALL_ROWS, its fine rows (succ without a warning) are left out of it and kept here,
// where GET /api/upload/result/{resultId} pages them (SPEC §3's result rows: every row stays there
// for the result table, SPEC §9's page sizes included). Kept compactly, as one buffer of JSON lines
// and their offsets (no object per row), for RESULT_TTL_MS, at most MAX_RESULTS and MAX_BYTES at
// once (the oldest go first). They live where the upload ran: the upload worker on PostgreSQL
// (upload-jobs.ts asks it for a page), this thread on PGlite; a worker that ended (out of memory)
// or another server process has none, and the page call answers 404.
import { randomUUID } from 'node:crypto';
import type { components } from '../../api/schema';
import { Pacer } from './slices.ts';

type UploadResultRow = components['schemas']['UploadResultRow'];
export type UploadResultPage = components['schemas']['UploadResultPage'];

/** How long a result stays pageable: an hour, longer than anyone reads one. */
export const RESULT_TTL_MS = 60 * 60 * 1000;
/** Results kept at once per process (each up to a 50,000-row file's fine rows, ~8 MB). */
export const MAX_RESULTS = 16;
/** Bytes kept at once (outside the heap; on PGlite in the server's own process): the oldest results go first past it. */
export const MAX_BYTES = 32 * 1024 * 1024;

export const uploadResultMessages = {
  gone: '上传结果已过期，请重新上传文件查看（已保存的行会跳过）',
} as const;

interface Kept {
  owner: number;
  keptAt: number;
  /** The rows as UTF-8 JSON, one after another; row k spans ends[k - 1] (0 for the first) to ends[k]. */
  text: Buffer;
  ends: Uint32Array;
}

export class UploadResults {
  private readonly kept = new Map<string, Kept>();
  constructor(
    private readonly limits = { ttlMs: RESULT_TTL_MS, maxResults: MAX_RESULTS, maxBytes: MAX_BYTES },
    private readonly now = () => Date.now(),
  ) {}

  /** Keeps `rows` for `owner` (a user id); answers the id that pages them. Serialized between turns of the event loop. */
  async keep(owner: number, rows: readonly UploadResultRow[]): Promise<string> {
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
    const id = randomUUID();
    this.expire();
    this.kept.set(id, { owner, keptAt: this.now(), text: Buffer.concat(pieces, at), ends });
    this.trim();
    return id;
  }

  /** Page `page` (0-based) of `size` rows of result `id`, or null when there is none for `owner` (never kept, expired, or another's). */
  page(owner: number, id: string, page: number, size: number): UploadResultPage | null {
    this.expire();
    const kept = this.kept.get(id);
    if (!kept || kept.owner !== owner) return null;
    const total = kept.ends.length;
    const from = Math.min(total, page * size);
    const to = Math.min(total, from + size);
    const content = from === to ? [] : (JSON.parse(`[${joinRows(kept, from, to)}]`) as UploadResultRow[]);
    return { content, totalElements: total, totalPages: Math.ceil(total / size) };
  }

  /** Results kept now (the tests read it). */
  get size(): number {
    this.expire();
    return this.kept.size;
  }

  private expire() {
    const oldest = this.now() - this.limits.ttlMs;
    for (const [id, k] of this.kept) if (k.keptAt < oldest) this.kept.delete(id);
  }

  /** The oldest results go while there are too many or they take too much (the newest always stays). */
  private trim() {
    let bytes = 0;
    for (const k of this.kept.values()) bytes += k.text.length + k.ends.byteLength;
    for (const [id, k] of this.kept) {
      if (this.kept.size <= 1 || (this.kept.size <= this.limits.maxResults && bytes <= this.limits.maxBytes)) break;
      this.kept.delete(id);
      bytes -= k.text.length + k.ends.byteLength;
    }
  }
}

/** Rows from..to-1 of `kept` as JSON texts, comma-joined. */
function joinRows(kept: Kept, from: number, to: number): string {
  const parts: string[] = [];
  for (let k = from, at = from === 0 ? 0 : kept.ends[from - 1]!; k < to; at = kept.ends[k++]!) parts.push(kept.text.toString('utf8', at, kept.ends[k]!));
  return parts.join(',');
}

/** This thread's results: the upload worker's on PostgreSQL, the server thread's on PGlite. */
export const uploadResults = new UploadResults();
