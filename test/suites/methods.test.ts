// CheckTester cases for the methods suite: MTH-READ, MTH-CREATE, MTH-CHANGE, MTH-DELETE.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester, times } from '../../src/testing/check-tester.js';
import readCollectionAndItem from '../../suites/methods/read-collection-and-item.js';
import createAnswers201 from '../../suites/methods/create-answers-201.js';
import createLocation from '../../suites/methods/create-location.js';
import changeVisible from '../../suites/methods/change-visible.js';
import deleteRemoves from '../../suites/methods/delete-removes.js';
import notFound404 from '../../suites/errors/not-found-404.js';
import { refusalText } from '../../suites/support/refusal.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { altFixture } from '../../src/testing/alt-api/index.js';
import { DECIMAL_STRINGS_CASE, roundsPrices, threeDecimalPrices } from './value-fixtures.js';
import type { AuditConfig } from '../../src/core/types.js';
import { countingViews } from './view-counter.js';

/** The alternative API's updates payloads with a rollout of three decimals (shown with two). */
function rolloutOfThreeDecimals(config: AuditConfig): AuditConfig {
  return {
    ...config,
    resources: config.resources.map((r) =>
      r.name === 'updates'
        ? {
            ...r,
            sample: { ...(r.sample as object), rollout: 3.456 },
            update: { rollout: 7.891 },
          }
        : r,
    ),
  };
}

/** Why a create is refused, as Feathers says it. */
const REFUSAL = {
  name: 'BadRequest',
  message: 'validation failed',
  data: [{ path: '/userId', message: 'managed' }],
};

const tester = new CheckTester();

tester.run(readCollectionAndItem, {
  valid: VALID_VARIANTS,
  invalid: [
    {
      name: 'GET item answers 203',
      api: { breaks: { readStatus: true } },
      failures: [{ messageId: 'itemNot200' }, { messageId: 'itemNot200' }],
    },
    {
      name: 'GET collection answers 202',
      api: { breaks: { listStatus: true } },
      failures: [{ messageId: 'collectionNot200' }, { messageId: 'collectionNot200' }],
    },
  ],
});

tester.run(createAnswers201, {
  valid: [
    ...VALID_VARIANTS,
    // Found by the alternative API: the payload is sent and read back inside JSON:API documents.
    { name: 'JSON:API documents', ...altFixture({ format: 'jsonapi' }) },
    DECIMAL_STRINGS_CASE,
    {
      name: 'numbers as strings with two decimals, date-times at +02:00, dates as midnight UTC',
      ...altFixture({ values: 'decimal-strings' }),
    },
    {
      name: 'the same inside JSON:API documents',
      ...altFixture({ values: 'decimal-strings', format: 'jsonapi' }),
    },
  ],
  invalid: [
    {
      name: 'a price of three decimals stored rounded to two',
      resource: 'widgets',
      api: { middleware: roundsPrices },
      config: threeDecimalPrices,
      failures: [{ messageId: 'valuesNotShown' }],
    },
    {
      name: 'a rollout of three decimals shown as a string with two',
      resource: 'updates',
      ...altFixture({ values: 'decimal-strings' }, rolloutOfThreeDecimals),
      failures: [{ messageId: 'valuesNotShown' }],
    },
    {
      name: 'POST answers 200',
      api: { breaks: { createStatus200: true } },
      failures: [{ messageId: 'not201' }, { messageId: 'not201' }],
    },
    {
      name: 'POST refused with 400 (the service manages a field the sample sends)',
      resource: 'widgets',
      api: { middleware: createAnswer(400, REFUSAL) },
      failures: [{ messageId: 'createRefused' }],
    },
    {
      name: 'the created item cannot be read back',
      api: { breaks: { createNotReadable: true } },
      failures: [{ messageId: 'notReadable' }, { messageId: 'notReadable' }],
    },
    {
      name: 'POST answers 201 with the sample and the id of a widget that existed before',
      api: { middleware: createAnswer(201, { id: 1, name: 'bolt', price: 3 }) },
      failures: [{ messageId: 'notNewItem' }],
    },
    {
      name: 'POST answers 201 with a Location naming a widget that existed before',
      api: { middleware: createAnswer(201, undefined, (origin) => `${origin}/v1/widgets/1`) },
      failures: [{ messageId: 'notNewItem' }],
    },
    {
      name: 'POST answers 201 with an id that path normalisation turns into another item',
      api: { middleware: createAnswer(201, { id: 'x/../1', name: 'bolt', price: 3 }) },
      failures: [{ messageId: 'notNewItem' }],
    },
    {
      name: 'POST answers 201 with only a Location on another origin',
      api: { middleware: createAnswer(201, undefined, () => 'http://127.0.0.1:9/v1/widgets/1') },
      failures: [{ messageId: 'noItemNamed' }],
    },
    {
      name: 'optional fields silently dropped',
      ...altFixture({ breaks: ['create-drops-optional'] }),
      failures: [
        { messageId: 'valuesNotShown' },
        { messageId: 'valuesNotShown' },
        { messageId: 'valuesNotShown' },
      ],
    },
    {
      name: 'optional fields silently dropped, JSON:API',
      ...altFixture({ format: 'jsonapi', breaks: ['create-drops-optional'] }),
      failures: [
        { messageId: 'valuesNotShown' },
        { messageId: 'valuesNotShown' },
        { messageId: 'valuesNotShown' },
      ],
    },
  ],
});

