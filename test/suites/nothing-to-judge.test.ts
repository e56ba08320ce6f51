// Not exercised is not passed: each observer that saw no exchange of its kind is skipped with the reason, in every report.
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import type { Middleware } from '../../src/example-api/index.js';
import { renderConsole } from '../../src/reporters/console.js';
import { renderHtml } from '../../src/reporters/html.js';
import { renderMarkdown } from '../../src/reporters/markdown.js';
import { jsonReport } from '../../src/reporters/json.js';
import bearerChallenge from '../../suites/auth/bearer-challenge.js';
import errorBodyShape from '../../suites/errors/error-body-shape.js';
import noErrorIn2xx from '../../suites/errors/no-error-in-2xx.js';
import notFound404 from '../../suites/errors/not-found-404.js';
import jsonResponses from '../../suites/general/json-responses.js';
import readCollectionAndItem from '../../suites/methods/read-collection-and-item.js';
import matchesSchema from '../../suites/schema/matches-schema.js';

/** Only authenticated reads of existing things: every answer is a 2xx, no 401 and no error at all. */
const readsOnly = new CheckTester({ with: [readCollectionAndItem] });
/** Only ids that were never issued and unknown collections (and the list that shows the id shape). */
const unknownOnly = new CheckTester({ with: [notFound404] });

/** Answers every request 404 with a JSON error: no 2xx at all (a service that refuses everything). */
const everything404: Middleware = (_req, res) => {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error":"not found"}');
  return true;
};

/**
 * A case's fixture: the example API behind `everything404`. Every collection answering 404 stops a
 * run as a wrong base URL: the run is forced past it.
 */
const all404 = { api: { middleware: everything404 }, run: { force: true } };

/** Answers every request 204 with no body: nothing carries a body to judge. */
const noBodies: Middleware = (_req, res) => {
  res.writeHead(204);
  res.end();
  return true;
};

readsOnly.run(bearerChallenge, {
  valid: [],
  invalid: [],
  skipped: [
    {
      name: 'no 401 was answered (only authenticated reads)',
      message: /^no 401 was answered, so there was no challenge to judge$/,
    },
  ],
});

readsOnly.run(errorBodyShape, {
  valid: [],
  invalid: [],
  skipped: [
    {
      name: 'no error answer was received (only successful reads)',
      message: /^no 4xx or 5xx answer \(with a body that could be read\) was received$/,
    },
  ],
});

readsOnly.run(noErrorIn2xx, {
  valid: [],
  invalid: [],
  skipped: [
    {
      name: 'no 2xx was received (every answer is 404)',
      ...all404,
      message: /^no 2xx answer was received$/,
    },
  ],
});

readsOnly.run(matchesSchema, {
  valid: [],
  invalid: [],
  skipped: [
    {
      name: 'no item or list was received to validate (every answer is 404)',
      ...all404,
      resource: 'widgets',
      message: /^no 2xx answer carried an item or a list of this resource to validate$/,
    },
  ],
});

unknownOnly.run(jsonResponses, {
  valid: [],
  invalid: [],
  skipped: [
    {
      name: 'no response carried a body (everything answers 204)',
      api: { middleware: noBodies },
      // The credential probe before the run answers 204 too: it does not stop the audit.
      message: /^no response carried a body to judge$/,
    },
  ],
});

describe('a skipped observer in the reports', () => {
  it('shows as skipped with its reason in the JSON, HTML and Markdown matrices, never as passed', async () => {
    const { result } = await auditFixture([readCollectionAndItem, bearerChallenge]);
    const challenge = result.results.filter((r) => r.checkId === 'bearer-challenge');
    expect(challenge.map((r) => r.status)).toEqual(challenge.map(() => 'skipped'));

    const json = jsonReport(result) as {
      results: Array<{ checkId: string; status: string; message?: string }>;
    };
    const fromJson = json.results.filter((r) => r.checkId === 'bearer-challenge');
    expect(
      fromJson.every((r) => r.status === 'skipped' && /^no 401 was answered/.test(r.message ?? '')),
    ).toBe(true);

    const html = renderHtml(result);
    const row = /<tr data-rule="AUTH-CHALLENGE">([\s\S]*?)<\/tr>/.exec(html)?.[1] ?? '';
    expect(row).toContain('– skipped');
    expect(row).not.toContain('passed');

    // One reason, counted once for every resource it applies to.
    const text = renderConsole(result, { color: false });
    expect(text).toContain(
      `  ${String(challenge.length).padStart(3)} × no 401 was answered, so there was no challenge to judge\n`,
    );

    const md = renderMarkdown(result);
    const mdRow = md.split('\n').find((l) => l.startsWith('| `AUTH-CHALLENGE`')) ?? '';
    expect(mdRow).toContain('⏭️');
    expect(mdRow).not.toContain('✅');
  });
});
