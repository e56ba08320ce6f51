// CheckTester cases for ERR-MALFORMED: malformed bodies get 400 and change nothing; accidental creations are cleaned up.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester, type FixtureCase, times } from '../../src/testing/check-tester.js';
import type { Middleware } from '../../src/example-api/index.js';
import type { AuditConfig } from '../../src/core/types.js';
import malformed400 from '../../suites/errors/malformed-400.js';
import { mayBePartialChange, probesFor } from '../../suites/errors/malformed-400.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { isInner, jsonOf, pathOf, replay, selfRequest, sendJson } from './self-requests.js';
import { showsDecimalStrings } from './value-fixtures.js';
import { altFixture } from '../../src/testing/alt-api/index.js';
import { countingViews } from './view-counter.js';

const tester = new CheckTester();
const WIDGET = /^\/v1\/widgets\/\d+$/;

/** Lets the API answer, but with `to` wherever it would have answered `from` (for the given methods). */
function rewriteStatus(from: number, to: number, methods = ['POST', 'PUT', 'PATCH']): Middleware {
  return (req, res) => {
    if (!methods.includes(req.method ?? '')) return false;
    const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
    (res as unknown as { writeHead: typeof writeHead }).writeHead = (status, ...rest) =>
      writeHead(status === from ? to : status, ...rest);
    return false;
  };
}

/** A refusal in the example API's error shape. */
function refuse(res: ServerResponse, status: number): void {
  sendJson(res, status, { error: { code: 'invalid_body', message: 'refused' } });
}

/** The widgets resource with an extra declared invalid payload (the service refuses duplicate names). */
function withDuplicateInvalid(c: AuditConfig): AuditConfig {
  return {
    ...c,
    resources: c.resources.map((r) =>
      r.name === 'widgets' ? { ...r, invalid: [...r.invalid, { name: 'duplicate', price: 3 }] } : r,
    ),
  };
}

/** POST /v1/widgets with the duplicate name: created anyway, then answered 400. */
const refusedButCreated: Middleware = async (req, res, body) => {
  if (isInner(req) || req.method !== 'POST' || pathOf(req) !== '/v1/widgets') return false;
  const sent = jsonOf(body) as { name?: unknown } | undefined;
  if (sent?.name !== 'duplicate') return false;
  await selfRequest(req, 'POST', '/v1/widgets', sent);
  refuse(res, 400);
  return true;
};

/** POST /v1/widgets with unparseable JSON: stored as a junk item, answered 201 with it. */
const acceptsUnparseable: Middleware = async (req, res, body) => {
  if (isInner(req) || req.method !== 'POST' || pathOf(req) !== '/v1/widgets') return false;
  if (body.length === 0 || jsonOf(body) !== undefined) return false;
  replay(res, await selfRequest(req, 'POST', '/v1/widgets', { name: 'junk', price: 0 }));
  return true;
};

/** PATCH of a widget with a wrong-typed price: refused with 400, but the price is changed anyway. */
const refusedPatchStillChanges: Middleware = async (req, res, body) => {
  if (isInner(req) || req.method !== 'PATCH' || !WIDGET.test(pathOf(req))) return false;
  if (typeof (jsonOf(body) as { price?: unknown } | undefined)?.price !== 'string') return false;
  await selfRequest(req, 'PATCH', pathOf(req), { price: 99 });
  refuse(res, 400);
  return true;
};

/**
 * PUT of a widget as a partial change, as Rails routes it (the same update as PATCH): the fields
 * sent are changed, the rest kept. With `dropWrongTypes`, a field of another type than the widget
 * has is left out silently (as Rails' strong parameters drop an object sent for a string).
 */
function putAsPartialChange(dropWrongTypes = false): Middleware {
  return async (req, res, body) => {
    if (isInner(req) || req.method !== 'PUT' || !WIDGET.test(pathOf(req))) return false;
    const sent = jsonOf(body);
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return false;
    const types: Record<string, string> = { name: 'string', price: 'number' };
    const kept = Object.entries(sent).filter(([field, value]) => {
      if (!(field in types)) return true;
      return !dropWrongTypes || typeof value === types[field];
    });
    if (kept.length === Object.keys(sent).length && 'name' in sent && 'price' in sent) return false;
    replay(res, await selfRequest(req, 'PATCH', pathOf(req), Object.fromEntries(kept)));
    return true;
  };
}

