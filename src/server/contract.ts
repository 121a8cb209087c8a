// openapi.yaml is the single source of the routes and their roles: this reads it once.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

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
  /**
   * False for the operations tagged OPS_TAG: the probes a load balancer or monitor calls (/healthz,
   * /readyz), answered outside the {code, msg, data} envelope, at the root, without a session.
   */
  enveloped: boolean;
}

/** The tag of the operations outside the API envelope (docs/decisions/160-health-readiness-and-metrics.md). */
export const OPS_TAG = 'ops';

const specPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi.yaml');

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

const parsed = new Map<string, Record<string, unknown>>();
/**
 * openapi.yaml as an object, parsed once per process (a parse took ~0.3-0.6 s of a server's start,
 * and the app, glue and the tests each read it). Shared: readers must not change it.
 */
export function loadSpec(file = specPath): Record<string, unknown> {
  let spec = parsed.get(file);
  if (!spec) parsed.set(file, (spec = YAML.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>));
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
      const body = op.requestBody as { content?: Record<string, unknown> } | undefined;
      const tags = (op.tags ?? []) as string[];
      out.push({
        operationId: String(op.operationId),
        method: m.toUpperCase(),
        path: p,
        roles,
        tags,
        requestTypes: Object.keys(body?.content ?? {}),
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
