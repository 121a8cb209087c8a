// The contract's routes as Fastify takes them (decision 191): each operation of openapi.yaml with its
// schema - the path, query and header parameters, the body by media type, the answers by status and
// media type - converted as fastify-openapi-glue converted them. Glue also validated the whole
// contract against the OpenAPI schema and resolved its references at every app it built: ~0.2-0.5 s
// of each server start and of each of the test run's ~144 apps. The contract is validated by its test
// (tests/contract/openapi.test.ts); the routes are built once a process and shared by its apps.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { loadSpec, METHODS } from './contract.ts';

type Node = Record<string, unknown>;
type Parameter = { name: string; in: string; schema?: Node; description?: string; required?: boolean; style?: string; explode?: boolean; content?: Node };

/** A route of the contract: method, Fastify's URL (`:id` for `{id}`), its operationId and its schema. */
export interface ContractRoute {
  method: string;
  url: string;
  operationId: string;
  schema: Node;
}

const isMethod = (key: string): boolean => (METHODS as readonly string[]).includes(key);

/**
 * A copy of `node` with every local reference (`$ref: '#/…'`) replaced by a copy of what it names.
 * A reference to itself through its own parts cannot be a Fastify schema: refused, naming it.
 */
function resolved(node: unknown, root: Node, within: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => resolved(n, root, within));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as Node).$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith('#/')) throw new Error(`openapi.yaml: only local references are supported (${ref})`);
    if (within.includes(ref)) throw new Error(`openapi.yaml: ${ref} refers to itself`);
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Node | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
    if (target === undefined) throw new Error(`openapi.yaml: ${ref} names nothing`);
    return resolved(target, root, [...within, ref]);
  }
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = resolved(value, root, within);
  return out;
}

/** Parameters as one object schema: each its schema (and description), the required ones listed. */
function parametersSchema(list: Parameter[]): Node {
  const properties: Node = {};
  const required: string[] = [];
  for (const { name, schema, description, required: isRequired } of list) {
    properties[name] = { ...schema, ...(description && { description }) };
    if (isRequired) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 && { required }) };
}

/** A body or an answer by media type (`{content: {type: {schema}}}`), or with `first` the first type's schema alone. */
function contentOf(data: { content?: Record<string, { schema?: unknown }> } | undefined, first = false): Node | undefined {
  if (!data?.content) return undefined;
  const types = Object.keys(data.content);
  if (types.length === 0) return undefined;
  if (first) return data.content[types[0]!]!.schema as Node | undefined;
  const content: Node = {};
  for (const type of types) if (data.content[type]!.schema) content[type] = { schema: data.content[type]!.schema };
  return { content };
}

/** The query string's schema: one parameter given as content or as an exploded object is the schema itself. */
function querySchema(list: Parameter[]): Node | undefined {
  if (list.length === 1) {
    const [only] = list as [Parameter];
    if (typeof only.content === 'object') return contentOf(only as { content: Record<string, { schema?: unknown }> }, true);
    // A query parameter's style is form unless given, and form explodes unless told not to.
    const explode = only.explode ?? (only.style ?? 'form') === 'form';
    if (explode && only.schema?.type === 'object') return only.schema;
  }
  return parametersSchema(list);
}

/** Adds the schemas of `parameters` by where they are sent (path, query, header) to `schema`. */
function addParameters(schema: Node, parameters: Parameter[]) {
  const grouped: Record<string, Parameter[]> = { path: [], query: [], header: [] };
  for (const p of parameters) {
    if (p.in === 'cookie') throw new Error(`openapi.yaml: cookie parameters are not supported by Fastify (${p.name})`);
    if (!grouped[p.in]) continue;
    grouped[p.in]!.push(p);
  }
  if (grouped.path!.length) schema.params = parametersSchema(grouped.path!);
  if (grouped.query!.length) schema.querystring = querySchema(grouped.query!);
  if (grouped.header!.length) schema.headers = parametersSchema(grouped.header!);
}

/** An operation's route schema: its descriptive fields and x- extensions, parameters, body and answers. */
function schemaOf(pathSchema: Node, op: Node): Node {
  const { tags, summary, description, operationId, parameters, requestBody, responses, ...rest } = op;
  const schema: Node = {
    ...pathSchema,
    ...(tags ? { tags } : {}),
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    ...(operationId ? { operationId } : {}),
  };
  for (const [key, value] of Object.entries(rest)) if (key.startsWith('x-')) schema[key] = value;
  if (parameters) addParameters(schema, parameters as Parameter[]);
  const body = contentOf(requestBody as Parameters<typeof contentOf>[0]);
  if (body) schema.body = body;
  const response: Node = {};
  for (const [status, answer] of Object.entries((responses ?? {}) as Node)) {
    const content = contentOf(answer as Parameters<typeof contentOf>[0]);
    if (content !== undefined) response[status] = content;
  }
  if (Object.keys(response).length > 0) schema.response = response;
  return schema;
}

const built = new WeakMap<object, ContractRoute[]>();

/** The routes of `spec` (openapi.yaml by default), built once for each spec object. */
export function contractRoutes(spec: Node = loadSpec()): ContractRoute[] {
  let routes = built.get(spec);
  if (routes) return routes;
  routes = [];
  for (const [path, item] of Object.entries((spec.paths ?? {}) as Record<string, Node>)) {
    const { parameters, ...operations } = resolved(item, spec) as Node;
    const pathSchema: Node = {};
    if (Array.isArray(parameters)) addParameters(pathSchema, parameters as Parameter[]);
    for (const [method, op] of Object.entries(operations as Record<string, Node>)) {
      if (!isMethod(method)) continue;
      if (typeof op.operationId !== 'string') throw new Error(`openapi.yaml: ${method.toUpperCase()} ${path} has no operationId`);
      routes.push({
        method: method.toUpperCase(),
        url: path.replace(/{(\w+)}/g, ':$1'),
        operationId: op.operationId,
        schema: schemaOf(pathSchema, op),
      });
    }
  }
  built.set(spec, routes);
  return routes;
}

/**
 * Registers every route of the contract on `app`, in a context of their own (as glue did), each with
 * what `resolve` gives for its operation (its handler, hooks).
 */
export async function registerContractRoutes(app: FastifyInstance, resolve: (operationId: string) => Partial<RouteOptions>, spec?: Node) {
  const routes = contractRoutes(spec);
  await app.register(async (scope) => {
    for (const route of routes) {
      scope.route({
        method: route.method,
        url: route.url,
        schema: route.schema,
        ...resolve(route.operationId),
      } as RouteOptions);
    }
  });
}
