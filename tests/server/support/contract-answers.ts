// Checks a real answer of the server against openapi.yaml with Ajv (a validator the project did not
// write), so the contract cannot drift from the server: the status is declared for the operation, a
// JSON answer is the {code, msg, data} envelope with the code of the product specification, section
// 8, that goes with the HTTP status, and its body matches the declared schema; a file answer has the
// declared content type. OpenAPI 3.0.3 `nullable` is rewritten to JSON Schema's null type first.
// The probes tagged ops (/healthz, /readyz; Operation.enveloped false) are the one declared exception
// to the envelope: their JSON is checked against its declared schema as it is.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { listOperations, loadSpec, type Operation } from '../../../src/server/contract.ts';

type Json = Record<string, unknown>;

/** SPEC section 8 codes and the HTTP statuses each may travel with (DECISIONS "Wire contract"; decision 034: 503 when the database is unavailable). */
export const STATUSES_OF_CODE: Record<string, number[]> = {
  A00000: [200],
  A00001: [400, 413, 429],
  A00002: [401],
  A00003: [403],
  A00004: [404, 409, 429],
  A00005: [500, 503],
};

const spec = loadSpec();
export const operations: Operation[] = listOperations(spec);
const byId = new Map(operations.map((o) => [o.operationId, o]));
const byKey = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
const paths = spec.paths as Record<string, Record<string, Json>>;
const components = spec.components as { schemas: Record<string, Json>; responses: Record<string, Json> };

/** OpenAPI 3.0 schema -> JSON Schema: `nullable` becomes a null type (and a null enum member). */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'nullable') continue;
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace(/^#\/components\/schemas\//, 'openapi.json#/components/schemas/');
    else if (k === 'properties' && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toJsonSchema(s)]));
    else out[k] = toJsonSchema(v);
  }
  if ((node as Json).nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    if (out.$ref) return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
  }
  return out;
}

/**
 * An Ajv that knows the contract's component schemas (refs rewritten by toJsonSchema) and OpenAPI's
 * own formats: int64 is a whole number JavaScript holds exactly; binary is any file.
 */
export function contractAjv(options: ConstructorParameters<typeof Ajv>[0] = {}): Ajv {
  const a = new Ajv({ allErrors: true, strict: false, multipleOfPrecision: 6, validateFormats: true, ...options });
  addFormats(a);
  a.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  a.addFormat('binary', true);
  a.addSchema({ $id: 'openapi.json', components: { schemas: toJsonSchema(components.schemas) } });
  return a;
}
const ajv = contractAjv();

interface Declared {
  /** Media type -> validator of a JSON body (null for files). */
  content: Map<string, ValidateFunction | null>;
}
const declaredCache = new Map<string, Declared>();
const compiled = new Map<string, ValidateFunction>();
/** One validator per distinct schema (the error answers of every operation share one). */
function compile(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) compiled.set(key, (v = ajv.compile(schema)));
  return v;
}

function declared(op: Operation, status: string): Declared | undefined {
  const key = `${op.operationId} ${status}`;
  const hit = declaredCache.get(key);
  if (hit) return hit;
  const responses = (paths[op.path]![op.method.toLowerCase()]!.responses ?? {}) as Record<string, Json>;
  let res = responses[status];
  if (!res) return undefined;
  if (typeof res.$ref === 'string') res = components.responses[res.$ref.split('/').pop()!]!;
  const content = new Map<string, ValidateFunction | null>();
  for (const [media, m] of Object.entries((res.content ?? {}) as Record<string, { schema?: Json }>)) {
    content.set(media, media === 'application/json' && m.schema ? compile(toJsonSchema(m.schema) as Json) : null);
  }
  const d = { content };
  declaredCache.set(key, d);
  return d;
}

/** A schema of openapi.yaml with a top-level $ref to components.schemas followed. */
export function resolveSchema(s: Json): Json {
  const ref = s.$ref;
  if (typeof ref !== 'string') return s;
  return resolveSchema(components.schemas[ref.replace('#/components/schemas/', '')]!);
}

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
}

/** The parameters of an operation, shared ones ($ref to components.parameters) resolved. */
export function parametersOf(op: Operation): Param[] {
  const shared = (spec.components as { parameters?: Record<string, Json> }).parameters ?? {};
  const list = (paths[op.path]![op.method.toLowerCase()]!.parameters ?? []) as Json[];
  return list.map((p) => {
    const q = typeof p.$ref === 'string' ? shared[p.$ref.split('/').pop()!]! : p;
    return { name: String(q.name), in: q.in as Param['in'], required: q.required === true, schema: resolveSchema((q.schema ?? {}) as Json) };
  });
}

