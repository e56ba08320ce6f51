// CheckTester cases for DOC-SCHEMA: wrong types, missing and undeclared fields, in items and list elements, enveloped or bare.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester, type FixtureCase, times } from '../../src/testing/check-tester.js';
import type { AuditConfig } from '../../src/core/types.js';
import type { Middleware } from '../../src/example-api/index.js';
import matchesSchema from '../../suites/schema/matches-schema.js';
import readCollectionAndItem from '../../suites/methods/read-collection-and-item.js';
import { VALID_VARIANTS } from './valid-variants.js';

const tester = new CheckTester();

/** Rewrites the JSON of the 2xx answers to requests `when` accepts (Content-Length follows). */
function rewriteJson(when: (req: IncomingMessage) => boolean, edit: (body: unknown) => unknown): Middleware {
  return (req, res) => {
    if (!when(req)) return false;
    type WriteHead = (status: number, headers?: Record<string, string>) => ServerResponse;
    const writeHead = res.writeHead.bind(res) as WriteHead;
    const end = res.end.bind(res) as (text?: string) => ServerResponse;
    let held: { status: number; headers: Record<string, string> } | undefined;
    (res as { writeHead: unknown }).writeHead = (status: number, headers: Record<string, string> = {}) => {
      held = { status, headers: { ...headers } };
      return res;
    };
    (res as { end: unknown }).end = (text?: string) => {
      let out = text;
      if (held && held.status >= 200 && held.status < 300 && text)
        out = JSON.stringify(edit(JSON.parse(text)));
      if (held) {
        for (const name of Object.keys(held.headers))
          if (name.toLowerCase() === 'content-length') delete held.headers[name];
        writeHead(held.status, { ...held.headers, 'Content-Length': String(Buffer.byteLength(out ?? '')) });
      }
      return end(out);
    };
    return false;
  };
}

const isWidgetItem = (req: IncomingMessage): boolean =>
  req.method === 'GET' && /^\/v1\/widgets\/[^/]+$/.test(req.url ?? '');
const isWidgetList = (req: IncomingMessage): boolean => req.method === 'GET' && req.url === '/v1/widgets';
const isWidgetCreate = (req: IncomingMessage): boolean => req.method === 'POST' && req.url === '/v1/widgets';

/** Applies `edit` to the item itself, bare or under {data}. */
const onItem = (edit: (item: Record<string, unknown>) => void) => (body: unknown) => {
  const b = body as Record<string, unknown>;
  edit((b.data && !Array.isArray(b.data) ? b.data : b) as Record<string, unknown>);
  return body;
};

/** The widgets schema replaced by `edit` of a copy. */
function widgetSchema(edit: (schema: Record<string, any>) => void) {
  return (config: AuditConfig): AuditConfig => ({
    ...config,
    resources: config.resources.map((r) => {
      if (r.name !== 'widgets' || !r.schema) return r;
      const schema = structuredClone(r.schema) as Record<string, any>;
      edit(schema);
      return { ...r, schema };
    }),
  });
}

/** config/schemas/widget.json says integer ids; the UUID variant needs the schema to say so too. */
const uuidIds = widgetSchema((s) => {
  s.properties.id = { type: 'string', format: 'uuid' };
});

const valid: FixtureCase[] = VALID_VARIANTS.map((c) =>
  c.api?.variant?.widgetIds === 'uuid' ? { ...c, config: uuidIds } : c,
);

