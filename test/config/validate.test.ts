// Schema errors: each kind gives one readable line with its path in the file, nothing noisy.
import { describe, expect, test } from '@jest/globals';
import { parseConfigText } from '../../src/config/load.js';
import { configError } from './helpers.js';

type Json = Record<string, any>;

function base(): Json {
  return {
    baseUrl: 'https://api.example.com/v1',
    resources: [
      { name: 'widgets', path: '/widgets', sample: { name: 'bolt' } },
      { name: 'orders', path: '/orders' },
    ],
  };
}

/** Problems of `base()` changed by `edit`, loaded as JSON (in schema order: it is all on line 1). */
function problemsOf(edit: (config: Json) => void): string[] {
  const config = base();
  edit(config);
  const error = configError(() =>
    parseConfigText(JSON.stringify(config), { source: 'c.json', format: 'json' }),
  );
  // JSON is located too (all on line 1 here): strip that to keep the expectations short.
  return error.problems.map((line) => line.replace(/ \(line \d+\)$/, ''));
}

describe('schema errors', () => {
  test("the contract's own example is valid", () => {
    const text = `
baseUrl: https://api.example.com/v1
auth:
  token: \${API_TOKEN}
  limitedToken: \${API_LIMITED_TOKEN}
idempotency:
  header: Idempotency-Key
rateLimit:
  maxRequests: 500
  expected: true
ignoreFields: [updatedAt, etag]
webhooks:
  subscribe:
    path: /webhooks
    body: { url: "{{receiverUrl}}", events: ["*"] }
  expect:
    - after: { resource: widgets, operation: create }
      event: widget.created
  eventField: type
  signature:
    header: X-Signature
    algorithm: hmac-sha256
    encoding: hex
    prefix: "sha256="
    secret: \${WEBHOOK_SECRET}
resources:
  - name: widgets
    path: /widgets
    idField: id
    operations: [list, read, create, replace, update, delete]
    sample:  { name: bolt, price: 3 }
    replace: { name: nut, price: 4 }
    update:  { price: 5 }
    invalid:
      - { name: x, price: three }
      - { price: 3 }
    schema: { type: object }
    forbidden: [create, replace, update, delete]
    idempotencyKey: true
`;
    const env = { API_TOKEN: 'a', API_LIMITED_TOKEN: 'b', WEBHOOK_SECRET: 'c' };
    const config = parseConfigText(text, { source: 'c.yaml', env });
    expect(config.webhooks?.signature?.prefix).toBe('sha256=');
    expect(config.resources[0].invalid).toHaveLength(2);
  });

  test('unknown keys are named, with a suggestion when close', () => {
    expect(
      problemsOf((c) => {
        c.resources[1].sampel = {};
        c.baseURL = 'x';
        c.rateLimit = { burst: 3 };
        c.zzz = 1;
        c.webhooks = {
          subscribe: { path: '/h', body: {} },
          expect: [{ after: { resource: 'widgets', operation: 'create' }, event: 'e' }],
          sig: {},
        };
      }),
    ).toEqual([
      'c.json: unknown key "baseURL" (did you mean "baseUrl"?)',
      'c.json: unknown key "zzz"',
      'c.json: rateLimit: unknown key "burst"',
      'c.json: webhooks: unknown key "sig" (did you mean "signature"?)',
      'c.json: resources[1]: unknown key "sampel" (did you mean "sample"?)',
    ]);
  });

  test('an operation outside the six', () => {
    expect(problemsOf((c) => (c.resources[0].operations = ['list', 'read', 'fetch']))).toEqual([
      'c.json: resources[0].operations[2]: must be one of list, read, create, replace, update, delete (got "fetch")',
    ]);
    expect(problemsOf((c) => (c.resources[0].forbidden = ['delet']))).toEqual([
      'c.json: resources[0].forbidden[0]: must be one of list, read, create, replace, update, delete (got "delet") (did you mean "delete"?)',
    ]);
  });

  test('a repeated operation', () => {
    expect(problemsOf((c) => (c.resources[0].operations = ['read', 'list', 'read']))).toEqual([
      'c.json: resources[0].operations: lists "read" twice',
    ]);
  });

  test('wrong types', () => {
    expect(
      problemsOf((c) => {
        c.rateLimit = { maxRequests: 'many', expected: 'yes' };
        c.ignoreFields = 'etag';
        c.resources[0].sample = [1];
        c.resources[0].schema = 7;
        c.auth = { token: 42 };
      }),
    ).toEqual([
      'c.json: auth.token: must be a string (got 42)',
      'c.json: rateLimit.maxRequests: must be a number (got "many")',
      'c.json: rateLimit.expected: must be true or false (got "yes")',
      'c.json: ignoreFields: must be a list (got "etag")',
      'c.json: resources[0].sample: must be a mapping (got a list)',
      'c.json: resources[0].schema: must be a string or a mapping (got 7)',
    ]);
    expect(problemsOf((c) => (c.rateLimit = { maxRequests: 2.5 }))).toEqual([
      'c.json: rateLimit.maxRequests: must be an integer (got 2.5)',
    ]);
    expect(problemsOf((c) => (c.resources = 7))).toEqual(['c.json: resources: must be a list (got 7)']);
  });

  test('required keys', () => {
    expect(problemsOf((c) => delete c.resources)).toEqual(['c.json: resources: required']);
    expect(problemsOf((c) => delete c.resources[1].path)).toEqual(['c.json: resources[1].path: required']);
    expect(problemsOf((c) => (c.resources = []))).toEqual(['c.json: resources: must not be empty']);
  });

  test('paths start with /', () => {
    expect(problemsOf((c) => (c.resources[0].path = 'widgets'))).toEqual([
      'c.json: resources[0].path: must start with "/" (got "widgets")',
    ]);
  });

  test('limits and enums', () => {
    expect(
      problemsOf((c) => {
        c.rateLimit = { maxRequests: 0, waitMs: -1 };
        c.idempotency = { header: 'Bad Header' };
        c.resources[0].name = '';
      }),
    ).toEqual([
      'c.json: idempotency.header: must be an HTTP header name (got "Bad Header")',
      'c.json: rateLimit.maxRequests: must be >= 1 (got 0)',
      'c.json: rateLimit.waitMs: must be >= 0 (got -1)',
      'c.json: resources[0].name: must not be empty',
    ]);
  });

  test('webhooks', () => {
    expect(
      problemsOf((c) => {
        c.webhooks = {
          subscribe: { path: '/hooks', method: 'GET' },
          expect: [],
          signature: { header: 'X-Sig', encoding: 'base32', secret: 's' },
          timeoutMs: 0,
        };
      }),
    ).toEqual([
      'c.json: webhooks.subscribe.body: required',
      'c.json: webhooks.subscribe.method: must be one of POST, PUT, PATCH (got "GET")',
      'c.json: webhooks.expect: must not be empty',
      'c.json: webhooks.timeoutMs: must be > 0 (got 0)',
      'c.json: webhooks.signature.encoding: must be one of hex, base64 (got "base32") (did you mean "base64"?)',
    ]);
  });

  test('waivers: one line for "rule or check", dates checked', () => {
    expect(
      problemsOf((c) => {
        c.waivers = [
          { reason: 'r', expires: '2027-01-01' },
          { rule: 'LIM-429', reason: 'r', expires: 'soon' },
          { check: 'x', reason: 'r' },
        ];
      }),
    ).toEqual([
      'c.json: waivers[0]: needs "rule" or "check"',
      'c.json: waivers[1].expires: must be a date: YYYY-MM-DD or an ISO date-time (got "soon")',
      'c.json: waivers[2].expires: required',
    ]);
  });

  test('problems are listed once each, in file order, with lines for YAML', () => {
    const text = `baseUrl: https://a.test
resources:
  - name: w
    path: w
    operations: [fetch, fetch]
  - name: v
    sampel: {}
`;
    const error = configError(() => parseConfigText(text, { source: 'c.yaml' }));
    expect(error.code).toBe('E_CONFIG');
    expect(error.problems).toEqual([
      'c.yaml: resources[0].path: must start with "/" (got "w") (line 4)',
      'c.yaml: resources[0].operations[0]: must be one of list, read, create, replace, update, delete (got "fetch") (line 5)',
      'c.yaml: resources[0].operations[1]: must be one of list, read, create, replace, update, delete (got "fetch") (line 5)',
      'c.yaml: resources[0].operations: lists "fetch" twice (line 5)',
      'c.yaml: resources[1].path: required (line 6)',
      'c.yaml: resources[1]: unknown key "sampel" (did you mean "sample"?) (line 7)',
    ]);
    expect(error.message).toBe('6 problems in the config');
  });

  test('extension keys (x-...) may hold YAML anchors', () => {
    const text = `x-body: &body { name: bolt }
baseUrl: https://a.test
resources:
  - { name: w, path: /w, sample: *body, replace: { <<: *body, price: 2 } }
`;
    const config = parseConfigText(text, { source: 'c.yaml' });
    expect(config.resources[0].sample).toEqual({ name: 'bolt' });
    expect(config.resources[0].replace).toEqual({ name: 'bolt', price: 2 });
  });
});