tester.run(createLocation, {
  valid: [
    ...VALID_VARIANTS.filter((v) => v.api?.variant?.locationStyle !== 'none'),
    {
      name: 'no body, only a Location; HAL items',
      ...altFixture({ createBody: 'location-only', lists: 'hal' }),
    },
    { name: 'JSON:API documents', ...altFixture({ format: 'jsonapi' }) },
  ],
  invalid: [
    {
      name: 'no Location header',
      api: { breaks: { noLocation: true } },
      failures: [{ messageId: 'noLocation' }, { messageId: 'noLocation' }],
      severity: 'warning',
    },
    {
      name: 'Location leads elsewhere',
      api: {
        middleware: (req, res) => {
          // Answers creates itself, pointing Location at an item that does not exist.
          if (req.method !== 'POST' || !/^\/v1\/(widgets|orders)$/.test(req.url ?? '')) return false;
          res.writeHead(201, { 'content-type': 'application/json', location: `${req.url}/999999` });
          res.end(
            JSON.stringify({
              id: req.url?.includes('widgets') ? 424242 : 'a3f1c2d4-0000-4000-8000-000000000001',
              name: 'x',
            }),
          );
          return true;
        },
      },
      failures: [{ messageId: 'locationLeadsElsewhere' }, { messageId: 'locationLeadsElsewhere' }],
      severity: 'warning',
    },
    {
      // Found by the alternative API: GET on the Location answers 200 with the whole collection.
      name: 'Location points to the collection',
      ...altFixture({ breaks: ['location-collection'] }),
      failures: [
        { messageId: 'locationLeadsToList' },
        { messageId: 'locationLeadsToList' },
        { messageId: 'locationLeadsToList' },
      ],
      severity: 'warning',
    },
  ],
});

