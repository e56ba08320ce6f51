// A run whose every service-supplied string tries to break out of the HTML report (for the HTML tests).
import type { CheckResult, Evidence, RunResult } from '../../src/core/types.js';
import { fixtureRun, results } from './fixture.js';

/** Each would run script, load something or change the page if it were not escaped. */
export const PAYLOADS = [
  '</script><script>window.__pwned = 1; alert(1)</script>',
  '<img src=x onerror="window.__pwned = 2; alert(2)">',
  '"><svg onload="window.__pwned = 3">',
  '\'><iframe src="https://evil.example/"></iframe>',
  '</style><style>body { display: none }</style>',
  '<!-- unclosed comment',
  '<base href="https://evil.example/">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '&lt;already-escaped&gt; &amp;',
];

export const HOSTILE = PAYLOADS.join(' ');

const hostileEvidence: Evidence = {
  request: {
    method: 'POST',
    url: `https://api.example.com/v1/gizmos?q=${encodeURIComponent('<script>')}&x="></a>`,
    headers: { 'x-evil': PAYLOADS[1], authorization: 'Bearer [redacted]' },
    body: { name: PAYLOADS[0], nested: { html: PAYLOADS[2] } },
  },
  response: {
    status: 500,
    headers: { 'content-type': 'text/html', 'set-cookie': PAYLOADS[3] },
    body: `<html><body>${HOSTILE}</body></html>`,
    durationMs: 7,
  },
  notes: [PAYLOADS[4]],
  error: PAYLOADS[5],
  curl: `curl -X POST 'https://api.example.com/v1/gizmos' --data-raw '${PAYLOADS[0]}'`,
};

/** A failed result with hostile message, resource name, title-free evidence and waiver. */
export const hostileResult: CheckResult = {
  checkId: 'no-server-errors',
  rules: ['ERR-SERVER'],
  suite: 'errors',
  resource: '<b>gizmos</b>',
  title: 'No request is answered 5xx',
  status: 'failed',
  severity: 'error',
  message: `POST answered 500: ${HOSTILE}`,
  evidence: [hostileEvidence],
  durationMs: 12,
};

/** The fixture run plus the hostile result, a hostile target and a hostile cleanup leftover. */
export function hostileRun(): RunResult {
  const all = [...results, hostileResult];
  const base = fixtureRun();
  return {
    ...base,
    target: { baseUrl: `https://api.example.com/v1?${PAYLOADS[6]}` },
    results: all,
    summary: { ...base.summary, total: all.length, failed: base.summary.failed + 1 },
    cleanup: {
      ...base.cleanup,
      leftovers: [
        { resource: '<b>gizmos</b>', url: 'https://api.example.com/v1/gizmos/1', reason: PAYLOADS[7] },
      ],
    },
  };
}
