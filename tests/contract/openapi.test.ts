// Contract checks for openapi.yaml: the conventions every operation follows (docs/CONVENTIONS.md,
// DECISIONS "Wire contract" and "Roles"), the presence of every call of SPEC §7, that the generated
// src/api/schema.d.ts has not drifted from the yaml, that the spec is a valid OpenAPI document (the
// OpenAPI schema itself), and that its routes load in Fastify (src/server/contract-routes.ts).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import Fastify, { type InjectOptions } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import multipart from '@fastify/multipart';
import { generateApiTypes, specUrl, typesUrl } from '../../scripts/gen-api.ts';
import { registerContractRoutes } from '../../src/server/contract-routes.ts';

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  'x-roles'?: string[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Schema }> }>;
};
type Op = { method: string; path: string; op: Operation };

const ROLES = ['anonymous', 'user', 'lowerAdmin', 'admin'];
const TAGS = [
  'auth',
  'users',
  'groups',
  'boards',
  'boardTasks',
  'tasks',
  'items',
  'scan',
  'audit',
  'match',
  'purchased',
  'payments',
  'withdraw',
  'statistics',
  'files',
  'notice',
  'home',
  'live',
  'ops',
];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const specPath = new URL(specUrl).pathname;
const spec = parse(readFileSync(specUrl, 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, unknown> };
};
const ops: Op[] = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
);
const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;
const byKey = new Map(ops.map((o) => [key(o), o]));
// The probes a load balancer calls (tag ops: GET /healthz, /readyz) are the one declared exception to
// the API's conventions: at the root, outside the envelope (src/server/contract.ts OPS_TAG). The
// conventions of the API below hold for every other operation; the probes have a test of their own.
const isProbe = (o: Op) => o.op.tags?.includes('ops') === true;
const apiOps = ops.filter((o) => !isProbe(o));

const deref = (s: Schema): Schema => {
  const r = s.$ref;
  if (typeof r !== 'string') return s;
  const name = r.replace('#/components/schemas/', '');
  const target = spec.components.schemas[name];
  if (!target) throw new Error(`dangling $ref ${r}`);
  return deref(target);
};

/** Every schema node reachable from s, following $refs (each component once). */
function walk(s: Schema, visit: (node: Schema, where: string) => void, where = '', seen = new Set<string>()): void {
  if (typeof s.$ref === 'string') {
    if (seen.has(s.$ref)) return;
    seen.add(s.$ref);
    walk(deref(s), visit, s.$ref, seen);
    return;
  }
  visit(s, where);
  for (const k of ['properties'] as const) {
    const props = s[k] as Record<string, Schema> | undefined;
    if (props) for (const [name, p] of Object.entries(props)) walk(p, visit, `${where}.${name}`, seen);
  }
  if (s.items) walk(s.items as Schema, visit, `${where}[]`, seen);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties as Schema, visit, `${where}{}`, seen);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) for (const sub of (s[k] as Schema[] | undefined) ?? []) walk(sub, visit, where, seen);
}