tester.run(matchesSchema, {
  valid: [
    ...valid,
    {
      name: 'a create answer that carries only the id (an acknowledgement, not a representation)',
      api: { middleware: rewriteJson(isWidgetCreate, (body) => ({ id: (body as { id: number }).id })) },
    },
    {
      // Directus answers a create so (to a POST of a one-element list, the malformed probe's too).
      name: 'a create answered as a one-element list in an envelope, {"data": [item]}',
      api: { middleware: rewriteJson(isWidgetCreate, (body) => ({ data: [body] })) },
    },
    {
      name: 'undeclared fields when the schema allows them (the default)',
      api: {
        middleware: rewriteJson(
          isWidgetItem,
          onItem((item) => (item.etag = 'W/"1"')),
        ),
      },
    },
    {
      name: 'a 2020-12 schema',
      config: widgetSchema((s) => {
        s.$schema = 'https://json-schema.org/draft/2020-12/schema';
      }),
    },
  ],
  invalid: [
    {
      name: 'a field of the wrong type in item reads',
      api: {
        middleware: rewriteJson(
          isWidgetItem,
          onItem((item) => (item.price = String(item.price))),
        ),
      },
      failures: [...times(15, 'schemaMismatch')],
    },
    {
      name: 'a required field missing from item reads',
      api: {
        middleware: rewriteJson(
          isWidgetItem,
          onItem((item) => delete item.createdAt),
        ),
      },
      failures: [...times(15, 'schemaMismatch')],
    },
    {
      name: 'a wrong type inside an enveloped item: the pointer is relative to the body',
      api: {
        variant: { itemStyle: 'envelope-data' },
        middleware: rewriteJson(
          isWidgetItem,
          onItem((item) => (item.name = 42)),
        ),
      },
      failures: [...times(15, 'schemaMismatch')],
    },
    {
      name: 'a wrong type in one element of an enveloped list',
      api: {
        middleware: rewriteJson(isWidgetList, (body) => {
          ((body as { data: Array<Record<string, unknown>> }).data[1] ?? {}).tags = 'metal';
          return body;
        }),
      },
      failures: [{ messageId: 'schemaMismatch' }, { messageId: 'schemaMismatch' }],
    },
    {
      name: 'a wrong type in the created item',
      api: {
        middleware: rewriteJson(
          isWidgetCreate,
          onItem((item) => (item.id = String(item.id))),
        ),
      },
      failures: [{ messageId: 'schemaMismatch' }, { messageId: 'schemaMismatch' }],
    },
    {
      name: 'an undeclared field under additionalProperties: false',
      config: widgetSchema((s) => {
        delete s.properties.tags;
        s.additionalProperties = false;
      }),
      failures: [...times(27, 'schemaMismatch')],
    },
  ],
});

describe('matches-schema', () => {
  it('skips resources that declare no schema', async () => {
    const { result } = await auditFixture([matchesSchema, readCollectionAndItem], {
      config: (config) => ({
        ...config,
        resources: config.resources.map((r) => (r.name === 'orders' ? { ...r, schema: undefined } : r)),
      }),
    });
    const mine = result.results.filter((r) => r.checkId === 'matches-schema');
    expect(mine.map((r) => [r.resource, r.status, r.message])).toEqual([
      ['widgets', 'passed', undefined],
      ['orders', 'skipped', 'orders declares no schema'],
    ]);
  });

  it('judges every element of a list and quotes at most three problems', async () => {
    const { result } = await auditFixture([matchesSchema, readCollectionAndItem], {
      api: {
        middleware: rewriteJson(isWidgetList, (body) => {
          const list = (body as { data: Array<Record<string, unknown>> }).data;
          list.push({ ...list[0], id: 1001 }, { ...list[0], id: 1002 });
          for (const w of list) w.price = 'free';
          return body;
        }),
      },
    });
    const widgets = result.results.find((r) => r.checkId === 'matches-schema' && r.resource === 'widgets');
    expect(widgets?.status).toBe('failed');
    expect(widgets?.message).toMatch(
      /\/data\/0\/price is .*; \/data\/1\/price is .*; \/data\/2\/price is .*, and \d+ more/,
    );
  });
});

describe('matches-schema remembers verdicts', () => {
  it('still names each of two identical invalid items, on every answer that carries them', async () => {
    const { result } = await auditFixture([matchesSchema, readCollectionAndItem], {
      api: {
        middleware: rewriteJson(isWidgetList, (body) => {
          const list = (body as { data: Array<Record<string, unknown>> }).data;
          const bad = { ...list[0], price: 'free' };
          list.splice(0, list.length, bad, { ...bad });
          return body;
        }),
      },
    });
    const widgets = result.results.find((r) => r.checkId === 'matches-schema' && r.resource === 'widgets');
    const wrong = (at: number) =>
      `/data/${at}/price is a string, the schema wants number (keyword "type" at #/properties/price/type)`;
    expect(widgets?.status).toBe('failed');
    // The same list read twice: judged once, reported as before (each read counted, each item named).
    expect(widgets?.message).toBe(
      `2 of 5 responses broke the rule: GET /v1/widgets answered 200 with a list that does not match the widgets schema: ${wrong(0)}; ${wrong(1)} (2 times)`,
    );
    expect(widgets?.evidence).toHaveLength(1);
  });
});
