// Existence needs proof: an API answering 200 {"error":"not found"} for gone and unknown items (ERR-STATUS's finding)
// is never said to have created, kept or left behind an item, in findings or in the cleanup report.
import { describe, expect, it } from '@jest/globals';
import type { Middleware } from '../../src/example-api/index.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { renderConsole } from '../../src/reporters/console.js';
import { renderHtml } from '../../src/reporters/html.js';
import { renderMarkdown } from '../../src/reporters/markdown.js';
import { jsonReport } from '../../src/reporters/json.js';
import missingCredentials401 from '../../suites/auth/missing-credentials-401.js';
import invalidCredentials401 from '../../suites/auth/invalid-credentials-401.js';
import createAnswers201 from '../../suites/methods/create-answers-201.js';
import deleteRemoves from '../../suites/methods/delete-removes.js';
import { FULL } from './auth-fixtures.js';
import { pathOf } from './self-requests.js';

const ITEM = /^\/v1\/(widgets|orders)\/[^/]+$/;
const PROBE = 'x-existence-probe';
const SAID = 'deleted, but the API answers 200 with an error body: see ERR-STATUS';

/**
 * Any request to an item that does not exist (never issued, or deleted) is answered 200
 * `{"error":"not found"}`, whatever its credentials: existence is looked up first, as some APIs do.
 */
const notFoundAs200: Middleware = async (req, res) => {
  if (req.headers[PROBE] === '1' || !ITEM.test(pathOf(req))) return false;
  const probe = await fetch(`http://${req.headers.host}${pathOf(req)}`, {
    headers: { authorization: `Bearer ${FULL}`, [PROBE]: '1' },
  });
  await probe.arrayBuffer();
  if (probe.status !== 404) return false;
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  return true;
};

describe('an API answering 200 {"error":"not found"} for items that do not exist', () => {
  it('AUTH-MISSING: a 200 error object on an unknown id is "answered 200 instead of 401", not an item it created, not critical', async () => {
    const { result } = await auditFixture([missingCredentials401], { api: { middleware: notFoundAs200 } });
    const widgets = result.results.find((r) => r.resource === 'widgets')!;
    expect(widgets.status).toBe('failed');
    const problems = widgets.problems ?? [];
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^\d+ requests without credentials answered 200 instead of 401 \(with an error object in the body: see ERR-STATUS\): .*PUT \/v1\/widgets\/\d+ \[unknown id\]/,
      ),
    );
    expect(problems.filter((p) => /CRITICAL|it acted|it created/.test(p))).toEqual([]);
    // Nothing was made: nothing for cleanup to delete beyond the audit's own item.
    expect(result.cleanup.leftovers).toEqual([]);
  });

  it('AUTH-INVALID: the same with a garbage token', async () => {
    const { result } = await auditFixture([invalidCredentials401], { api: { middleware: notFoundAs200 } });
    const widgets = result.results.find((r) => r.resource === 'widgets')!;
    const problems = widgets.problems ?? [];
    expect(problems).toContainEqual(
      expect.stringMatching(
        /with a garbage Bearer token answered 200 instead of 401 \(with an error object in the body: see ERR-STATUS\)/,
      ),
    );
    expect(problems.filter((p) => /CRITICAL|it acted|it created/.test(p))).toEqual([]);
  });

  it('MTH-DELETE: the deleted item is not "still readable": the message says what is true', async () => {
    const { result } = await auditFixture([deleteRemoves], { api: { middleware: notFoundAs200 } });
    const widgets = result.results.find((r) => r.resource === 'widgets')!;
    expect(widgets.status).toBe('failed');
    expect(widgets.message).toMatch(
      /after DELETE \/v1\/widgets\/\d+ answered 204, GET \/v1\/widgets\/\d+ answered 200 with an error object in the body, expected 404: deleted, but the API answers 200 with an error body: see ERR-STATUS/,
    );
    expect(widgets.message).not.toContain('still readable');
  });

  it('cleanup: what it deleted is deleted, not "still there", in the JSON, console, HTML and Markdown reports', async () => {
    const { result, before, after } = await auditFixture([createAnswers201, deleteRemoves], {
      api: { middleware: notFoundAs200 },
    });
    const { cleanup } = result;
    expect(cleanup.leftovers).toEqual([]);
    expect(cleanup.created).toBeGreaterThan(0);
    expect(cleanup.deleted).toBe(cleanup.created);
    expect(cleanup.deletedWithErrorBody?.length).toBe(cleanup.created);
    for (const entry of cleanup.deletedWithErrorBody ?? []) expect(entry.reason).toContain(SAID);
    // Really deleted: the service holds what it held before.
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));

    const json = jsonReport(result) as { cleanup: { deletedWithErrorBody?: unknown[] } };
    expect(json.cleanup.deletedWithErrorBody).toHaveLength(cleanup.created);
    const text = renderConsole(result, { color: false });
    expect(text).toContain(
      `Cleanup: deleted ${cleanup.created} items whose read-back answers 2xx with an error body (see ERR-STATUS)`,
    );
    expect(text).toContain(SAID);
    const html = renderHtml(result);
    expect(html).toContain(SAID);
    const md = renderMarkdown(result);
    expect(md).toContain(SAID);
    for (const report of [text, html, md]) {
      expect(report).not.toMatch(/could not be deleted|still there|Cleanup leftovers/);
    }
  });
});
