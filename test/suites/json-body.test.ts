// CheckTester cases for MTH-JSON-BODY: payloads not sent as JSON are refused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester, times } from '../../src/testing/check-tester.js';
import type { Middleware } from '../../src/example-api/index.js';
import jsonBodyRequired from '../../suites/methods/json-body-required.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { sendJson } from './self-requests.js';

const tester = new CheckTester();

/** POSTs whose Content-Type `matches` are handled by `then` (relabelled as JSON, refused, crashed on). */
function onPostType(
  matches: (type: string | undefined) => boolean,
  then: (req: IncomingMessage, res: ServerResponse) => boolean,
): Middleware {
  return (req, res) => {
    if (req.method !== 'POST' || !matches(req.headers['content-type'])) return false;
    return then(req, res);
  };
}

/** A lenient server that reads every body as JSON whatever its label. */
const relabel = (when: (type: string | undefined) => boolean): Middleware =>
  onPostType(when, (req) => {
    req.headers['content-type'] = 'application/json';
    return false;
  });

const notJson = (type: string | undefined): boolean => type === undefined || !type.includes('json');

tester.run(jsonBodyRequired, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'a wrong Content-Type answered 400',
      api: {
        middleware: onPostType(notJson, (_req, res) => {
          sendJson(res, 400, { error: { code: 'bad_request', message: 'send application/json' } });
          return true;
        }),
      },
    },
    {
      name: 'a wrong Content-Type answered 422 (a refusal: only 2xx and 5xx fail)',
      api: {
        middleware: onPostType(notJson, (_req, res) => {
          sendJson(res, 422, { error: { code: 'unprocessable', message: 'send application/json' } });
          return true;
        }),
      },
    },
  ],
  invalid: [
    {
      name: 'text/plain is parsed as JSON and the item created',
      api: { middleware: relabel((type) => type?.startsWith('text/plain') ?? false) },
      failures: [{ messageId: 'nonJsonAccepted' }, { messageId: 'nonJsonAccepted' }],
    },
    {
      name: 'a body without Content-Type is parsed as JSON and the item created',
      api: { middleware: relabel((type) => type === undefined) },
      failures: [{ messageId: 'nonJsonAccepted' }, { messageId: 'nonJsonAccepted' }],
    },
    {
      name: 'text/plain makes the server fail',
      api: {
        middleware: onPostType(notJson, (_req, res) => {
          sendJson(res, 500, { error: { code: 'internal', message: 'Unexpected token' } });
          return true;
        }),
      },
      failures: [...times(4, 'nonJsonCrashed')],
    },
  ],
});

describe('json-body-required cleanup', () => {
  it('deletes the items a lenient server created from non-JSON payloads', async () => {
    const { result, before, after } = await auditFixture([jsonBodyRequired], {
      api: { middleware: relabel(notJson) },
    });
    const mine = result.results.filter((r) => r.checkId === 'json-body-required');
    expect(mine.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(result.cleanup.created).toBe(4);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});