// Every call of SPEC §7, with the method and path §7 gives (or, where §7 gives none, the ones fixed by
// DECISIONS "Wire contract": GET for reads, POST for writes; and the download-link layout).
const SPEC_CALLS = `
POST /ext/login/login
GET /api/user/info
GET /ext/login/exist
POST /ext/login/register
POST /ext/login/password
POST /ext/login/reset
GET /ext/login/token/exist
POST /api/admin/invite
GET /api/user/list
GET /api/admin/user/list
GET /api/user/balance
GET /api/usergroup/{id}/info
GET /api/usergroup/list
GET /api/usergroup/list/{id}
POST /api/usergroup/update
POST /api/usergroup/{id}/user
DELETE /api/usergroup/{id}/user
POST /api/board/info
GET /api/board/info/{id}
GET /api/board/infouuid/{uuid}
GET /api/board/list/admin
GET /api/board/list/user
GET /api/board/{id}/userGroups
POST /api/board/{id}/add
POST /api/board/{id}/remove
GET /api/boardtask/{boardId}/info/{taskId}
POST /api/boardtask/{boardId}/info
GET /api/boardtask/{id}/users
GET /api/boardtask/{id}/list
GET /api/boardtask/{id}/status
GET /api/boardtask/uuid/{uuid}/list
POST /api/boardtask/publish/{id}
POST /api/boardtask/publish/{id}/users
POST /api/boardtask/backup/publish/{id}
GET /api/task/info/admin/list/{id}
GET /api/task/list/page
GET /api/task/info/user/list
GET /api/task/info/user/board/list
GET /api/task/apply/exist
GET /api/task/part/match
POST /api/task/{id}/user/create/{count}
POST /api/task/{id}/user/create/{count}/label/{labelCount}
DELETE /api/task/info/user/{id}
POST /api/task/accept/{id}
POST /api/task/reject/{id}
GET /api/task/info/{id}
POST /api/task/info
POST /api/task/info/user/{id}/qty/{n}
POST /api/task/info/user/{id}/qty/{n}/label/{m}
POST /api/task/user/split
GET /api/item/list
GET /api/item/page
GET /api/item/info/like/{q}
GET /api/item/info/{id}
POST /api/item/info
GET /api/scan/admin/tracking/list
GET /api/scan/admin/tracking/{id}/list
POST /api/scan/admin/tracking/{id}/create
POST /api/scan/admin/tracking/{id}/modify
POST /api/scan/admin/tracking/{id}/add
GET /api/statistics/admin/task/amount/list
GET /api/audit/tracking/list
GET /api/audit/task/list
POST /api/purchased/user/{taskId}/create
POST /api/purchased/user/update
POST /api/purchased/user/remove
GET /api/purchased/{id}/taskTracking
POST /api/match/user/tracking/match
POST /api/match/admin/tracking/match
POST /api/match/user/task/match
POST /api/match/admin/task/match
GET /api/apply/list/page
POST /api/trade/user/pay/apply
POST /api/trade/admin/pay/agree
POST /api/trade/admin/pay/confirm
POST /api/trade/user/collect/confirm
GET /api/apply/user/withdraw
GET /api/withdraw/user/show/cards
POST /api/withdraw/user/bind/card
POST /api/withdraw/user/unbind/card
POST /api/withdraw/user/request
POST /api/withdraw/user/cancel/order
POST /api/withdraw/user/paid/request
POST /api/withdraw/user/change/card
GET /api/withdraw/user/requests
GET /api/withdraw/user/request/orders
POST /api/withdraw/admin/agree/cancel
POST /api/withdraw/admin/reject/cancel
POST /api/withdraw/admin/paid
POST /api/withdraw/admin/adminnote/save
GET /api/withdraw/admin/requests
POST /api/withdraw/admin/confirm
POST /api/scan/admin/excel/upload/import
POST /api/scan/admin/excel/upload/update
POST /api/scan/admin/excel/upload/confirm
POST /api/purchased/user/excel/upload/import
POST /api/purchased/user/excel/upload/update
GET /api/download/pdf/{id}/token
GET /ext/pdf/{id}/{token}
GET /ext/excel/withdraw/{token}
GET /ext/excel/user-task/{token}
GET /ext/excel/tracking/{token}
GET /ext/excel/board/{token}
GET /ext/excel/task-amount/{token}
GET /api/notice/get
POST /api/notice/save
`
  .trim()
  .split('\n');

// Operations beyond SPEC §7 (each says so in its description).
const ADDITIONS = [
  'GET /api/match/admin/contested',
  'POST /api/match/admin/contested/assign',
  // Missing parcels (decision 077).
  'GET /api/purchased/user/missing',
  'POST /api/purchased/user/missing/report',
  'GET /api/admin/purchased/missing',
  // Unknown parcels claimed by their owners (decision 169).
  'GET /api/purchased/user/unknown',
  'GET /api/upload/result/{resultId}',
  'POST /api/purchased/user/unknown/claim',
  'GET /api/admin/purchased/claims',
  'POST /api/admin/purchased/claims/undo',
  'POST /ext/login/logout',
  'POST /api/admin/user/update',
  'GET /api/download/excel/{kind}/token',
  'GET /ext/excel/template/purchased',
  'GET /ext/excel/template/tracking',
  'POST /api/withdraw/admin/card/reveal',
  'POST /api/withdraw/admin/paid/batch',
  'POST /api/withdraw/admin/payment-file/token',
  'GET /ext/excel/withdraw-payment/{token}',
  'GET /api/audit/payout/list',
  'GET /api/home/admin',
  'GET /api/events',
  'POST /api/purchased/user/{taskId}/bulk',
  'POST /api/trade/user/pay/apply-arrived',
  'GET /api/home/user',
  // The deal cards' board tasks in one call (decision 170).
  'GET /api/boardtask/list/boards',
  'GET /healthz',
  'GET /readyz',
];

