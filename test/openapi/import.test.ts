// Deriving a config from a document: path pairs, operations, ids, payloads, invalid bodies, schemas, base URL, security.
import { describe, expect, it } from '@jest/globals';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileItemSchema } from '../../src/config/item-schema.js';
import { deriveConfig, type DerivedConfig, type DerivedResource } from '../../src/openapi/import.js';
import { loadOpenApi } from '../../src/openapi/load.js';
import { fixture, tempFolder } from './helpers.js';

type Json = Record<string, unknown>;

/** Validates and derives an inline 3.0 document (paths and components given). */
async function derive(doc: Json, documentUrl?: string): Promise<DerivedConfig> {
  const file = join(await tempFolder(), 'openapi.json');
  await writeFile(file, JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, ...doc }));
  const loaded = await loadOpenApi(file);
  return deriveConfig(loaded.document, documentUrl ? { documentUrl } : {});
}

async function deriveFile(file: string): Promise<DerivedConfig> {
  const loaded = await loadOpenApi(file);
  return deriveConfig(loaded.document, {});
}

const ok = { '200': { description: 'ok' } };
const json = (schema: Json, extra: Json = {}): Json => ({
  content: { 'application/json': { schema, ...extra } },
});
const idParam = (name = 'id'): Json => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const byName = (derived: DerivedConfig, name: string): DerivedResource =>
  derived.resources.find((r) => r.name === name)!;