tester.run(changeVisible, {
  valid: [
    ...VALID_VARIANTS,
    // Found by the alternative API: PUT and PATCH payloads are JSON:API documents.
    { name: 'JSON:API documents', ...altFixture({ format: 'jsonapi' }) },
    DECIMAL_STRINGS_CASE,
    {
      name: 'numbers as strings with two decimals, date-times at +02:00, dates as midnight UTC',
      ...altFixture({ values: 'decimal-strings' }),
    },
  ],
  invalid: [
    {
      name: 'prices of three decimals stored rounded to two',
      resource: 'widgets',
      api: { middleware: roundsPrices },
      config: threeDecimalPrices,
      failures: [{ messageId: 'changeNotVisible' }],
    },
    {
      name: 'a rollout of three decimals shown as a string with two',
      resource: 'updates',
      ...altFixture({ values: 'decimal-strings' }, rolloutOfThreeDecimals),
      failures: [{ messageId: 'changeNotVisible' }],
    },
    {
      name: 'PATCH ignored, JSON:API',
      ...altFixture({ format: 'jsonapi', breaks: ['patch-ignored'] }),
      failures: [
        { messageId: 'changeNotVisible' },
        { messageId: 'changeNotVisible' },
        { messageId: 'changeNotVisible' },
      ],
    },
    {
      name: 'PUT and PATCH answer 204',
      api: { breaks: { changeStatus204: true } },
      failures: [...times(4, 'not200')],
    },
    {
      name: 'changes are not stored',
      api: { breaks: { changeNotApplied: true } },
      // The message names the item URL changed and read (not only the methods).
      failures: [
        {
          messageId: 'changeNotVisible',
          resource: 'widgets',
          message:
            /^PUT \/v1\/widgets\/(\d+) answered 200 but a later GET \/v1\/widgets\/\1 does not show the values sent: /,
        },
        ...times(3, 'changeNotVisible'),
      ],
    },
    {
      name: 'PATCH answers 500',
      api: { breaks: { serverError: true } },
      failures: [{ messageId: 'not200' }, { messageId: 'not200' }],
    },
  ],
});

tester.run(deleteRemoves, {
  valid: [
    ...VALID_VARIANTS,
    {
      // Found by the alternative API: the envelope around the bystander differs on every answer.
      name: 'items in {data, meta: {request_id}} with a new request id per answer',
      ...altFixture({ items: 'data' }),
    },
    {
      // Found by the alternative API: the bystander's view counter moves on every read (IDEM-GET's finding).
      name: 'a view counter that every read moves',
      ...altFixture({ breaks: ['view-counter'] }),
    },
    {
      name: 'items count their reads in a "views" member (example API)',
      api: { middleware: countingViews() },
    },
  ],
  invalid: [
    {
      name: 'the item stays readable',
      api: { breaks: { deleteNoop: true } },
      failures: [
        { messageId: 'stillReadable' },
        { messageId: 'stillReadable' },
        { messageId: 'stillListed' },
        { messageId: 'stillListed' },
      ],
    },
    {
      name: 'DELETE answers 500',
      api: { breaks: { deleteStatus500: true } },
      failures: [{ messageId: 'deleteNot2xx' }, { messageId: 'deleteNot2xx' }],
    },
    {
      name: 'DELETE removes another item too',
      api: { breaks: { deleteOthers: true } },
      failures: [{ messageId: 'othersVanished' }, { messageId: 'othersVanished' }],
    },
    {
      name: 'DELETE removes another item too, and every read moves a view counter',
      api: { breaks: { deleteOthers: true }, middleware: countingViews() },
      failures: [{ messageId: 'othersVanished' }, { messageId: 'othersVanished' }],
    },
    {
      name: 'DELETE removes the item created before it, on the alternative API whose reads move a view counter',
      ...altFixture({ breaks: ['view-counter', 'delete-neighbour'] }),
      resource: 'addresses',
      failures: [{ messageId: 'otherItemAffected' }, { messageId: 'othersVanished' }],
    },
    {
      // Found by the alternative API: the item URL answers 404 but the collection still lists it.
      name: 'a soft delete that keeps listing the item',
      ...altFixture({ breaks: ['soft-delete-listed'] }),
      failures: [{ messageId: 'stillListed' }, { messageId: 'stillListed' }, { messageId: 'stillListed' }],
    },
    {
      name: 'a soft delete that keeps listing the item on a later page of a HAL collection',
      ...altFixture({ lists: 'hal', pageSize: 2, breaks: ['soft-delete-listed'] }),
      failures: [{ messageId: 'stillListed' }, { messageId: 'stillListed' }, { messageId: 'stillListed' }],
    },
  ],
});

/** Every PUT of a widget answered 405, with these headers. */
function putNotAllowed(
  headers: Record<string, string>,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'PUT' || !/^\/v1\/widgets\//.test(req.url ?? '')) return false;
    res.writeHead(405, { 'content-type': 'application/json', ...headers }).end('{"error":"no PUT"}');
    return true;
  };
}

