// Console reporter: order of blocks, one-line reasons with curl, quiet/verbose, no ANSI without colour.
import { describe, expect, it } from '@jest/globals';
import { consoleReporter, formatResultLine, progressLine, summaryLine } from '../../src/reporters/console.js';
import { FAILED_CURL, fixtureRun, results } from './fixture.js';

const run = fixtureRun();
const plain = consoleReporter.render(run, { color: false });
const lines = plain.trimEnd().split('\n');
const SUMMARY = '2 passed, 3 failed, 3 skipped, 1 errored, 1 waived (812 requests in 1.8 s)';

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

  it('lists failures first, errors before warnings, each with a Reproduce line', () => {
    expect(lines[0]).toBe('Failures (3)');
    const auth = lines.indexOf(
      '✗ AUTH-MISSING,GEN-STATELESS auth-missing-token widgets: DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> \\x1b[2J',
    );
    expect(auth).toBe(1);
    expect(lines[auth + 1]).toBe(`  Reproduce: ${FAILED_CURL}`);
    const del = lines.indexOf(
      '✗ MTH-DELETE delete-removes widgets: GET after DELETE answered 200, expected 404',
    );
    const warn = lines.indexOf(
      '⚠ MTH-CREATE create-location widgets: warning: POST /v1/widgets answered 201 without a Location header',
    );
    expect(del).toBeGreaterThan(auth);
    expect(warn).toBeGreaterThan(del);
    expect(lines[warn + 1]).toMatch(/^ {2}Reproduce: curl -X POST /);
    expect(warn).toBeLessThan(lines.indexOf(SUMMARY));
  });

  it('shows errored and waived results, and collapses skips by reason', () => {
    expect(plain).toContain(
      'Errored (1)\n! MTH-READ list-reads gadgets: errored: TypeError: cannot read properties of undefined\n',
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
      '⚠ Cleanup: 1 resource the audit created could not be deleted\n  widgets https://api.example.com/v1/widgets/99: DELETE answered 500',
    );
  });

  it('quiet: failures, errors and the summary only', () => {
    const quiet = consoleReporter.render(run, { color: false, quiet: true });
    expect(quiet).toContain('auth-missing-token');
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
    expect(verbose.indexOf('Failures (3)')).toBeLessThan(verbose.indexOf('Passed (2)'));
  });

  it('flags an interrupted run and a shard in the summary line', () => {
    const line = summaryLine(fixtureRun({ interrupted: true, shard: { index: 1, total: 4 } }), false);
    expect(line).toBe(`${SUMMARY}, shard 1/4 — interrupted: results are incomplete`);
    const small = fixtureRun({
      durationMs: 640,
      summary: { total: 1, passed: 1, failed: 0, skipped: 0, errored: 0, waived: 0, requests: 1 },
    });
    expect(summaryLine(small, false)).toBe('1 passed, 0 failed, 0 skipped, 0 errored (1 request in 640 ms)');
  });
});

describe('formatResultLine', () => {
  it('writes one plain line per status', () => {
    expect(results.map((r) => formatResultLine(r, false))).toEqual([
      '✓ GEN-JSON json-responses widgets',
      '✗ AUTH-MISSING,GEN-STATELESS auth-missing-token widgets: DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> \\x1b[2J',
      '⚠ MTH-CREATE create-location widgets: warning: POST /v1/widgets answered 201 without a Location header',
      '✗ MTH-DELETE delete-removes widgets: GET after DELETE answered 200, expected 404',
      '- AUTH-FORBIDDEN forbidden-writes widgets: skipped: no limited token configured',
      '- AUTH-FORBIDDEN forbidden-writes gadgets: skipped: no limited token configured',
      '- MTH-CHANGE replace-changes gadgets: skipped: operation replace not declared',
      '! MTH-READ list-reads gadgets: errored: TypeError: cannot read properties of undefined',
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