const WIDGET = {
  type: 'object',
  required: ['name', 'price'],
  properties: {
    id: { type: 'integer', readOnly: true },
    name: { type: 'string', minLength: 1, maxLength: 8 },
    price: { type: 'number', minimum: 0, maximum: 10 },
    ownerId: { type: 'integer' },
    kind: { type: 'string', enum: ['small', 'large'] },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

describe('resources from collection/item path pairs', () => {
  it('pairs /things with /things/{id}; everything else is not probed, with the reason', async () => {
    const derived = await derive({
      paths: {
        '/widgets': { get: { responses: ok }, post: { responses: ok } },
        '/widgets/{widgetId}': {
          parameters: [idParam('widgetId')],
          get: { responses: ok },
          delete: { responses: ok },
        },
        '/widgets/{widgetId}/parts': { parameters: [idParam('widgetId')], get: { responses: ok } },
        '/reports/{name}.csv': { parameters: [idParam('name')], get: { responses: ok } },
        '/search': { post: { responses: ok } },
        '/': { get: { responses: ok } },
        '/archive/{key}': { parameters: [idParam('key')], get: { responses: ok } },
      },
    });
    expect(derived.resources.map((r) => [r.name, r.path, r.operations])).toEqual([
      ['widgets', '/widgets', ['list', 'read', 'create', 'delete']],
      // An item path alone is a resource too: only its item operations are declared.
      ['archive', '/archive', ['read']],
    ]);
    expect(derived.notProbed).toEqual([
      {
        path: '/widgets/{widgetId}/parts',
        reason: 'nested under a path parameter: the audit cannot choose a parent id',
      },
      { path: '/reports/{name}.csv', reason: 'a path parameter mixed with text in one segment' },
      {
        path: '/search',
        reason:
          "no item path (/search/{id}) beside it, and no query parameter naming an item's id: not a collection of items",
      },
      { path: '/', reason: 'the root path: not a collection' },
    ]);
  });

  it('names resources by their last segment, with more of the path when two would clash', async () => {
    const pair = (p: string): Json => ({
      [p]: { get: { responses: ok } },
      [`${p}/{id}`]: { parameters: [idParam()], get: { responses: ok } },
    });
    const derived = await derive({
      paths: { ...pair('/admin/users'), ...pair('/public/users'), ...pair('/v2/orders') },
    });
    expect(derived.resources.map((r) => [r.name, r.path])).toEqual([
      ['admin-users', '/admin/users'],
      ['public-users', '/public/users'],
      ['orders', '/v2/orders'],
    ]);
  });

  it('idField: the path parameter when the item has it, else id (so {widgetId} maps to id)', async () => {
    const item = (properties: Json): Json => ({
      get: { responses: { '200': { description: 'one', ...json({ type: 'object', properties }) } } },
    });
    const derived = await derive({
      paths: {
        '/widgets/{widgetId}': { parameters: [idParam('widgetId')], ...item({ id: { type: 'integer' } }) },
        '/pages/{slug}': {
          parameters: [idParam('slug')],
          ...item({ id: { type: 'integer' }, slug: { type: 'string' } }),
        },
        '/docs/{docId}': { parameters: [idParam('docId')], ...item({ _id: { type: 'string' } }) },
      },
    });
    expect(derived.resources.map((r) => [r.name, r.idField])).toEqual([
      ['widgets', undefined],
      ['pages', 'slug'],
      ['docs', '_id'],
    ]);
  });
});

describe('payloads', () => {
  it('sample from the request example; replace and update from the PUT and PATCH examples', async () => {
    const derived = await deriveFile(fixture('widgets-31.yaml'));
    const widgets = byName(derived, 'widgets');
    expect(widgets.sample).toEqual({ name: 'bolt', price: 3, tags: ['metal', 'small'] });
    expect(widgets.replace).toEqual({ name: 'nut', price: 4 });
    expect(widgets.update).toEqual({ price: 5 });
    expect(widgets.origin).toEqual({ sample: 'example', replace: 'example', update: 'example' });
  });

  it('without examples: generated from the schema, read-only and unrequired server fields left out, PUT and PATCH values changed', async () => {
    const derived = await derive({
      paths: {
        '/widgets': { post: { requestBody: json(WIDGET), responses: ok } },
        '/widgets/{id}': {
          parameters: [idParam()],
          put: { requestBody: json(WIDGET), responses: ok },
          patch: {
            requestBody: json({ type: 'object', properties: { price: WIDGET.properties.price } }),
            responses: ok,
          },
        },
      },
    });
    const widgets = byName(derived, 'widgets');
    expect(widgets.sample).toEqual({ name: 'string', price: 0, ownerId: 0, kind: 'small' });
    // Strings get a suffix within maxLength, numbers move within their limits, enums take the
    // next value; a reference to another resource (ownerId) keeps its value.
    expect(widgets.replace).toEqual({ name: 'string-2', price: 1, ownerId: 0, kind: 'large' });
    // PATCH: only what its schema names.
    expect(widgets.update).toEqual({ price: 2 });
    expect(widgets.origin).toEqual({ sample: 'generated', replace: 'varied', update: 'varied' });
  });

  it('one schema for requests and responses that requires the id: no id is sent, none is judged missing', async () => {
    const shared = {
      type: 'object',
      required: ['id', 'name', 'createdAt', 'size'],
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        createdAt: { type: 'string', format: 'date-time' },
        size: { type: 'integer', default: 1 },
      },
    };
    const derived = await derive({
      paths: {
        '/things': { post: { requestBody: json(shared), responses: ok } },
        '/things/{id}': { parameters: [idParam()], get: { responses: ok } },
      },
    });
    const things = byName(derived, 'things');
    expect(things.sample).toEqual({ name: 'string', size: 1 });
    // name missing; then wrong types. size has a default: a service may fill it in when missing.
    expect(things.invalid).toEqual([
      { size: 1 },
      // An object for a string: a number is read as "12345" by Django REST framework and pydantic.
      { name: { conformance: 'an object, not a string' }, size: 1 },
      { name: 'string', size: 'not-an-integer' },
    ]);
  });

  it('a POST that takes one item or a list of them (oneOf, as Directus documents it): payloads of the one item', async () => {
    const item = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, price: { type: 'number' } },
    };
    const derived = await derive({
      paths: {
        '/things': {
          post: { requestBody: json({ oneOf: [{ type: 'array', items: item }, item] }), responses: ok },
        },
        '/things/{id}': { parameters: [idParam()], get: { responses: ok } },
      },
    });
    const things = byName(derived, 'things');
    expect(things.sample).toEqual({ name: 'string', price: 0 });
    expect(things.invalid).toContainEqual({ price: 0 });
    expect(derived.notes.filter((n) => /no JSON object sample/.test(n))).toEqual([]);
  });

  it('a PUT example equal to the sample (one schema example for both) is changed so the PUT shows', async () => {
    const derived = await deriveFile(fixture('widgets-swagger2.json'));
    const widgets = byName(derived, 'widgets');
    expect(widgets.sample).toEqual({ name: 'bolt', price: 3, tags: ['metal', 'small'] });
    expect(widgets.replace).toEqual({ name: 'bolt-2', price: 4, tags: ['metal', 'small'] });
    expect(widgets.update).toEqual({ price: 5 });
  });

  it('invalid bodies: each required field missing, then each typed field with a value of another type', async () => {
    const derived = await deriveFile(fixture('widgets-31.yaml'));
    expect(byName(derived, 'orders').invalid).toEqual([
      { quantity: 2, note: 'leave at the door' },
      { widgetId: 1, note: 'leave at the door' },
      { widgetId: 'not-an-integer', quantity: 2, note: 'leave at the door' },
      { widgetId: 1, quantity: 'not-an-integer', note: 'leave at the door' },
      // note is [string, null]: an object is neither, and no lenient parser takes it for one.
      { widgetId: 1, quantity: 2, note: { conformance: 'an object, not a string' } },
    ]);
  });

  it('says what it could not derive: no JSON body, JSON Patch only', async () => {
    const derived = await derive({
      paths: {
        '/files': {
          post: {
            requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } },
            responses: ok,
          },
        },
        '/files/{id}': {
          parameters: [idParam()],
          patch: {
            requestBody: {
              content: { 'application/json-patch+json': { schema: { type: 'array', items: {} } } },
            },
            responses: ok,
          },
        },
      },
    });
    const files = byName(derived, 'files');
    expect(files.sample).toBeUndefined();
    expect(files.update).toBeUndefined();
    expect(derived.notes).toEqual([
      'files: POST takes multipart/form-data, not JSON: no POST payload derived',
      'files: PATCH takes JSON Patch (an array of operations): no update payload derived',
    ]);
  });

  it('idempotencyKey from an Idempotency-Key header parameter of the POST', async () => {
    const derived = await deriveFile(fixture('widgets-31.yaml'));
    expect(derived.idempotencyHeader).toBe('Idempotency-Key');
    expect(derived.resources.map((r) => r.idempotencyKey)).toEqual([true, true]);
  });
});

