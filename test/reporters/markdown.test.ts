// Markdown summary: headline, totals, the rule × resource table, the first failures with curl, waivers.
import { describe, expect, it } from '@jest/globals';
import type { CheckResult } from '../../src/core/types.js';
import { summarise } from '../../src/engine/summary.js';
import { markdownReporter, mdCode, mdText, MARKDOWN_FAILURE_LIMIT } from '../../src/reporters/markdown.js';
import { FAILED_CURL, fixtureRun, results } from './fixture.js';
import { hostileRun } from './hostile.js';

const md = markdownReporter.render(fixtureRun(), { color: false });
const lines = md.split('\n');

describe('markdown reporter', () => {
  it('is summary.md, meant for the CI job summary', () => {
    expect(markdownReporter.fileName).toBe('summary.md');
    expect(markdownReporter.stepSummary).toBe(true);
    expect(md.endsWith('\n')).toBe(true);
  });

  it('starts with the verdict and the totals, warnings counted apart from failures', () => {
    expect(lines[0]).toBe('## ❌ Conformance: 2 checks failed and 1 warning on https://api.example.com/v1');
    expect(lines.slice(2, 5)).toEqual([
      '| Passed | Failed | Warnings | Skipped | Errored | Waived | Total | Requests | Duration |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      '| 2 | 2 | 1 | 3 | 1 | 1 | 10 | 812 | 1.8 s |',
    ]);
    const clean = fixtureRun({
      results: results.filter((r) => r.status === 'passed'),
      summary: { total: 2, passed: 2, failed: 0, skipped: 0, errored: 0, waived: 0, requests: 3 },
    });
    expect(markdownReporter.render(clean, { color: false }).split('\n')[0]).toBe(
      '## ✅ Conformance: no check failed on https://api.example.com/v1',
    );
  });

  it('shows the failures before the cleanup and not-probed lists, which are folded and counted', () => {
    const run = fixtureRun({ notProbed: [{ path: '/widgets/{id}/parts', reason: 'nested' }] });
    const text = markdownReporter.render(run, { color: false });
    const cleanup = text.indexOf(
      '<details>\n<summary>⚠️ Cleanup: 1 item the audit created could not be deleted</summary>\n\n- ',
    );
    const notProbed = text.indexOf(
      '<details>\n<summary>1 declared path not probed</summary>\n\n- /widgets/\\{id\\}/parts: nested\n\n</details>',
    );
    const failures = text.indexOf('### 2 failures');
    expect(failures).toBeGreaterThan(0);
    expect(cleanup).toBeGreaterThan(failures);
    expect(notProbed).toBeGreaterThan(cleanup);
    // Nothing of the cleanup list stands between the totals and the failures.
    expect(text.slice(0, failures)).not.toContain('Cleanup');
    const tidy = fixtureRun({ cleanup: { created: 3, deleted: 3, leftovers: [] } });
    expect(markdownReporter.render(tidy, { color: false })).not.toContain('<details>');
  });

  it('headlines warnings by the --fail-on threshold, as the exit code judges them', () => {
    const runOf = (rs: CheckResult[]) => fixtureRun({ results: rs, summary: summarise(rs, 5) });
    const warnings = runOf([results[0], results[2], { ...results[2], resource: 'gadgets' }]);
    const headline = (run = warnings, failOn?: 'error' | 'warning') =>
      markdownReporter.render(run, { color: false, failOn }).split('\n')[0];
    expect(headline()).toBe('## ⚠️ Conformance: no check failed, 2 warnings on https://api.example.com/v1');
    expect(headline(warnings, 'warning')).toBe(
      '## ❌ Conformance: 2 warnings on https://api.example.com/v1 (failing: --fail-on warning)',
    );
    expect(headline(fixtureRun(), 'warning')).toBe(
      '## ❌ Conformance: 2 checks failed and 1 warning (failing: --fail-on warning) on https://api.example.com/v1',
    );
    const broke = runOf([results[2], results[7]]);
    expect(headline(broke)).toBe(
      '## 💥 Conformance: 1 check errored, 1 warning on https://api.example.com/v1',
    );
  });

  it('has a rule × resource table with one icon per outcome', () => {
    const start = lines.indexOf('### Rules × resources');
    expect(lines.slice(start + 2, start + 4)).toEqual([
      '| Rule | widgets | gadgets | API-wide |',
      '|---|:-:|:-:|:-:|',
    ]);
    expect(md).toContain('| `GEN-JSON` | ✅ |  |  |');
    expect(md).toContain('| `AUTH-MISSING` | ❌ |  |  |');
    expect(md).toContain('| `MTH-CREATE` | ⚠️ |  |  |');
    expect(md).toContain('| `MTH-READ` |  | 💥 |  |');
    expect(md).toContain('| `AUTH-FORBIDDEN` | ⏭️ | ⏭️ |  |');
    expect(md).toContain('| `RATE-LIMIT` |  |  | 🔕 |');
    expect(md).toContain(
      '❌ failed · 💥 errored · ⚠️ warning · 🔕 waived · ✅ passed · ⏭️ skipped · blank: not checked\n\n' +
        'A number after an icon counts checks: `✅2 ⚠️1` = on that resource, two checks of the rule passed and one found a warning.\n',
    );
  });

  it('counts outcomes when a cell holds several results', () => {
    const two: CheckResult[] = [
      { ...results[0], checkId: 'a', rules: ['GEN-JSON'] },
      { ...results[1], checkId: 'b', rules: ['GEN-JSON'] },
    ];
    const out = markdownReporter.render(fixtureRun({ results: two }), { color: false });
    expect(out).toContain('| `GEN-JSON` | ❌1 ✅1 |');
  });

  it('lists failures (errors, warnings, then errored checks) with message and curl line', () => {
    expect(md).toContain('### 2 failures, 1 warning and 1 errored check\n');
    const order = ['auth-missing-token', 'delete-removes', 'create-location', 'list-reads'].map((id) =>
      lines.findIndex((l) => l.startsWith('#### ') && l.includes(`\`${id}\``)),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(md).toContain(
      '#### ❌ `auth-missing-token` · widgets · AUTH-MISSING, GEN-STATELESS\n\nRequests without credentials are answered 401\n\n' +
        '```text\nDELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> \\x1b[2J\nsecond line of detail\n```\n\n' +
        `Reproduce:\n\n\`\`\`sh\n${FAILED_CURL}\n\`\`\`\n\n_1 more exchange in the JSON and HTML reports._`,
    );
    expect(md).toContain('#### 💥 `list-reads` · gadgets · MTH-READ');
  });

  it('shows waivers with reason and expiry', () => {
    expect(md).toContain(
      '### Waived (1)\n\n- `rate-limit` · API-wide · RATE-LIMIT: gateway enforces limits \\& quotas (until 2027-01-31)',
    );
  });

  it(`shows the first ${MARKDOWN_FAILURE_LIMIT} failures and counts the rest`, () => {
    const many = Array.from({ length: 13 }, (_v, i) => ({ ...results[3], checkId: `check-${i}` }));
    const out = markdownReporter.render(fixtureRun({ results: many }), { color: false });
    expect(out).toContain(`### 13 failures (first ${MARKDOWN_FAILURE_LIMIT} shown)`);
    expect(out).toContain('`check-9`');
    expect(out).not.toContain('`check-10`');
    expect(out).toContain('_3 more in the JSON, JUnit and HTML reports._');
  });

  it('keeps hostile text inert: escaped outside code, fenced safely inside', () => {
    const out = markdownReporter.render(hostileRun(), { color: false });
    // The resource name is escaped in the heading and the table.
    expect(out).toContain('#### ❌ `no-server-errors` · \\<b\\>gizmos\\</b\\> · ERR-SERVER');
    expect(out).toContain('| Rule | widgets | gadgets | \\<b\\>gizmos\\</b\\> | API-wide |');
    expect(out).not.toMatch(/(^|[^\\])<b>/);
  });
});

describe('markdown helpers', () => {
  it('escapes inline text to one line', () => {
    expect(mdText('a|b *c* [d](e) <f> & `g`\nh')).toBe('a\\|b \\*c\\* \\[d\\]\\(e\\) \\<f\\> \\& \\`g\\` h');
    expect(mdText('esc \u001b[2J')).toBe('esc \\\\x1b\\[2J');
  });

  it('fences code with more backticks than it contains', () => {
    expect(mdCode('plain', 'sh')).toBe('```sh\nplain\n```');
    expect(mdCode('has ``` and ````` runs')).toBe('``````\nhas ``` and ````` runs\n``````');
  });
});
