// openapi.yaml is the single source of the routes and their roles: this reads it once.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import { BUILT, runFile } from './run-files.ts';

export const ROLES = ['anonymous', 'user', 'lowerAdmin', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type UserRole = Exclude<Role, 'anonymous'>;

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  roles: Role[];
  tags: string[];
  /** Media types the request body may have (empty: the operation takes no body). */
  requestTypes: string[];
  /** The contract's requestBody.required: a request without a body is refused (validation.ts requireBody). */
  bodyRequired: boolean;
  /**
   * False for the operations tagged OPS_TAG: the probes a load balancer or monitor calls (/healthz,
   * /readyz), answered outside the {code, msg, data} envelope, at the root, without a session.
   */
  enveloped: boolean;
}

/** The tag of the operations outside the API envelope (docs/decisions/160-health-readiness-and-metrics.md). */
export const OPS_TAG = 'ops';

const specPath = runFile('../../openapi.yaml', '../openapi.yaml');

/** The HTTP methods the contract's operations use (listOperations, contract-routes.ts). */
export const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/**
 * Where the parsed contract is kept as JSON, by the hash of its text: written by the build into
 * dist-server/ (scripts/build.mjs), so a built server writes nothing at run time and runs from a
 * read-only install; from the sources (tests, `npm run dev`), in node_modules/.cache as tsc's build info.
 */
const CACHE_DIR = BUILT ? runFile('.', '.') : path.resolve(path.dirname(specPath), 'node_modules/.cache/purchase-hub');

/**
 * The YAML of `file` as an object. Parsing the 240 kB contract took ~0.7 s of every server start
 * (the yaml package); its JSON, kept by the hash of the text, reads in a few ms. From the sources the
 * JSON is written only when it holds the same object (YAML values JSON has no form for would not
 * survive), in a file of its own then renamed, so a process never reads half of one; without a
 * writable cache, and always when built, a missing JSON means the YAML is parsed each time.
 */
function parseSpec(file: string): Record<string, unknown> {
  const text = fs.readFileSync(file, 'utf8');
  const cached = path.join(CACHE_DIR, `openapi-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  try {
    return JSON.parse(fs.readFileSync(cached, 'utf8')) as Record<string, unknown>;
  } catch {
    // Not cached yet.
  }
  const spec = YAML.parse(text) as Record<string, unknown>;
  if (BUILT) return spec;
  const json = JSON.stringify(spec);
  if (isDeepStrictEqual(JSON.parse(json), spec)) {
    try {
      fs.mkdirSync(CACHE_DIR, { recursive: true });
      const part = `${cached}.${process.pid}`;
      fs.writeFileSync(part, json);
      fs.renameSync(part, cached);
    } catch {
      // A read-only tree parses the YAML each time.
    }
  }
  return spec;
}

const parsed = new Map<string, Record<string, unknown>>();
/**
 * openapi.yaml as an object, read once per process (the app, its routes and the tests each read it).
 * Shared: readers must not change it.
 */
export function loadSpec(file = specPath): Record<string, unknown> {
  let spec = parsed.get(file);
  if (!spec) parsed.set(file, (spec = parseSpec(file)));
  return spec;
}

export function listOperations(spec = loadSpec()): Operation[] {
  const out: Operation[] = [];
  const paths = (spec.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const [p, item] of Object.entries(paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const roles = (op['x-roles'] ?? []) as Role[];
      if (!Array.isArray(roles) || roles.length === 0 || roles.some((r) => !ROLES.includes(r)))
        throw new Error(`openapi.yaml: ${m.toUpperCase()} ${p} needs x-roles drawn from ${ROLES.join(', ')}`);
      const body = op.requestBody as { content?: Record<string, unknown>; required?: boolean } | undefined;
      const tags = (op.tags ?? []) as string[];
      out.push({
        operationId: String(op.operationId),
        method: m.toUpperCase(),
        path: p,
        roles,
        tags,
        requestTypes: Object.keys(body?.content ?? {}),
        bodyRequired: body?.required === true,
        enveloped: !tags.includes(OPS_TAG),
      });
    }
  }
  return out;
}

let rolesCache: Map<string, Role[]> | undefined;
/** The x-roles of an operation: who may call it, read from openapi.yaml once. */
export function rolesOf(operationId: string): Role[] {
  rolesCache ??= new Map(listOperations().map((op) => [op.operationId, op.roles]));
  const roles = rolesCache.get(operationId);
  if (!roles) throw new Error(`openapi.yaml: operation ${operationId} missing`);
  return roles;
}