describe('item schemas for DOC-SCHEMA', () => {
  const validate = (resource: DerivedResource) => compileItemSchema(resource.schema!);

  it('the GET item answer, unwrapped from an envelope, in ajv-ready form', async () => {
    const derived = await deriveFile(fixture('with-examples.yaml'));
    const check = validate(byName(derived, 'widgets'));
    expect(check({ id: 1, name: 'a', price: 1 })).toBe(true);
    expect(check({ data: { id: 1, name: 'a', price: 1 } })).toBe(false);
    expect(check({ id: 1, name: 'a', price: 'x' })).toBe(false);
  });

  it('3.0 nullable and boolean exclusiveMinimum, 3.1 type lists, 2.0 x-nullable become JSON Schema', async () => {
    const derived = await derive({
      paths: {
        '/things/{id}': {
          parameters: [idParam()],
          get: {
            responses: {
              '200': {
                description: 'one',
                ...json({
                  type: 'object',
                  required: ['id', 'secret'],
                  properties: {
                    id: { type: 'integer' },
                    note: { type: 'string', nullable: true },
                    weight: { type: 'number', minimum: 0, exclusiveMinimum: true },
                    secret: { type: 'string', writeOnly: true },
                  },
                }),
              },
            },
          },
        },
      },
    });
    const check = validate(byName(derived, 'things'));
    // null is allowed, 0 is excluded, a write-only required field is never in a response.
    expect(check({ id: 1, note: null, weight: 1 })).toBe(true);
    expect(check({ id: 1, weight: 0 })).toBe(false);
    const orders = validate(byName(await deriveFile(fixture('widgets-31.yaml')), 'orders'));
    const order = {
      id: '0b9e3a2c-6f0a-4b8e-9d8e-1c2b3a4d5e6f',
      widgetId: 1,
      quantity: 1,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    };
    expect(orders({ ...order, note: null })).toBe(true);
    expect(orders({ ...order, note: 3 })).toBe(false);
    const swagger = validate(byName(await deriveFile(fixture('widgets-swagger2.json')), 'orders'));
    expect(swagger({ ...order, note: null })).toBe(true);
  });

  it('a circular schema stays usable: its components travel with it', async () => {
    const derived = await derive({
      paths: {
        '/nodes/{id}': {
          parameters: [idParam()],
          get: {
            responses: { '200': { description: 'one', ...json({ $ref: '#/components/schemas/Node' }) } },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            },
          },
        },
      },
    });
    const check = validate(byName(derived, 'nodes'));
    expect(check({ id: 'a', children: [{ id: 'b', children: [] }] })).toBe(true);
    expect(check({ id: 'a', children: [{ id: 7 }] })).toBe(false);
  });
});

describe('base URL and security', () => {
  it('servers[0] with its variables; a relative URL resolves against the document URL, else needs --base-url', async () => {
    expect((await deriveFile(fixture('widgets-31.yaml'))).baseUrl).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
    });
    const relative = { servers: [{ url: '/api/v2' }], paths: {} };
    expect((await derive(relative, 'https://docs.example.com/specs/openapi.json')).baseUrl).toEqual({
      baseUrl: 'https://docs.example.com/api/v2',
    });
    expect((await derive(relative)).baseUrl).toEqual({
      problem:
        'the OpenAPI document\'s server URL "/api/v2" is relative: pass --base-url (or set baseUrl in the config)',
    });
  });

  it('Swagger 2.0: schemes (https preferred), host and basePath', async () => {
    expect((await deriveFile(fixture('widgets-swagger2.json'))).baseUrl).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
    });
  });

  it('bearer, OAuth 2 and an API key in Authorization are bearer; basic and other API keys are their own kinds', async () => {
    const withScheme = (scheme: Json) =>
      derive({ security: [{ s: [] }], components: { securitySchemes: { s: scheme } }, paths: {} });
    expect((await withScheme({ type: 'http', scheme: 'Bearer' })).security.kind).toBe('bearer');
    expect((await withScheme({ type: 'apiKey', in: 'header', name: 'Authorization' })).security.kind).toBe(
      'bearer',
    );
    expect((await deriveFile(fixture('with-examples.yaml'))).security.kind).toBe('bearer');
    expect((await derive({ paths: {} })).security.kind).toBe('none');
    const apiKey = await withScheme({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(apiKey.security).toMatchObject({ kind: 'apiKey', placement: { header: 'X-API-Key' } });
    expect(apiKey.notes).toEqual([]);
    expect((await withScheme({ type: 'http', scheme: 'basic' })).security).toMatchObject({
      kind: 'basic',
      placement: { basic: true },
    });
  });
});