const invalid: FixtureCase[] = [
  {
    // The declared {"name": "x", "price": "three"} and the derived "price": "not a number" reach
    // PUT: a change with a number of another type is malformed whatever PUT means.
    name: 'PUT as a partial change that drops a field of the wrong type and answers 200',
    resource: 'widgets',
    api: { middleware: putAsPartialChange(true) },
    failures: [{ messageId: 'malformedAccepted' }],
  },
  {
    name: 'unparseable JSON is accepted and stored (201)',
    resource: 'widgets',
    api: { middleware: acceptsUnparseable },
    failures: [{ messageId: 'malformedAccepted' }],
  },
  {
    name: 'an empty body makes the server fail (500)',
    resource: 'widgets',
    api: {
      middleware: (req, res, body) => {
        if (req.method === 'GET' || body.length > 0) return false;
        refuse(res, 500);
        return true;
      },
    },
    failures: [
      { messageId: 'malformedCrashed' },
      { messageId: 'malformedCrashed' },
      { messageId: 'malformedCrashed' },
    ],
  },
  {
    name: 'malformed bodies are answered 422 instead of 400',
    api: { middleware: rewriteStatus(400, 422) },
    failures: [...times(6, 'answered422')],
    severity: 'warning',
  },
  {
    name: 'malformed PATCH bodies are answered 409',
    api: { middleware: rewriteStatus(400, 409, ['PATCH']) },
    failures: [{ messageId: 'not400' }, { messageId: 'not400' }],
  },
  {
    name: 'wrong field types in a PATCH are accepted (200) and stored',
    resource: 'widgets',
    api: {
      middleware: async (req, res, body) => {
        if (isInner(req) || req.method !== 'PATCH' || !WIDGET.test(pathOf(req))) return false;
        if (typeof (jsonOf(body) as { price?: unknown } | undefined)?.price !== 'string') return false;
        replay(res, await selfRequest(req, 'PATCH', pathOf(req), { price: 0 }));
        return true;
      },
    },
    failures: [{ messageId: 'malformedAccepted' }],
  },
  {
    name: 'an unknown extra field makes the server fail',
    api: {
      middleware: (req, res, body) => {
        if (!body.toString().includes('conformanceUnknownField')) return false;
        refuse(res, 500);
        return true;
      },
    },
    failures: [...times(6, 'malformedCrashed')],
  },
  {
    name: 'a POST answered 400 still creates the item',
    resource: 'widgets',
    api: { middleware: refusedButCreated },
    config: withDuplicateInvalid,
    failures: [{ messageId: 'collectionChanged' }, { messageId: 'malformedAccepted' }],
  },
  {
    name: 'a POST answered 400 creates an item that does not carry the values sent',
    resource: 'widgets',
    api: {
      middleware: async (req, res, body) => {
        if (isInner(req) || req.method !== 'POST' || pathOf(req) !== '/v1/widgets' || body.length > 0)
          return false;
        await selfRequest(req, 'POST', '/v1/widgets', { name: 'ghost', price: 1 });
        refuse(res, 400);
        return true;
      },
    },
    failures: [{ messageId: 'collectionChanged' }],
  },
  {
    name: 'a PATCH answered 400 still changes the item',
    resource: 'widgets',
    api: { middleware: refusedPatchStillChanges },
    failures: [{ messageId: 'itemChanged' }],
  },
  {
    name: 'a PATCH answered 400 still changes the item, and every read moves a view counter',
    resource: 'widgets',
    api: { middleware: countingViews(refusedPatchStillChanges) },
    failures: [{ messageId: 'itemChanged' }],
  },
];

