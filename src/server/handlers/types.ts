// Handlers are keyed by operationId and typed from the generated contract, so a handler cannot
// read a field the contract does not declare or answer a shape it does not promise.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../api/schema';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { OutboxWorker } from '../mail/outbox.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import type { SessionCache } from '../auth/sessions.ts';
import type { ScanBatcher } from '../receiving/scan-batcher.ts';
import type { LiveHub } from '../live/hub.ts';
import type { ReadinessCheck } from '../ops/readiness.ts';
import type { UploadRunner } from '../files/upload-jobs.ts';
import type { SessionUser } from '../auth/session-user.ts';

export interface Ctx {
  db: Db;
  config: Config;
  mailer: Mailer;
  outbox: OutboxWorker;
  log: FastifyBaseLogger;
  /** The account calls' rate limits (login, register, reset, forgot-password, mail check). */
  rateLimits: RateLimiter;
  sessions: SessionCache;
  /** Writes the scan calls (create, add), gathering those that arrive together into one transaction. */
  scans: ScanBatcher;
  /** This process's live event streams (GET /api/events). */
  live: LiveHub;
  /** Whether the database answers and holds this code's migrations (GET /readyz). */
  readiness: ReadinessCheck;
  /** Where the purchased and tracking uploads run: a worker thread on PostgreSQL (files/upload-jobs.ts). */
  uploads: UploadRunner;
}

export type OpId = keyof operations;
type Params<K extends OpId> = operations[K] extends { parameters: infer P } ? P : never;
type Pick2<T, F extends string> = T extends { [k in F]?: infer Q } ? NonNullable<Q> : Record<string, never>;
type BodyOf<K extends OpId> = operations[K] extends { requestBody?: { content: infer C } }
  ? C extends Record<string, infer B>
    ? B
    : never
  : operations[K] extends { requestBody: { content: infer C } }
    ? C extends Record<string, infer B>
      ? B
      : never
    : undefined;
type DataOf<K extends OpId> = operations[K] extends { responses: { 200: { content: { 'application/json': infer E } } } }
  ? E extends { data?: infer D }
    ? D
    : never
  : never;

export interface OpRequest<K extends OpId> {
  query: Pick2<Params<K>, 'query'>;
  params: Pick2<Params<K>, 'path'>;
  body: BodyOf<K>;
  user: SessionUser | null;
  ip: string;
  raw: FastifyRequest;
}

const OK = Symbol('ok');
export interface Ok<T> {
  [OK]: true;
  data: T;
  msg: string;
}
export const ok = <T>(data: T, msg = '') => ({ [OK]: true, data, msg }) as Ok<T>;
export const isOk = (v: unknown): v is Ok<unknown> => typeof v === 'object' && v !== null && OK in v;

export type Handler<K extends OpId> = (req: OpRequest<K>, ctx: Ctx, reply: FastifyReply) => Promise<Ok<DataOf<K>> | FastifyReply>;
export type Handlers = { [K in OpId]?: Handler<K> };

/** The signed-in user; routes whose x-roles exclude anonymous always have one. */
export function me(req: { user: SessionUser | null }): SessionUser {
  if (!req.user) throw new Error('handler of a signed-in route reached without a user');
  return req.user;
}