describe('a 405 to an operation the config declares', () => {
  const problemsOf = async (headers: Record<string, string>) => {
    const { result } = await auditFixture([changeVisible, notFound404], {
      api: { middleware: putNotAllowed(headers) },
    });
    return result.results.filter((r) => r.resource === 'widgets').flatMap((r) => r.problems ?? []);
  };

  it('says the service may not offer it, naming the operation to leave out', async () => {
    const problems = await problemsOf({ allow: 'GET, PATCH, DELETE' });
    const put = problems.filter((p) => /^PUT /.test(p));
    expect(put.length).toBe(2); // change-visible's PUT of its item, not-found-404's PUT of an unknown id
    for (const p of put)
      expect(p).toMatch(
        /; 405 says the service offers no PUT here \(Allow: GET, PATCH, DELETE\): if so, leave replace out of the resource's operations in the config$/,
      );
  });

  it('quotes the answer of a refused change: NestJS routes no PUT and says so with a 404', async () => {
    const cannotPut = (req: IncomingMessage, res: ServerResponse): boolean => {
      if (req.method !== 'PUT') return false;
      const body = { message: `Cannot PUT ${req.url}`, error: 'Not Found', statusCode: 404 };
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return true;
    };
    const { result } = await auditFixture([changeVisible], { api: { middleware: cannotPut } });
    const problems = result.results.filter((r) => r.resource === 'widgets').flatMap((r) => r.problems ?? []);
    expect(problems[0]).toMatch(
      /^PUT \/v1\/widgets\/\d+ answered 404 \{"message":"Cannot PUT \/v1\/widgets\/\d+","error":"Not Found","statusCode":404\}, expected 200$/,
    );
  });

  it('says nothing of the kind when the Allow header lists the method', async () => {
    const problems = await problemsOf({ allow: 'GET, PUT, PATCH, DELETE' });
    expect(problems.filter((p) => /^PUT /.test(p)).length).toBe(2);
    expect(problems.filter((p) => p.includes('offers no'))).toEqual([]);
  });
});

describe('create-answers-201 messages', () => {
  it('a create redirected says where to (FastAPI serves /widgets at /widgets/)', async () => {
    const redirect = createAnswer(307, undefined, (origin) => `${origin}/v1/widgets/`);
    const { result } = await auditFixture([createAnswers201], { api: { middleware: redirect } });
    const widgets = result.results.find((r) => r.resource === 'widgets');
    expect(widgets?.message).toMatch(
      /^POST \/v1\/widgets answered 307 to http:\/\/127\.0\.0\.1:\d+\/v1\/widgets\/ \(a write is not sent again where a redirect points: the service serves this path with a trailing slash, so declare it that way in the config\), expected 201$/,
    );
  });

  it('quotes a refusal whole or not at all: a body cut short could end in part of an echoed secret', () => {
    const refused = (json: unknown) => ({
      status: 401,
      text: JSON.stringify(json),
      json,
      headers: {},
      url: 'http://x/v1/w',
    });
    expect(refusalText(refused({ detail: 'Not authenticated' }))).toBe(' {"detail":"Not authenticated"}');
    const echo = { error: 'invalid token', token: `sk_live_${'4f9a8b7c'.repeat(20)}` };
    expect(refusalText(refused(echo))).toBe('');
  });

  it('a refused create says why, in the words of its answer', async () => {
    const { result } = await auditFixture([createAnswers201], {
      api: { middleware: createAnswer(400, REFUSAL) },
    });
    const widgets = result.results.find((r) => r.resource === 'widgets');
    expect(widgets?.message).toMatch(
      /^POST \/v1\/widgets answered 400 \{"name":"BadRequest","message":"validation failed","data":\[\{"path":"\/userId",.*, expected 201$/,
    );
  });
});

/**
 * Example API middleware: every POST of a widget is answered with this status, body and Location
 * (given the server's origin) instead of being stored.
 */
function createAnswer(
  status: number,
  body: unknown,
  location?: (origin: string) => string,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST' || !/^\/v1\/widgets\/?$/.test(req.url ?? '')) return false;
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (location) headers.location = location(`http://${req.headers.host}`);
    res.writeHead(status, headers).end(body === undefined ? undefined : JSON.stringify(body));
    return true;
  };
}