tester.run(malformed400, {
  valid: [
    ...VALID_VARIANTS,
    {
      // Every probe is followed by reads: a counter they move is IDEM-GET's finding, no change of the probe's.
      name: 'items count their reads in a "views" member',
      api: { middleware: countingViews() },
    },
    {
      name: 'a view counter that every read moves, on the alternative API',
      ...altFixture({ breaks: ['view-counter'] }),
    },
    {
      // The declared {"price": 3} and {"name": "bolt"} leave out a required field: invalid for a
      // POST, a valid change for a PUT that changes only what it is sent (the conventions make PUT
      // a change, not a whole replacement).
      name: 'PUT as a partial change (as Rails routes it): a body without a required field changes what it carries',
      resource: 'widgets',
      api: { middleware: putAsPartialChange() },
    },
    {
      name: 'unknown fields refused with 422 (any 4xx or 2xx passes for them)',
      api: {
        middleware: (req, res, body) => {
          if (!body.toString().includes('conformanceUnknownField')) return false;
          refuse(res, 422);
          return true;
        },
      },
    },
  ],
  invalid,
});

describe('malformed-400 cleanup and probes', () => {
  it('deletes an item a malformed POST created and the answer named', async () => {
    const { result, before, after } = await auditFixture([malformed400], {
      api: { middleware: acceptsUnparseable },
    });
    expect(result.results.find((r) => r.resource === 'widgets')?.status).toBe('failed');
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('deletes an item a POST of a one-element list created, named in {"data": [item]} (Directus)', async () => {
    const batchCreate: Middleware = async (req, res, body) => {
      if (isInner(req) || req.method !== 'POST' || pathOf(req) !== '/v1/widgets') return false;
      const sent = jsonOf(body);
      if (!Array.isArray(sent) || sent.length !== 1) return false;
      const made = await selfRequest(req, 'POST', '/v1/widgets', sent[0]);
      sendJson(res, 200, { data: [(made.json as { data?: unknown }).data ?? made.json] });
      return true;
    };
    const { result, before, after } = await auditFixture([malformed400], {
      api: { middleware: batchCreate },
    });
    expect(result.results.find((r) => r.resource === 'widgets')?.problemIds).toContain('malformedAccepted');
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('deletes an item a refused POST created when it carries the values sent', async () => {
    const { result, before, after } = await auditFixture([malformed400], {
      api: { middleware: refusedButCreated },
      config: withDuplicateInvalid,
    });
    expect(result.results.find((r) => r.resource === 'widgets')?.status).toBe('failed');
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('deletes an item a refused POST created when it carries the values sent, read back as decimal strings', async () => {
    const { result, before, after } = await auditFixture([malformed400], {
      api: {
        middleware: async (req, res, body) =>
          (await refusedButCreated(req, res, body)) || showsDecimalStrings(req, res, body),
      },
      config: withDuplicateInvalid,
    });
    expect(result.results.find((r) => r.resource === 'widgets')?.message).toMatch(
      /answered 400 but changed the collection: id \d+ appeared;/,
    );
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('leads with what fails the run: the PUT accepted (error) before the POST answered 422 (warning)', async () => {
    const put = putAsPartialChange(true);
    const post422 = rewriteStatus(400, 422, ['POST']);
    const { result } = await auditFixture([malformed400], {
      api: { middleware: async (req, res, body) => (await put(req, res, body)) || post422(req, res, body) },
    });
    const widgets = result.results.find((r) => r.resource === 'widgets')!;
    expect(widgets.severity).toBe('error');
    expect(widgets.problemIds).toEqual(['malformedAccepted', 'answered422']);
    expect(widgets.message).toMatch(/^2 problems: \(1\) PUT \/v1\/widgets\/\d+ answered 200 to /);
    expect(widgets.evidence[0].request.method).toBe('PUT');
  });

  it('derives one wrong-typed value per field that no common parser coerces', () => {
    const probes = probesFor(
      { name: 'bolt', price: 3, tags: ['a'], active: true, meta: { a: 1 }, gone: null },
      [{ price: 'x' }],
    );
    expect(probes.map((p) => [p.label, p.lenient ?? false])).toEqual([
      ['unparseable JSON', false],
      ['an empty body', false],
      ['a JSON array', false],
      ['a JSON string', false],
      ['a JSON number', false],
      ['JSON null', false],
      ['invalid payload 1 {"price":"x"}', false],
      ['"name": {"conformance":"an object, not a string"}', false],
      ['"price": "not a number"', false],
      ['"tags": "not a list"', false],
      ['"active": "not a boolean"', false],
      ['"meta": "not an object"', false],
      ['an unknown field "conformanceUnknownField"', true],
    ]);
    expect(() => JSON.parse(probes[0].body)).toThrow();
    expect(probes[1].body).toBe('');
  });

  it('looks inside the envelope a payload shares with its valid bodies (Strapi takes {"data": {...}})', () => {
    const sample = { data: { name: 'bolt', price: 3 } };
    const put = { data: { name: 'nut', price: 4 } };
    const valid = [sample, put];
    expect(mayBePartialChange({ data: { price: 3 } }, put, valid)).toBe(true);
    expect(mayBePartialChange({ data: { price: 'three' } }, put, valid)).toBe(false);
    expect(mayBePartialChange({ data: { name: 'x', price: 'three' } }, put, valid)).toBe(false);
    // Bare, against the envelope's contents: all fields (the envelope left out) go; a valid body
    // with a field left out does not; a value of its own goes.
    expect(mayBePartialChange({ name: 'bolt', price: 3 }, put, valid)).toBe(false);
    expect(mayBePartialChange({ price: 3 }, put, valid)).toBe(true);
    expect(mayBePartialChange({ price: -1 }, put, valid)).toBe(false);
    // A field no valid body holds: unknown (a service may ignore it), unless the item schema names it.
    const named = new Set(['name', 'price', 'status']);
    expect(mayBePartialChange({ data: { price: 3, status: 'bogus' } }, put, valid)).toBe(true);
    expect(mayBePartialChange({ data: { price: 3, status: 'bogus' } }, put, valid, named)).toBe(false);
    // JSON:API: inside the attributes.
    const doc = (attributes: object) => ({ data: { type: 'widgets', attributes } });
    const docs = [doc({ name: 'bolt', price: 3 }), doc({ name: 'nut', price: 4 })];
    expect(mayBePartialChange(doc({ price: 3 }), docs[1], docs)).toBe(true);
    expect(mayBePartialChange(doc({ price: -3 }), docs[1], docs)).toBe(false);
    const labels = probesFor(put, []).map((p) => p.label);
    expect(labels).toContain('"data": "not an object"');
    expect(labels).toContain('"data.name": {"conformance":"an object, not a string"}');
    expect(labels).toContain('"data.price": "not a number"');
    // JSON:API: the attributes' fields, never "type" (a wrong type is rightly 409 there).
    const document = { data: { type: 'widgets', attributes: { name: 'bolt', price: 3 } } };
    const jsonApi = probesFor(document, []).map((p) => p.label);
    expect(jsonApi).toContain('"data.attributes.price": "not a number"');
    expect(jsonApi.filter((l) => l.includes('type'))).toEqual([]);
  });

  it('sends PUT the declared invalid payloads no partial change makes valid, numbered as declared', () => {
    const sample = { name: 'bolt', price: 3 };
    const put = { name: 'nut', price: 4 };
    const declared = [
      { name: 'x', price: 'three' }, // every field of the PUT body: a replacement that must be refused
      { name: '', price: 3 }, // the same
      { price: 3 }, // the sample without its name: a partial change may accept it
      { name: 'bolt' }, // the sample without its price
      { price: 'three' }, // price left out of the PUT body, but a value no valid body has
      { other: 1 }, // only a field no valid body has: an unknown field a service may ignore
      [1, 2], // not an object
      { price: 0 }, // name left out, and a price of its own: no valid change either way
    ];
    const valid = [sample, put];
    expect(declared.map((d) => mayBePartialChange(d, put, valid))).toEqual([
      false,
      false,
      true,
      true,
      false,
      true,
      false,
      false,
    ]);
    const labels = probesFor(put, declared, (d) => !mayBePartialChange(d, put, valid))
      .map((p) => p.label)
      .filter((label) => label.startsWith('invalid payload'));
    expect(labels).toEqual([
      'invalid payload 1 {"name":"x","price":"three"}',
      'invalid payload 2 {"name":"","price":3}',
      'invalid payload 5 {"price":"three"}',
      'invalid payload 7 [1,2]',
      'invalid payload 8 {"price":0}',
    ]);
  });
});
