// A RunResult with every status, both severities and hostile evidence text, for the reporter tests.
import type { CheckResult, Evidence, RunResult } from '../../src/core/types.js';

/** Characters that break naive XML/terminal output: CDATA end, entities, quotes, controls, emoji. */
export const NASTY = 'a]]>b & c < d > e "f" \'g\' \u0000nul \u001b[31mesc \u0007bel 🦄 \uD800lone \uFFFE end';

/** Longer than any body limit, with a marker at the end that must not survive truncation. */
export const LONG_BODY = `${'x'.repeat(5000)}TAIL-MARKER`;

export const FAILED_CURL = `curl -X DELETE 'https://api.example.com/v1/widgets/17?a=1&b=2' -H "X-Note: ]]> <tag>"`;

const failedEvidence: Evidence = {
  request: {
    method: 'DELETE',
    url: 'https://api.example.com/v1/widgets/17?a=1&b=2',
    headers: { authorization: '[redacted]', 'x-note': ']]> <tag> & "q"' },
    body: { note: NASTY },
  },
  response: {
    status: 204,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-weird': 'a&b<c>"d"' },
    body: NASTY,
    durationMs: 3,
  },
  notes: ['redirect not followed'],
  curl: FAILED_CURL,
};

const longEvidence: Evidence = {
  request: { method: 'POST', url: 'https://api.example.com/v1/widgets', headers: {}, body: { name: 'bolt' } },
  response: {
    status: 201,
    headers: { 'content-type': 'text/html' },
    body: LONG_BODY,
    durationMs: 12,
    truncated: true,
  },
  curl: `curl -X POST 'https://api.example.com/v1/widgets' -H "Authorization: Bearer $API_TOKEN" --data-raw '{"name":"bolt"}'`,
};

const timeoutEvidence: Evidence = {
  request: { method: 'GET', url: 'https://api.example.com/v1/gadgets', headers: {}, body: null },
  response: null,
  error: 'UND_ERR_HEADERS_TIMEOUT: headers not received in 5000 ms',
  curl: `curl 'https://api.example.com/v1/gadgets'`,
};

function result(partial: Partial<CheckResult> & Pick<CheckResult, 'checkId' | 'status'>): CheckResult {
  return {
    rules: ['GEN-JSON'],
    suite: 'general',
    title: `Title of ${partial.checkId}`,
    severity: 'error',
    evidence: [],
    durationMs: 10,
    ...partial,
  };
}

export const results: CheckResult[] = [
  result({ checkId: 'json-responses', resource: 'widgets', status: 'passed', durationMs: 1234.5678 }),
  result({
    checkId: 'auth-missing-token',
    rules: ['AUTH-MISSING', 'GEN-STATELESS'],
    suite: 'auth',
    resource: 'widgets',
    title: 'Requests without credentials are answered 401',
    status: 'failed',
    message: `DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> \u001b[2J\nsecond line of detail`,
    evidence: [failedEvidence, longEvidence],
    durationMs: 45,
  }),
  result({
    checkId: 'create-location',
    rules: ['MTH-CREATE'],
    suite: 'methods',
    resource: 'widgets',
    status: 'failed',
    severity: 'warning',
    message: 'POST /v1/widgets answered 201 without a Location header',
    evidence: [longEvidence],
  }),
  result({
    checkId: 'delete-removes',
    rules: ['MTH-DELETE'],
    suite: 'methods',
    resource: 'widgets',
    status: 'failed',
    message: 'GET after DELETE answered 200, expected 404',
    evidence: [],
  }),
  result({
    checkId: 'forbidden-writes',
    rules: ['AUTH-FORBIDDEN'],
    suite: 'auth',
    resource: 'widgets',
    status: 'skipped',
    message: 'no limited token configured',
  }),
  result({
    checkId: 'forbidden-writes',
    rules: ['AUTH-FORBIDDEN'],
    suite: 'auth',
    resource: 'gadgets',
    status: 'skipped',
    message: 'no limited token configured',
  }),
  result({
    checkId: 'replace-changes',
    rules: ['MTH-CHANGE'],
    suite: 'methods',
    resource: 'gadgets',
    status: 'skipped',
    message: 'operation replace not declared',
  }),
  result({
    checkId: 'list-reads',
    rules: ['MTH-READ'],
    suite: 'methods',
    resource: 'gadgets',
    status: 'errored',
    message: 'TypeError: cannot read properties of undefined\n    at run (suites/methods/list-reads.ts:12:3)',
    evidence: [timeoutEvidence],
  }),
  result({
    checkId: 'rate-limit',
    rules: ['RATE-LIMIT'],
    suite: 'limits',
    status: 'waived',
    message: 'no 429 within 500 requests',
    waiver: { reason: 'gateway enforces limits & quotas', expires: '2027-01-31' },
  }),
  result({ checkId: 'no-verbs', rules: ['RES-NOUN'], suite: 'resources', status: 'passed' }),
];

/** The fixture run: 2 passed, 3 failed (one warning), 3 skipped, 1 errored, 1 waived. */
export function fixtureRun(overrides: Partial<RunResult> = {}): RunResult {
  return {
    tool: { name: 'conformance', version: '0.1.0' },
    target: { baseUrl: 'https://api.example.com/v1' },
    startedAt: '2026-11-22T10:00:00.123Z',
    durationMs: 1834,
    summary: { total: 10, passed: 2, failed: 3, skipped: 3, errored: 1, waived: 1, requests: 812 },
    results,
    cleanup: {
      created: 4,
      deleted: 3,
      leftovers: [
        { resource: 'widgets', url: 'https://api.example.com/v1/widgets/99', reason: 'DELETE answered 500' },
      ],
    },
    ...overrides,
  };
}
