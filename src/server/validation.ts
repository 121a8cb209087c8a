// The validation layer's own rules and its messages. Every request part goes through Ajv (compiled
// from openapi.yaml) and, before it, through the text rule below, the same for every field of every
// operation: no handler sees a control character, a lone surrogate, a badly encoded query value or
// an id such as " 1 ", "+1" or "0x10". Every refusal is A00001 with a Chinese message naming the field.
import type { FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError, FastifyValidationResult } from 'fastify/types/schema';
import { badRequest } from './errors.ts';

const where: Record<string, string> = { body: '请求体', querystring: '查询参数', params: '路径参数', headers: '请求头' };

export function validationMessage(errors: FastifySchemaValidationError[], context: string): string {
  const e = errors[0];
  if (!e) return '参数错误';
  const params = e.params as Record<string, unknown>;
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = (name: string) => (base ? `${base}.${name}` : name);
  const subject = base || where[context] || context;
  switch (e.keyword) {
    case 'required':
      return `参数错误：缺少字段 ${field(String(params.missingProperty))}`;
    case 'additionalProperties':
      return `参数错误：不允许的字段 ${field(String(params.additionalProperty))}`;
    case 'type':
      return `参数错误：字段 ${subject} 类型应为 ${String(params.type)}`;
    case 'enum':
      return `参数错误：字段 ${subject} 取值无效，可选值 ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minLength':
      return Number(params.limit) === 1 ? `参数错误：字段 ${subject} 不能为空` : `参数错误：字段 ${subject} 至少 ${String(params.limit)} 个字符`;
    case 'maxLength':
      return `参数错误：字段 ${subject} 最多 ${String(params.limit)} 个字符`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `参数错误：字段 ${subject} 不能小于 ${String(params.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `参数错误：字段 ${subject} 不能大于 ${String(params.limit)}`;
    case 'multipleOf':
      return `参数错误：字段 ${subject} 最多两位小数`;
    case 'minItems':
      return `参数错误：字段 ${subject} 至少 ${String(params.limit)} 项`;
    case 'maxItems':
      return `参数错误：字段 ${subject} 最多 ${String(params.limit)} 项`;
    case 'uniqueItems':
      return `参数错误：字段 ${subject} 含有重复项`;
    case 'minProperties':
      return `参数错误：${subject} 不能为空`;
    case 'pattern':
      // The contract's IdList (comma-joined ids): say what it takes.
      if (String(params.pattern).startsWith('^([1-9][0-9]{0,8}|')) return `参数错误：字段 ${subject} 应为逗号分隔的id（1至2147483647）`;
      return `参数错误：字段 ${subject} 格式错误`;
    case 'format':
      // The date filters' words (src/server/dates.ts), with the value the wrapper below adds.
      if (params.format === 'date') return `参数错误：字段 ${subject} 不是有效日期${params.value === undefined ? '' : `（${String(params.value)}）`}`;
      return `参数错误：字段 ${subject} 格式错误`;
    case 'controlCharacter':
      return `参数错误：字段 ${subject} 含有不允许的控制字符`;
    case 'loneSurrogate':
      return `参数错误：字段 ${subject} 含有无效的Unicode字符`;
    case 'decimal':
      return `参数错误：字段 ${subject} 应为十进制${params.integer ? '整数' : '数字'}`;
    case 'range':
      return `参数错误：字段 ${subject} 超出范围`;
    case 'depth':
      return `参数错误：${subject}嵌套过深`;
    case 'encoding':
      return `参数错误：字段 ${subject} 不是有效的URL编码（UTF-8）`;
    default:
      return `参数错误：字段 ${subject} 格式错误`;
  }
}

// Control characters (C0, DEL and C1) other than tab, line feed and carriage return: a textarea
// sends CR LF from some clients, and nothing else has a use for them; NUL is refused by PostgreSQL.
// eslint-disable-next-line no-control-regex -- finding control characters is this rule's purpose
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// Tracking id fields take GS1's FNC1 as a scanner sends it (GS, 0x1D): the canonical form consumes
// it as a field separator (machines/tracking-id.ts, decision 097). Fields named trackingId, and the
// scan calls' path id (the contract's only string id).
// eslint-disable-next-line no-control-regex -- the scanner's separator is the character this rule lets through
const GS = /\u001D/g;
const TRACKING_FIELD = 'trackingId';
// A UTF-16 surrogate without its pair cannot be stored as UTF-8 (PostgreSQL would get U+FFFD).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Path and query numbers are plain decimal text: no spaces, sign "+", hex, exponent or Infinity,
// which Ajv's coercion (Number(text)) would otherwise turn into a number.
const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;
const DECIMAL_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export const MISSING_BODY = '参数错误：缺少请求体';

/**
 * An operation whose contract requires a body (requestBody.required), called without one: refused
 * once the other parts are validated (a route's preHandler). Fastify validates a body only in a
 * media type the contract declares, so a request with no body and no Content-Type skipped the
 * schema and reached the handler as undefined (a TypeError, HTTP 500).
 */
export async function requireBody(req: FastifyRequest): Promise<void> {
  if (req.body === undefined) throw badRequest(MISSING_BODY);
}

/** Marks a parsed query or form whose values were not valid percent-encoded UTF-8 (see parseUrlEncoded). */
export const BAD_ENCODING = Symbol('badEncoding');

const issue = (keyword: string, path: string[], params: Record<string, unknown> = {}): FastifySchemaValidationError => ({
  keyword,
  instancePath: path.map((p) => `/${p}`).join(''),
  schemaPath: '',
  params,
  message: keyword,
});

// No request of the contract nests deeper than a few levels; a deeper body (10,000 nested arrays)
// is refused before anything walks it recursively.
const MAX_DEPTH = 32;

type Found = { keyword: string; path: string[]; params?: Record<string, unknown> };

function findText(data: unknown, depth: number, gsFields: ReadonlySet<string> = NO_GS_FIELDS, key?: string): Found | undefined {
  if (typeof data === 'string') {
    const text = key !== undefined && gsFields.has(key) ? data.replace(GS, '') : data;
    if (CONTROL.test(text)) return { keyword: 'controlCharacter', path: [] };
    if (LONE_SURROGATE.test(data)) return { keyword: 'loneSurrogate', path: [] };
    return undefined;
  }
  if (data === null || typeof data !== 'object') return undefined;
  if (depth >= MAX_DEPTH) return { keyword: 'depth', path: [] };
  const entries: [string, unknown][] = Array.isArray(data) ? data.map((v, i) => [String(i), v]) : Object.entries(data);
  for (const [key, value] of entries) {
    // A key is named as the field; "__proto__" is never a field of the contract.
    if (key === '__proto__') return { keyword: 'additionalProperties', path: [], params: { additionalProperty: key } };
    const found = findText(key, MAX_DEPTH) ?? findText(value, depth + 1, gsFields, key);
    if (found) {
      // The path is built on the way back, for the one field named (not for the nesting itself).
      if (found.keyword !== 'depth') found.path.unshift(key);
      return found;
    }
  }
  return undefined;
}

const NO_GS_FIELDS: ReadonlySet<string> = new Set();
const BODY_GS_FIELDS: ReadonlySet<string> = new Set([TRACKING_FIELD]);

/** The first string (value or key) of the data that breaks the text rule, depth first. `gsFields`: the fields that may hold GS. */
export function textIssue(data: unknown, gsFields: ReadonlySet<string> = BODY_GS_FIELDS): FastifySchemaValidationError | undefined {
  const found = findText(data, 0, gsFields);
  return found && issue(found.keyword, found.path, found.params);
}

type SchemaNode = { type?: unknown; readOnly?: boolean; properties?: Record<string, SchemaNode> };

/** The fields of a request part that may hold GS: trackingId, and a path id declared as a string (the scan calls' tracking id). */
function gsFieldsOf(schema: SchemaNode, httpPart: string): ReadonlySet<string> {
  const stringId = httpPart === 'params' && schema.properties?.id?.type === 'string';
  return stringId ? new Set([TRACKING_FIELD, 'id']) : BODY_GS_FIELDS;
}

/** Path and query parameters declared integer or number must be written as plain decimals. */
function decimalIssue(data: unknown, schema: SchemaNode): FastifySchemaValidationError | undefined {
  if (!data || typeof data !== 'object' || !schema.properties) return undefined;
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (prop.type !== 'integer' && prop.type !== 'number') continue;
    const value = (data as Record<string, unknown>)[name];
    const texts = Array.isArray(value) ? value : [value];
    const re = prop.type === 'integer' ? DECIMAL_INTEGER : DECIMAL_NUMBER;
    for (const t of texts) {
      if (typeof t !== 'string') continue;
      if (!re.test(t)) return issue('decimal', [name], { integer: prop.type === 'integer' });
      // Ajv skips minimum and maximum for a value its coercion made Infinity (a 400-digit number).
      if (!Number.isFinite(Number(t))) return issue('range', [name]);
    }
  }
  return undefined;
}

/**
 * Wraps the Ajv validator of one request part with the rules every operation shares: bodies, query
 * strings and path parameters are checked for control characters, lone surrogates and bad
 * percent-encoding, and numbers in text parts for plain decimal form, before Ajv coerces and
 * validates them. A valid body then loses its read-only properties (readOnly in openapi.yaml: what
 * the matching read returns and a save cannot change), so a client may post back what it read and
 * no handler ever sees them.
 */
export function withInputRules(validate: FastifyValidationResult, schema: unknown, httpPart: string | undefined): FastifyValidationResult {
  if (httpPart !== 'body' && httpPart !== 'querystring' && httpPart !== 'params') return validate;
  const text = httpPart !== 'body';
  const props = (schema as SchemaNode).properties ?? {};
  const readOnly = text ? [] : Object.keys(props).filter((k) => props[k]!.readOnly === true);
  const gsFields = gsFieldsOf(schema as SchemaNode, httpPart);
  const checked: FastifyValidationResult = (data: unknown) => {
    const bad = (data as { [BAD_ENCODING]?: string[] } | null)?.[BAD_ENCODING];
    const found =
      (bad?.length ? issue('encoding', [bad[0]!]) : undefined) ?? textIssue(data, gsFields) ?? (text ? decimalIssue(data, schema as SchemaNode) : undefined);
    if (found) {
      checked.errors = [found];
      return false;
    }
    const result = validate(data);
    checked.errors = validate.errors;
    const first = validate.errors?.[0];
    if (first && first.keyword === 'format' && data && typeof data === 'object') {
      checked.errors = [{ ...first, params: { ...first.params, value: (data as Record<string, unknown>)[first.instancePath.slice(1)] } }];
    }
    if (result === true && readOnly.length && data && typeof data === 'object') for (const k of readOnly) delete (data as Record<string, unknown>)[k];
    return result;
  };
  return checked;
}

/** The largest maxLength of a path parameter in the contract (the router's maxParamLength). */
export function longestPathParameter(spec: Record<string, unknown>): number {
  let longest = 0;
  const paths = (spec.paths ?? {}) as Record<string, Record<string, { parameters?: { in?: string; schema?: { maxLength?: number } }[] }>>;
  for (const item of Object.values(paths))
    for (const op of Object.values(item))
      for (const p of op.parameters ?? []) if (p.in === 'path' && typeof p.schema?.maxLength === 'number') longest = Math.max(longest, p.schema.maxLength);
  return longest || 100;
}

const decodeComponent = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s.includes('+') ? s.replace(/\+/g, ' ') : s);
  } catch {
    return undefined;
  }
};

/**
 * application/x-www-form-urlencoded text (query strings and form bodies) into a null-prototype
 * object; a repeated name gives an array. A name or value that is not valid percent-encoded UTF-8 is
 * left out and named under BAD_ENCODING, which the validation layer refuses (the default parsers
 * kept the raw text, or replaced it with U+FFFD, silently).
 */
export function parseUrlEncoded(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  let bad: string[] | undefined;
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined) {
      (bad ??= []).push(key ?? (eq < 0 ? pair : pair.slice(0, eq)));
      continue;
    }
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  if (bad) Object.defineProperty(out, BAD_ENCODING, { value: bad, enumerable: false });
  return out;
}
