// Console reporter: order of blocks, failures apart from warnings, cut messages with a pointer, grouping, quiet/verbose.
import { describe, expect, it } from '@jest/globals';
import type { CheckResult } from '../../src/core/types.js';
import { consoleReporter, formatResultLine, progressLine, summaryLine } from '../../src/reporters/console.js';
import type { ReporterOptions } from '../../src/reporters/types.js';
import { FAILED_CURL, fixtureRun, results } from './fixture.js';

const run = fixtureRun();
const plain = consoleReporter.render(run, { color: false });
const lines = plain.trimEnd().split('\n');
const SUMMARY = '2 passed, 2 failed, 1 warning, 3 skipped, 1 errored, 1 waived (812 requests in 1.8 s)';
const FILES = { json: 'reports/conformance.json', junit: 'reports/junit.xml' };

const render = (rs: CheckResult[], options: Partial<ReporterOptions> = {}) =>
  consoleReporter.render(fixtureRun({ results: rs }), { color: false, ...options });

describe('console reporter', () => {
  it('writes no file and ends with the summary line', () => {
    expect(consoleReporter.fileName).toBeUndefined();
    expect(lines.at(-1)).toBe(SUMMARY);
    expect(plain.endsWith(`${SUMMARY}\n`)).toBe(true);
  });

  it('has no ANSI escape at all when colour is off, even from the service', () => {
    expect(plain).not.toContain('\u001b');
    expect(plain).not.toContain('\u0007');
    // The ESC in a message is shown, not obeyed.
    expect(plain).toContain('\\x1b[2J');
    expect(consoleReporter.render(run, { color: true })).toContain('\u001b[');
  });

  it('lists failures first, then warnings under their own heading, each with a Reproduce line', () => {
    expect(lines[0]).toBe('Failures (2)');
    const auth = lines.indexOf(
      '✗ AUTH-MISSING,GEN-STATELESS auth-missing-token widgets: DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> \\x1b[2J second line of detail',
    );
    expect(lines[auth + 1]).toBe(`  Reproduce: ${FAILED_CURL}`);
    const del = lines.indexOf(
      '✗ MTH-DELETE delete-removes widgets: GET after DELETE answered 200, expected 404',
    );
    // Rules in the order of CONVENTIONS.md (§4 methods before §5 authentication), not alphabetical.
    expect(del).toBe(1);
    expect(auth).toBeGreaterThan(del);
    const heading = lines.indexOf('Warnings (1, not failing the run)');
    const warn = lines.indexOf(
      '⚠ MTH-CREATE create-location widgets: POST /v1/widgets answered 201 without a Location header',
    );
    expect(heading).toBeGreaterThan(auth);
    expect(warn).toBe(heading + 1);
    expect(lines[warn + 1]).toMatch(/^ {2}Reproduce: curl -X POST /);
    expect(warn).toBeLessThan(lines.indexOf(SUMMARY));
  });

  it('says how many more exchanges a failure has and which reports hold them', () => {
    const auth = lines.findIndex((l) => l.startsWith('✗ AUTH-MISSING,GEN-STATELESS auth-missing-token'));
    expect(lines[auth + 2]).toBe('  + 1 more exchange in the JSON and HTML reports');
    const inFiles = (files: Record<string, string>) =>
      render([results[1]], { reportFiles: files }).split('\n')[3];
    expect(inFiles({ json: 'out/conformance.json', html: 'out/report.html' })).toBe(
      '  + 1 more exchange in out/conformance.json and out/report.html',
    );
    expect(inFiles({ junit: 'out/junit.xml' })).toBe('  + 1 more exchange in out/junit.xml');
    expect(inFiles({})).toBe(
      '  + 1 more exchange in the JSON and HTML reports (--reporter json,html writes them)',
    );
  });

  it('cuts long or multi-line messages and says where the full text is; --verbose prints it whole', () => {
    const long = { ...results[3], message: `${'y'.repeat(400)}END` };
    const cut = `✗ MTH-DELETE delete-removes widgets: ${'y'.repeat(300)}… [103 more characters; full message in reports/conformance.json]`;
    expect(render([long], { reportFiles: FILES })).toContain(`${cut}\n`);
    expect(render([long], { reportFiles: { junit: 'reports/junit.xml' } })).toContain(
      '… [103 more characters; full message in reports/junit.xml]',
    );
    expect(render([long], { reportFiles: {} })).toContain(
      '… [103 more characters; --verbose prints it whole]',
    );
    const verbose = render([long], { verbose: true, reportFiles: FILES });
    expect(verbose).toContain(`✗ MTH-DELETE delete-removes widgets: ${'y'.repeat(400)}END\n`);
    expect(verbose).not.toContain('more characters');
    // Later lines of a message are printed too, indented under the result.
    expect(render([results[1]], { verbose: true })).toContain(
      '<expected 401> \\x1b[2J\n    second line of detail\n  Reproduce:',
    );
    // A short rest is printed rather than a note longer than it ("[22 more characters; …]").
    const alsoShort = { ...results[3], message: `${'y'.repeat(305)}END` };
    expect(render([alsoShort], { reportFiles: FILES })).toContain(`widgets: ${'y'.repeat(305)}END\n`);
    // A cut never splits an id: it moves before the UUID, which the full message keeps.
    const uuid = '0b6d1c6e-4f3a-4c2e-9d7b-3f5e8a1c2b9d';
    const withId = {
      ...results[3],
      message: `${'z'.repeat(280)} GET /v1/orders/${uuid} answered 200, expected 404 for the deleted item`,
    };
    const idLine = render([withId], { reportFiles: FILES }).split('\n')[1];
    expect(idLine).toBe(
      `✗ MTH-DELETE delete-removes widgets: ${'z'.repeat(280)} GET /v1/orders/… [${withId.message.length - 296} more characters; full message in reports/conformance.json]`,
    );
    // A long stack trace is still cut after its first line, and printed whole with --verbose.
    const stack = { ...results[3], message: `TypeError: boom\n${'    at frame (x.ts:1:1)\n'.repeat(10)}` };
    expect(render([stack], { reportFiles: FILES })).toContain(
      `widgets: TypeError: boom… [${stack.message.trim().length - 15} more characters; full message in reports/conformance.json]\n`,
    );
    // A short stack trace is printed on the line, rather than a note longer than it.
    expect(plain).toContain(
      '! MTH-READ list-reads gadgets: errored: TypeError: cannot read properties of undefined at run (suites/methods/list-reads.ts:12:3)',
    );
    expect(consoleReporter.render(run, { color: false, verbose: true })).toContain(
      'errored: TypeError: cannot read properties of undefined\n        at run (suites/methods/list-reads.ts:12:3)\n',
    );
  });

  it('groups failures of one check on several resources into one block with one Reproduce line', () => {
    const base = results[1];
    const on = (resource: string | undefined, message: string): CheckResult => ({
      ...base,
      resource,
      message,
    });
    const different = render(
      [
        on('widgets', '160 of 288 responses broke the rule: GET /v1/widgets/x answered text/html'),
        on('orders', '12 of 40 responses broke the rule: GET /v1/orders/x answered text/html'),
        on(undefined, '3 of 9 responses broke the rule: GET /v9 answered text/html'),
      ],
      { reportFiles: FILES },
    );
    expect(different).toContain(
      [
        'Failures (3)',
        '✗ AUTH-MISSING,GEN-STATELESS auth-missing-token on widgets, orders, API-wide:',
        '    widgets: 160 of 288 responses broke the rule: GET /v1/widgets/x answered text/html',
        '    orders: 12 of 40 responses broke the rule: GET /v1/orders/x answered text/html',
        '    API-wide: 3 of 9 responses broke the rule: GET /v9 answered text/html',
        `  Reproduce: ${FAILED_CURL}`,
        '  + 5 more exchanges in reports/conformance.json',
        '',
      ].join('\n'),
    );
    const same = render([on('widgets', 'text/html error pages'), on('orders', 'text/html error pages')]);
    expect(same).toContain(
      'Failures (2)\n✗ AUTH-MISSING,GEN-STATELESS auth-missing-token on widgets, orders: text/html error pages\n  Reproduce:',
    );
    // A warning of the same check stays under Warnings.
    const mixed = render([on('widgets', 'a'), { ...on('orders', 'b'), severity: 'warning' }]);
    expect(mixed).toContain('Failures (1)\n✗ AUTH-MISSING,GEN-STATELESS auth-missing-token widgets: a\n');
    expect(mixed).toContain(
      'Warnings (1, not failing the run)\n⚠ AUTH-MISSING,GEN-STATELESS auth-missing-token orders: b\n',
    );
  });

  it('counts warnings apart, and says when --fail-on warning makes them fail the run', () => {
    const strict = consoleReporter.render(run, { color: false, failOn: 'warning' });
    expect(strict).toContain('\nWarnings (1, failing the run: --fail-on warning)\n⚠ MTH-CREATE');
    expect(strict.trimEnd().split('\n').at(-1)).toBe(
      '2 passed, 2 failed, 1 warning (failing: --fail-on warning), 3 skipped, 1 errored, 1 waived (812 requests in 1.8 s)',
    );
    const warningsOnly = render([results[0], results[2], { ...results[2], resource: 'gadgets' }]);
    expect(warningsOnly).not.toContain('Failures');
    expect(warningsOnly).toContain(
      'Warnings (2, not failing the run)\n⚠ MTH-CREATE create-location on widgets, gadgets: POST /v1/widgets answered 201 without a Location header\n',
    );
    expect(summaryLine(fixtureRun({ results: [results[0], results[2], results[2]] }), false)).toMatch(
      /^2 passed, 0 failed, 2 warnings, /,
    );
  });

  it('shows errored and waived results, and collapses skips by reason', () => {
    expect(plain).toContain(
      'Errored (1)\n! MTH-READ list-reads gadgets: errored: TypeError: cannot read properties of undefined at run (suites/methods/list-reads.ts:12:3)\n',
    );
    expect(plain).toContain(
      'Waived (1)\n~ RATE-LIMIT rate-limit: waived: gateway enforces limits & quotas (until 2027-01-31)\n',
    );
    expect(plain).toContain(
      'Skipped (3)\n    2 × no limited token configured\n    1 × operation replace not declared\n',
    );
    expect(plain).not.toContain('json-responses');
  });

  it('warns about cleanup leftovers', () => {
    expect(plain).toContain(
      '⚠ Cleanup: 1 item the audit created could not be deleted\n  widgets, 1 item: DELETE answered 500\n    /v1/widgets/99\n',
    );
  });

  it('groups cleanup leftovers by resource and reason, naming a few items: 40 leftovers take 4 lines, not 40', () => {
    const base = 'https://api.example.com/v1';
    const still = 'DELETE answered 204, but GET still answers 200: the item is still there';
    const leftovers = [
      ...Array.from({ length: 25 }, (_, i) => ({
        resource: 'widgets',
        url: `${base}/widgets/${i + 1}`,
        reason: still,
      })),
      ...Array.from({ length: 15 }, (_, i) => ({
        resource: 'orders',
        url: `${base}/orders/${i + 1}`,
        reason: still,
      })),
    ];
    const many = { ...run, cleanup: { created: 40, deleted: 0, leftovers } };
    const text = consoleReporter.render(many, { color: false, reportFiles: FILES });
    const block = text.slice(text.indexOf('⚠ Cleanup'), text.indexOf(SUMMARY)).trimEnd().split('\n');
    expect(block).toEqual([
      '⚠ Cleanup: 40 items the audit created could not be deleted',
      `  orders, 15 items: ${still}`,
      '    /v1/orders/1, /v1/orders/2, /v1/orders/3, and 12 more (every one in reports/conformance.json, or with --verbose)',
      `  widgets, 25 items: ${still}`,
      '    /v1/widgets/1, /v1/widgets/2, /v1/widgets/3, and 22 more (every one in reports/conformance.json, or with --verbose)',
    ]);
    // --verbose names every item.
    const verbose = consoleReporter.render(many, { color: false, verbose: true, reportFiles: FILES });
    expect(verbose).toContain(`/v1/widgets/24, /v1/widgets/25\n`);
  });

  it('quiet: failures, warnings, errors and the summary only', () => {
    const quiet = consoleReporter.render(run, { color: false, quiet: true });
    expect(quiet).toContain('auth-missing-token');
    expect(quiet).toContain('create-location');
    expect(quiet).toContain('list-reads');
    for (const hidden of ['json-responses', 'no-verbs', 'Skipped', 'Waived', 'Cleanup']) {
      expect(quiet).not.toContain(hidden);
    }
    expect(quiet.trimEnd().split('\n').at(-1)).toBe(SUMMARY);
  });

  it('verbose: lists each pass and each skip', () => {
    const verbose = consoleReporter.render(run, { color: false, verbose: true });
    expect(verbose).toContain('✓ GEN-JSON json-responses widgets');
    expect(verbose).toContain(
      '  - AUTH-FORBIDDEN forbidden-writes gadgets: skipped: no limited token configured',
    );
    expect(verbose.indexOf('Failures (2)')).toBeLessThan(verbose.indexOf('Passed (2)'));
  });

  it('flags an interrupted run and a shard in the summary line', () => {
    const line = summaryLine(fixtureRun({ interrupted: true, shard: { index: 1, total: 4 } }), false);
    expect(line).toBe(`${SUMMARY}, shard 1/4 — interrupted: results are incomplete`);
    const small = fixtureRun({
      durationMs: 640,
      results: [results[0]],
      summary: { total: 1, passed: 1, failed: 0, skipped: 0, errored: 0, waived: 0, requests: 1 },
    });
    expect(summaryLine(small, false)).toBe(
      '1 passed, 0 failed, 0 warnings, 0 skipped, 0 errored (1 request in 640 ms)',
    );
  });
});