// docs/CONVENTIONS.md "Auth operations": fixed operationIds and roles.
const AUTH_OPS: [string, string, string[]][] = [
  ['POST /ext/login/login', 'login', ['anonymous']],
  ['POST /ext/login/logout', 'logout', ['user', 'lowerAdmin', 'admin']],
  ['GET /api/user/info', 'getUserInfo', ['user', 'lowerAdmin', 'admin']],
  ['GET /ext/login/exist', 'checkMailExists', ['anonymous']],
  ['POST /ext/login/register', 'register', ['anonymous']],
  ['POST /ext/login/password', 'forgotPassword', ['anonymous']],
  ['POST /ext/login/reset', 'resetPassword', ['anonymous']],
  ['GET /ext/login/token/exist', 'checkToken', ['anonymous']],
  ['POST /api/admin/invite', 'inviteUsers', ['lowerAdmin', 'admin']],
  ['GET /api/notice/get', 'getNotice', ['user', 'lowerAdmin', 'admin']],
  ['POST /api/notice/save', 'saveNotice', ['lowerAdmin', 'admin']],
];

describe('openapi.yaml conventions', () => {
  it('is OpenAPI 3.0.3', () => {
    expect(spec.openapi).toBe('3.0.3');
  });

  it('gives every operation a unique camelCase operationId, a known tag and a summary', () => {
    const ids = ops.map((o) => o.op.operationId);
    for (const o of ops) {
      expect(o.op.operationId, key(o)).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(o.op.tags, key(o)).toHaveLength(1);
      expect(TAGS, key(o)).toContain(o.op.tags?.[0]);
      expect(o.op.summary, key(o)).toBeTruthy();
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares non-empty x-roles drawn from the four roles', () => {
    for (const o of ops) {
      const roles = o.op['x-roles'];
      expect(Array.isArray(roles) && roles.length > 0, key(o)).toBe(true);
      for (const r of roles ?? []) expect(ROLES, key(o)).toContain(r);
      expect(new Set(roles).size, key(o)).toBe(roles?.length);
      // anonymous is never mixed with logged-in roles
      if (roles?.includes('anonymous')) expect(roles, key(o)).toEqual(['anonymous']);
    }
  });

  it('keeps /api/withdraw/admin/* to admin only', () => {
    const withdrawAdmin = ops.filter((o) => o.path.startsWith('/api/withdraw/admin/'));
    expect(withdrawAdmin.length).toBeGreaterThan(0);
    for (const o of withdrawAdmin) {
      expect(o.op['x-roles'], key(o)).not.toContain('lowerAdmin');
      expect(o.op['x-roles'], key(o)).not.toContain('user');
      expect(o.op['x-roles'], key(o)).not.toContain('anonymous');
    }
  });

  it('scopes each Excel download-token kind to roles the operation allows', () => {
    const o = ops.find((o) => o.op.operationId === 'getExcelDownloadToken')!;
    const kindRoles = (o.op as { 'x-kind-roles'?: Record<string, string[]> })['x-kind-roles'] ?? {};
    expect(Object.keys(kindRoles).sort()).toEqual([...(spec.components.schemas.ExcelKind!.enum as string[])].sort());
    // A member exports their own withdraw lines (/user/withdraw-orders); the withdraw admin side is not lowerAdmin's.
    expect(kindRoles.withdraw).toEqual(['user', 'admin']);
    for (const roles of Object.values(kindRoles)) for (const r of roles) expect(o.op['x-roles']).toContain(r);
  });

  it('keeps the admin path groups away from role user', () => {
    const adminPath = /^\/api\/(admin|scan\/admin|trade\/admin|statistics\/admin|audit|match\/admin|withdraw\/admin)\//;
    const adminOps = ops.filter((o) => adminPath.test(o.path));
    expect(adminOps.length).toBeGreaterThan(20);
    for (const o of adminOps) {
      expect(o.op['x-roles'], key(o)).not.toContain('user');
      expect(o.op['x-roles'], key(o)).not.toContain('anonymous');
    }
  });

  it('keeps every operation but the probes under /api/ or /ext/, anonymous to /ext/ paths, and /api/ paths behind a login', () => {
    for (const o of apiOps) {
      expect(o.path, key(o)).toMatch(/^\/(api|ext)\//);
      if (o.op['x-roles']?.includes('anonymous')) expect(o.path, key(o)).toMatch(/^\/ext\//);
      if (o.path.startsWith('/api/')) expect(o.op['x-roles'], key(o)).not.toContain('anonymous');
    }
  });

  it('uses the fixed auth operationIds and roles of docs/CONVENTIONS.md', () => {
    for (const [k, operationId, roles] of AUTH_OPS) {
      const o = byKey.get(k);
      expect(o, k).toBeDefined();
      expect(o?.op.operationId, k).toBe(operationId);
      expect(o?.op['x-roles'], k).toEqual(roles);
    }
  });

  it('lists every call of SPEC §7 with its method and path', () => {
    const missing = SPEC_CALLS.filter((k) => !byKey.has(k));
    expect(missing).toEqual([]);
    expect(new Set(SPEC_CALLS).size).toBe(SPEC_CALLS.length);
  });

  it('adds nothing beyond SPEC §7 but the marked additions', () => {
    const extra = ops.map(key).filter((k) => !SPEC_CALLS.includes(k));
    expect(extra.sort()).toEqual([...ADDITIONS].sort());
    for (const k of ADDITIONS) expect((byKey.get(k)?.op as { description?: string }).description, k).toMatch(/^Beyond SPEC §7/);
  });

  it('closes every request body object (additionalProperties: false), JSON, form and multipart alike', () => {
    let bodies = 0;
    for (const o of ops) {
      const content = o.op.requestBody?.content;
      if (!content) continue;
      for (const [mime, media] of Object.entries(content)) {
        expect(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'], key(o)).toContain(mime);
        bodies++;
        expect(deref(media.schema).type, key(o)).toBe('object');
        walk(media.schema, (node, where) => {
          if (node.type === 'object' || node.properties) expect(node.additionalProperties, `${key(o)} ${where}`).toBe(false);
        });
      }
    }
    expect(bodies).toBeGreaterThan(40);
  });

  it('uses form bodies for forgotPassword and inviteUsers, multipart with a binary file for uploads', () => {
    const mimeOf = (id: string) => Object.keys(ops.find((o) => o.op.operationId === id)?.op.requestBody?.content ?? {});
    expect(mimeOf('forgotPassword')).toEqual(['application/x-www-form-urlencoded']);
    expect(mimeOf('inviteUsers')).toEqual(['application/x-www-form-urlencoded']);
    for (const o of ops.filter((o) => /\/excel\/upload\/|\/withdraw\/admin\/confirm$/.test(o.path))) {
      const schema = deref(o.op.requestBody?.content['multipart/form-data']?.schema ?? {});
      expect((schema.properties as Record<string, Schema>).file, key(o)).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
      expect(schema.required, key(o)).toEqual(['file']);
    }
  });

  it('keeps the probes (tag ops) to GET /healthz and /readyz: anonymous, nothing to send, a small JSON object outside the envelope', () => {
    expect(ops.filter(isProbe).map(key).sort()).toEqual(['GET /healthz', 'GET /readyz']);
    for (const o of ops.filter(isProbe)) {
      expect(o.op['x-roles'], key(o)).toEqual(['anonymous']);
      expect((o.op as { parameters?: unknown }).parameters, key(o)).toBeUndefined();
      expect(o.op.requestBody, key(o)).toBeUndefined();
      // Readiness says 503 when the database is not there; neither has an error of the envelope.
      expect(Object.keys(o.op.responses).sort(), key(o)).toEqual(o.path === '/readyz' ? ['200', '503'] : ['200']);
      for (const r of Object.values(o.op.responses)) {
        expect(Object.keys(r.content ?? {}), key(o)).toEqual(['application/json']);
        const schema = deref(r.content!['application/json']!.schema);
        expect(schema.type, key(o)).toBe('object');
        expect(Object.keys(schema.properties as Schema), key(o)).not.toContain('code');
        expect((schema.properties as Record<string, Schema>).status, key(o)).toEqual(expect.objectContaining({ type: 'string' }));
      }
    }
  });

  it('answers every JSON call with the {code, msg, data} envelope and every call with the shared errors', () => {
    for (const o of apiOps) {
      for (const [status, name] of Object.entries({
        400: 'BadRequest',
        401: 'Unauthorized',
        403: 'Forbidden',
        404: 'NotFound',
        409: 'Conflict',
        500: 'ServerError',
        503: 'Unavailable',
      })) {
        expect(o.op.responses[status]?.$ref, key(o)).toBe(`#/components/responses/${name}`);
      }
      // 413 wherever a body can be sent; 429 where a rate limit or an upload queue can refuse.
      expect(o.op.responses['413']?.$ref, key(o)).toBe(o.method === 'GET' ? undefined : '#/components/responses/PayloadTooLarge');
      const limited =
        ['login', 'register', 'forgotPassword', 'resetPassword', 'checkMailExists'].includes(o.op.operationId!) ||
        /\/excel\/upload\/|\/withdraw\/admin\/confirm$/.test(o.path);
      if (limited) expect(o.op.responses['429']?.$ref, key(o)).toBe('#/components/responses/TooManyRequests');
      const ok = o.op.responses['200']?.content ?? {};
      if (/^\/ext\/(pdf|excel)\//.test(o.path)) {
        expect(Object.keys(ok), key(o)).toEqual([o.path.startsWith('/ext/pdf/') ? 'application/pdf' : XLSX]);
        expect(o.op['x-roles'], key(o)).toEqual(['anonymous']);
        continue;
      }
      // The live stream is a text/event-stream whose messages are hints (LiveEvent), not an envelope.
      if (o.op.operationId === 'streamEvents') {
        expect(Object.keys(ok), key(o)).toEqual(['text/event-stream']);
        continue;
      }
      expect(Object.keys(ok), key(o)).toEqual(['application/json']);
      const env = ok['application/json']!.schema;
      expect(env.type, key(o)).toBe('object');
      expect(env.required, key(o)).toEqual(['code']);
      const props = env.properties as Record<string, Schema>;
      expect(props.code, key(o)).toEqual({ $ref: '#/components/schemas/ResultCode' });
      expect(props.msg, key(o)).toEqual({ type: 'string' });
      expect(
        Object.keys(props).filter((k) => !['code', 'msg', 'data'].includes(k)),
        key(o),
      ).toEqual([]);
    }
  });

  it('lists response properties without closing response objects', () => {
    for (const o of ops) {
      const media = o.op.responses['200']?.content?.['application/json'];
      if (!media) continue;
      walk(media.schema, (node, where) => {
        expect(node.additionalProperties, `${key(o)} ${where}`).not.toBe(false);
        if (node.type === 'object') expect(node.properties ?? node.additionalProperties, `${key(o)} ${where}`).toBeTruthy();
      });
    }
  });

  it('types list parameters the same way everywhere', () => {
    const paramSchema = (o: Op, name: string) => {
      const p = ((o.op as { parameters?: Schema[] }).parameters ?? [])
        .map((p) =>
          typeof p.$ref === 'string' ? (spec.components as unknown as { parameters: Record<string, Schema> }).parameters[p.$ref.split('/').pop()!] : p,
        )
        .find((p) => p?.name === name && p.in === 'query');
      return p?.schema as Schema | undefined;
    };
    for (const o of ops) {
      const page = paramSchema(o, 'page');
      if (page) expect(page, key(o)).toEqual({ type: 'integer', minimum: 0, maximum: 2147483647, default: 0 });
      const size = paramSchema(o, 'size');
      if (size) expect(size, key(o)).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: expect.toSatisfy((n: number) => n === 10 || n === 20) });
      const isDesc = paramSchema(o, 'isDesc');
      if (isDesc) expect(isDesc, key(o)).toEqual({ type: 'boolean', default: true });
    }
  });

  it('bounds every number a request takes (integers within their integer column), and takes id lists as IdList', () => {
    const params = (spec.components as unknown as { parameters: Record<string, Schema> }).parameters;
    let checked = 0;
    for (const o of ops) {
      const inputs: [string, Schema][] = ((o.op as { parameters?: Schema[] }).parameters ?? []).map((p) => {
        const param = typeof p.$ref === 'string' ? params[p.$ref.split('/').pop()!]! : p;
        return [`${String(param.in)} ${String(param.name)}`, param.schema as Schema];
      });
      for (const [mime, media] of Object.entries(o.op.requestBody?.content ?? {})) inputs.push([mime, media.schema]);
      for (const [where, schema] of inputs)
        walk(schema, (node, at) => {
          if (node.type !== 'integer' && node.type !== 'number') return;
          checked++;
          const bounded = Array.isArray(node.enum) || (typeof node.minimum === 'number' && typeof node.maximum === 'number');
          expect(bounded, `${key(o)} ${where}${at}`).toBe(true);
          // Integers are PostgreSQL integer columns unless int64 (epoch milliseconds).
          if (node.type === 'integer' && node.format !== 'int64' && !node.enum) {
            expect(node.maximum as number, `${key(o)} ${where}${at}`).toBeLessThanOrEqual(2147483647);
            expect(node.minimum as number, `${key(o)} ${where}${at}`).toBeGreaterThanOrEqual(-2147483648);
          }
        });
      for (const [where, schema] of inputs)
        if (/Ids$|^query uids$/.test(where.split(' ').pop()!)) expect(schema, `${key(o)} ${where}`).toEqual({ $ref: '#/components/schemas/IdList' });
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('uses no OpenAPI 3.1-only keywords and no recursive schemas', () => {
    const forbidden = [
      'const',
      'unevaluatedProperties',
      'prefixItems',
      '$defs',
      'dependentRequired',
      'dependentSchemas',
      'contentMediaType',
      'if',
      'then',
      'else',
    ];
    const visitAll = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => visitAll(n, `${path}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const obj = node as Schema;
      if ('type' in obj && obj.type !== undefined && typeof obj.type !== 'string' && path.includes('schema')) throw new Error(`array type at ${path}`);
      for (const [k, v] of Object.entries(obj)) {
        if (k !== 'properties' && forbidden.includes(k) && path.includes('schema')) throw new Error(`3.1 keyword ${k} at ${path}`);
        visitAll(v, `${path}.${k}`);
      }
    };
    visitAll(spec.paths, 'paths');
    visitAll(spec.components.schemas, 'components.schemas');

    const refsOf = (s: unknown, acc = new Set<string>()): Set<string> => {
      if (Array.isArray(s)) s.forEach((x) => refsOf(x, acc));
      else if (s && typeof s === 'object')
        for (const [k, v] of Object.entries(s)) {
          if (k === '$ref' && typeof v === 'string') acc.add(v.replace('#/components/schemas/', ''));
          else refsOf(v, acc);
        }
      return acc;
    };
    const state = new Map<string, 'visiting' | 'done'>();
    const dfs = (name: string, chain: string[]) => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') throw new Error(`recursive schema: ${[...chain, name].join(' -> ')}`);
      state.set(name, 'visiting');
      for (const r of refsOf(spec.components.schemas[name])) dfs(r, [...chain, name]);
      state.set(name, 'done');
    };
    for (const name of Object.keys(spec.components.schemas)) dfs(name, []);
  });
});

describe('generated types', () => {
  it('src/api/schema.d.ts matches openapi.yaml (run `npm run gen:api` after editing the yaml)', async () => {
    const generated = await generateApiTypes();
    const committed = readFileSync(typesUrl, 'utf8');
    expect(committed.startsWith('/**\n * This file was auto-generated by openapi-typescript.')).toBe(true);
    expect(committed === generated, 'src/api/schema.d.ts is stale: run `npm run gen:api`').toBe(true);
  }, 30_000);
});

describe('the routes of the contract', () => {
  it('come from a valid OpenAPI document', async () => {
    const result = await new Validator().validate(parse(readFileSync(specPath, 'utf8')) as Schema);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  }, 30_000);

  it('load in Fastify, one route per operation', async () => {
    const app = Fastify({ ajv: { customOptions: { removeAdditional: false, strict: false } } });
    await registerContractRoutes(app, () => ({ handler: async () => ({ code: 'A00000' }) }));
    await app.ready();
    for (const o of ops) {
      const url = o.path.replace(/{(\w+)}/g, ':$1');
      expect(app.hasRoute({ method: o.method as 'GET', url }), key(o)).toBe(true);
    }
    await app.close();
  }, 30_000);

  it('validates money, closed bodies, forms, id lists and uploads as the server will', async () => {
    // The server's setup in miniature: ajv multipleOfPrecision (else 19.99 fails multipleOf 0.01),
    // errors answered as {code, msg}, a form parser, multipart with the file buffered off the body.
    const app = Fastify({ ajv: { customOptions: { removeAdditional: false, strict: false, multipleOfPrecision: 6 } } });
    app.setErrorHandler((err: { statusCode?: number; validation?: unknown; message: string }, _req, reply) => {
      reply.status(err.validation ? 400 : (err.statusCode ?? 500)).send({ code: err.validation ? 'A00001' : 'A00005', msg: err.message });
    });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    await app.register(multipart, {
      attachFieldsToBody: 'keyValues',
      async onFile(part) {
        (this as unknown as { uploadedFile?: Buffer }).uploadedFile = await part.toBuffer();
        part.value = part.filename;
      },
    });
    await registerContractRoutes(app, (operationId) => ({ handler: async () => ({ code: 'A00000', msg: operationId }) }));
    await app.ready();

    const status = async (o: InjectOptions) => (await app.inject(o)).statusCode;
    const json = (url: string, payload: Record<string, unknown>) => status({ method: 'POST', url, payload });
    expect(await json('/api/trade/user/pay/apply', { taskId: 1, bonus: 19.99 })).toBe(200);
    expect(await json('/api/trade/user/pay/apply', { taskId: 1, bonus: 0.001 })).toBe(400);
    expect(await json('/api/trade/user/pay/apply', { taskId: 1, extra: 1 })).toBe(400);
    expect(await json('/api/withdraw/user/request', { requests: [{ cardId: 1, withdrawAmount: 10.5 }], taskIds: [1] })).toBe(200);
    expect(await json('/api/withdraw/user/request', { requests: [{ cardId: 1, withdrawAmount: 10.5, x: 1 }], taskIds: [1] })).toBe(400);
    expect(await json('/api/usergroup/update', { groupName: '' })).toBe(400);

    const form = (payload: string) =>
      status({ method: 'POST', url: '/ext/login/password', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
    expect(await form('mail=a%40example.com')).toBe(200);
    expect(await form('mail=a%40example.com&other=1')).toBe(400);

    expect(await status({ method: 'GET', url: '/api/task/apply/exist?taskIds=1,2,3' })).toBe(200);
    expect(await status({ method: 'GET', url: '/api/task/apply/exist?taskIds=1,,3' })).toBe(400);
    expect(await status({ method: 'GET', url: '/api/admin/user/list?size=1001' })).toBe(400);
    expect(await status({ method: 'GET', url: '/api/scan/admin/tracking/1Z999AA10123456784/list' })).toBe(200);

    const upload = async (fd: FormData) => {
      const req = new Request('http://localhost/', { method: 'POST', body: fd });
      return status({
        method: 'POST',
        url: '/api/withdraw/admin/confirm',
        headers: { 'content-type': req.headers.get('content-type')! },
        payload: Buffer.from(await req.arrayBuffer()),
      });
    };
    const withFile = new FormData();
    withFile.append('file', new Blob([new Uint8Array([0x50, 0x4b, 3, 4])]), 'confirm.xlsx');
    expect(await upload(withFile)).toBe(200);
    const withoutFile = new FormData();
    withoutFile.append('other', 'x');
    expect(await upload(withoutFile)).toBe(400);
    await app.close();
  }, 30_000);
});
