// The contract's routes (src/server/contract-routes.ts): what a route's schema holds for the parts of
// an operation, and the contracts it refuses at start, naming what is wrong.
import { describe, expect, it } from 'vitest';
import { contractRoutes } from '../../src/server/contract-routes.ts';

const specWith = (paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) => ({ openapi: '3.1.0', paths, components: { schemas } });
const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Answer' } } } } };
const Answer = { type: 'object', properties: { code: { type: 'string' } } };

describe('the routes of a contract', () => {
  it('give each operation its URL, parameters, body and answers, references resolved', () => {
    const [route] = contractRoutes(
      specWith(
        {
          '/api/things/{id}': {
            post: {
              operationId: 'changeThing',
              'x-roles': ['admin'],
              parameters: [
                { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
                { name: 'page', in: 'query', schema: { type: 'integer' }, description: 'from 0' },
              ],
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
              responses: ok,
            },
          },
        },
        { Thing: { type: 'object', properties: { name: { type: 'string' } } }, Answer },
      ),
    );
    expect(route).toEqual({
      method: 'POST',
      url: '/api/things/:id',
      operationId: 'changeThing',
      schema: {
        operationId: 'changeThing',
        'x-roles': ['admin'],
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        querystring: { type: 'object', properties: { page: { type: 'integer', description: 'from 0' } } },
        body: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } },
        response: { '200': { content: { 'application/json': { schema: Answer } } } },
      },
    });
  });

  it('take one query parameter that is an object, exploded, as the query schema itself', () => {
    const filter = { type: 'object', properties: { status: { type: 'string' } } };
    const [route] = contractRoutes(
      specWith({ '/api/list': { get: { operationId: 'list', parameters: [{ name: 'filter', in: 'query', schema: filter }], responses: ok } } }, { Answer }),
    );
    expect(route!.schema.querystring).toEqual(filter);
  });

  it('refuse a schema that refers to itself, a foreign reference and a cookie parameter, naming each', () => {
    const answering = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });
    expect(() =>
      contractRoutes(
        specWith(
          { '/a': { get: { operationId: 'a', responses: answering({ $ref: '#/components/schemas/Node' }) } } },
          { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } },
        ),
      ),
    ).toThrow('#/components/schemas/Node refers to itself');
    expect(() => contractRoutes(specWith({ '/b': { get: { operationId: 'b', responses: answering({ $ref: 'other.yaml#/X' }) } } }))).toThrow(
      'only local references are supported (other.yaml#/X)',
    );
    expect(() =>
      contractRoutes(specWith({ '/c': { get: { operationId: 'c', parameters: [{ name: 'sid', in: 'cookie', schema: { type: 'string' } }], responses: {} } } })),
    ).toThrow('cookie parameters are not supported by Fastify (sid)');
  });
});