describe('formatResultLine', () => {
  it('writes one plain line per status', () => {
    expect(results.map((r) => formatResultLine(r, false))).toEqual([
      '✓ GEN-JSON json-responses widgets',
      '✗ AUTH-MISSING,GEN-STATELESS auth-missing-token widgets: DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> \\x1b[2J second line of detail',
      '⚠ MTH-CREATE create-location widgets: warning: POST /v1/widgets answered 201 without a Location header',
      '✗ MTH-DELETE delete-removes widgets: GET after DELETE answered 200, expected 404',
      '- AUTH-FORBIDDEN forbidden-writes widgets: skipped: no limited token configured',
      '- AUTH-FORBIDDEN forbidden-writes gadgets: skipped: no limited token configured',
      '- MTH-CHANGE replace-changes gadgets: skipped: operation replace not declared',
      '! MTH-READ list-reads gadgets: errored: TypeError: cannot read properties of undefined at run (suites/methods/list-reads.ts:12:3)',
      '~ RATE-LIMIT rate-limit: waived: gateway enforces limits & quotas (until 2027-01-31)',
      '✓ RES-NOUN no-verbs',
    ]);
    expect(formatResultLine(results[1], true)).toContain('\u001b[31m✗');
  });
});

describe('progressLine', () => {
  it('shows done/total, percent and the current check, cut to the width', () => {
    expect(progressLine(12, 120)).toBe('[ 12/120]  10%');
    expect(progressLine(120, 120, 'auth-missing-token widgets')).toBe(
      '[120/120] 100% auth-missing-token widgets',
    );
    expect(progressLine(0, 0)).toBe('[0/0] 100%');
    const cut = progressLine(1, 9, 'x'.repeat(200), 40);
    expect(cut).toHaveLength(40);
    expect(cut.endsWith('…')).toBe(true);
    expect(progressLine(1, 9, 'a\u001bb')).toBe('[1/9]  11% a\\x1bb');
  });
});

describe('console reporter at scale', () => {
  it('renders one check failing on 130,000 resources (more lines than a call takes as arguments)', () => {
    const failing = (i: number): CheckResult => ({
      checkId: 'change-visible',
      rules: ['MTH-CHANGE'],
      suite: 'methods',
      title: 'PUT and PATCH change the item',
      status: 'failed',
      severity: 'error',
      resource: `r${i}`,
      message: `PUT /v1/r${i}/1 answered 204, expected 200`,
      evidence: [],
      durationMs: 0,
    });
    const out = render(
      Array.from({ length: 130_000 }, (_, i) => failing(i)),
      { color: false },
    );
    expect(out).toContain('    r129999: PUT /v1/r129999/1 answered 204, expected 200');
  });
});