/** The request body schema of an operation for one media type (top-level $ref followed). */
export function requestSchemaOf(op: Operation, media: string): Json | undefined {
  const body = paths[op.path]![op.method.toLowerCase()]!.requestBody as { content?: Record<string, { schema?: Json }> } | undefined;
  const s = body?.content?.[media]?.schema;
  return s ? resolveSchema(s) : undefined;
}

/** The operation of an operationId, of 'METHOD /path/{template}', or of a concrete 'METHOD /url?query'. */
export function operationOf(ref: string): Operation | undefined {
  const direct = byId.get(ref) ?? byKey.get(ref);
  if (direct) return direct;
  const m = /^([A-Z]+) ([^?]*)/.exec(ref);
  if (!m) return undefined;
  const [, method, url] = m;
  const segs = url!.split('/');
  // Fixed segments beat parameters, as in the router (/api/task/info/admin/list/{id} vs /api/task/info/{id}).
  let best: { op: Operation; fixed: number } | undefined;
  for (const op of operations) {
    if (op.method !== method) continue;
    const t = op.path.split('/');
    if (t.length !== segs.length) continue;
    let fixed = 0;
    let fits = true;
    for (let i = 0; i < t.length && fits; i++) {
      if (/^\{.+\}$/.test(t[i]!)) fits = segs[i] !== '';
      else if (t[i] === segs[i]) fixed++;
      else fits = false;
    }
    if (fits && (!best || fixed > best.fixed)) best = { op, fixed };
  }
  return best?.op;
}

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The raw body (a string or bytes) or an already parsed JSON value. */
  body: unknown;
}

/**
 * Every way the answer departs from the contract (empty: it holds). `op` is an operationId,
 * 'METHOD /path/{template}' or a concrete 'METHOD /url'.
 */
export function checkAnswer(ref: string, answer: Answer): string[] {
  const op = operationOf(ref);
  if (!op) return [`no operation of openapi.yaml answers ${ref}`];
  const status = answer.statusCode;
  const d = declared(op, String(status));
  const problems: string[] = [];
  if (!d) problems.push(`HTTP ${status} is not declared for ${op.operationId}`);
  const type = String(answer.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json') {
    if (d && !d.content.has(type))
      problems.push(`content type '${type}' is not declared for HTTP ${status} (declared: ${[...d.content.keys()].join(', ') || 'none'})`);
    if (!d) problems.push(`the answer is not the JSON envelope (content type '${type}')`);
    return problems;
  }
  let body = answer.body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      body = JSON.parse(String(body));
    } catch {
      return [...problems, 'the body is not JSON although its content type says so'];
    }
  }
  if (!op.enveloped) {
    const validate = d?.content.get('application/json');
    if (d && !d.content.has('application/json'))
      problems.push(`a JSON answer is not declared for HTTP ${status} (declared: ${[...d.content.keys()].join(', ')})`);
    if (validate && !validate(body)) for (const e of (validate.errors ?? []).slice(0, 5)) problems.push(`body${e.instancePath} ${e.message}`);
    return problems;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, 'the body is not the {code, msg, data} envelope'];
  const env = body as Json;
  const extra = Object.keys(env).filter((k) => !['code', 'msg', 'data'].includes(k));
  if (extra.length) problems.push(`the envelope has fields beyond code, msg, data: ${extra.join(', ')}`);
  const code = env.code;
  if (typeof code !== 'string' || !(code in STATUSES_OF_CODE)) problems.push(`code ${JSON.stringify(code)} is not one of the product specification, section 8`);
  else if (!STATUSES_OF_CODE[code]!.includes(status))
    problems.push(`code ${code} does not go with HTTP ${status} (it goes with ${STATUSES_OF_CODE[code]!.join(' or ')})`);
  if (d) {
    if (!d.content.has('application/json')) problems.push(`a JSON answer is not declared for HTTP ${status} (declared: ${[...d.content.keys()].join(', ')})`);
    const validate = d.content.get('application/json');
    if (validate && !validate(env)) {
      for (const e of (validate.errors ?? []).slice(0, 5))
        problems.push(`body${e.instancePath} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
    }
  }
  return problems;
}

/** checkAnswer for an app.inject response. */
export const checkResponse = (ref: string, res: { statusCode: number; headers: Answer['headers']; rawPayload: Buffer }) =>
  checkAnswer(ref, { statusCode: res.statusCode, headers: res.headers, body: res.rawPayload });
