// HTML reporter as text: self-contained, one script and one style allowed by hash, every service string escaped.
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { htmlReporter, renderHtml } from '../../src/reporters/html.js';
import { escapeHtml, fragment, h } from '../../src/reporters/html-build.js';
import { FAILED_CURL, fixtureRun, results } from './fixture.js';
import { hostileRun, PAYLOADS } from './hostile.js';

const html = renderHtml(fixtureRun());
const hostile = renderHtml(hostileRun());

function between(text: string, open: string, close: string): string[] {
  const out: string[] = [];
  let at = text.indexOf(open);
  while (at >= 0) {
    const end = text.indexOf(close, at + open.length);
    out.push(text.slice(at + open.length, end));
    at = text.indexOf(open, end);
  }
  return out;
}

function hash(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

describe('html reporter', () => {
  it('is registered as report.html and is one HTML document', () => {
    expect(htmlReporter.fileName).toBe('report.html');
    expect(htmlReporter.render(fixtureRun(), { color: false })).toBe(html);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">')).toBe(true);
    expect(html.endsWith('</html>\n')).toBe(true);
  });

  it('loads nothing from anywhere: no src, no link, no URL but as text, and a CSP that forbids the network', () => {
    for (const doc of [html, hostile]) {
      // Every '<' in the text is escaped, so each one left starts a tag this reporter wrote.
      const tags = [...doc.matchAll(/<([a-zA-Z][^\s>/]*)([^>]*)>/g)];
      const names = new Set(tags.map((t) => t[1].toLowerCase()));
      for (const bad of ['link', 'img', 'iframe', 'object', 'embed', 'base', 'svg', 'b'])
        expect(names.has(bad)).toBe(false);
      const attrs = tags.flatMap((t) =>
        [...t[2].matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].map((a) => [a[1], a[2]]),
      );
      expect(attrs.filter(([name]) => name === 'src' || name.startsWith('on'))).toEqual([]);
      expect(attrs.filter(([name, value]) => name === 'href' && !value?.startsWith('#'))).toEqual([]);
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/
        .exec(doc)![1]
        .replaceAll('&#39;', "'");
      expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; /);
      // The only style and script are ours, allowed by their hash.
      const styles = between(doc, '<style>', '</style>');
      const scripts = between(doc, '<script>', '</script>');
      expect(styles).toHaveLength(1);
      expect(scripts).toHaveLength(1);
      expect(csp).toContain(`style-src ${hash(styles[0])}; script-src ${hash(scripts[0])};`);
      expect(doc.match(/<script/g)).toHaveLength(1);
    }
  });

  it('escapes every string that came from the service', () => {
    for (const payload of PAYLOADS) {
      expect(hostile).not.toContain(payload);
      expect(hostile).toContain(escapeHtml(payload));
    }
    expect(hostile).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned = 1;');
    expect(hostile).toContain('&amp;lt;already-escaped&amp;gt; &amp;amp;');
    // Resource names from the config are text too, in attributes as well as content.
    expect(hostile).toContain('data-resource="r:&lt;b&gt;gizmos&lt;/b&gt;"');
    expect(hostile).not.toContain('<b>gizmos</b>');
  });

  it('writes control characters visibly and never a NUL', () => {
    expect(html).not.toContain('\u0000');
    expect(html).not.toContain('\u001b');
    expect(html).toContain('\\x1b[2J');
    expect(html).toContain('🦄');
  });

  it('carries what a reader needs without a browser: counts, matrix, message, exchanges, curl', () => {
    expect(html).toContain(
      '<li class="count failed" data-count="failed"><span class="n">2</span>failed</li>' +
        '<li class="count warning" data-count="warning"><span class="n">1</span>warnings</li>',
    );
    expect(html).toContain('<td class="cell failed" data-col="r:widgets"');
    expect(html).toContain(escapeHtml(FAILED_CURL));
    expect(html).toContain('DELETE https://api.example.com/v1/widgets/17?a=1&amp;b=2');
    expect(html).toContain('Exchange 2 of 2');
    expect(html).toContain('Waived: gateway enforces limits &amp; quotas (until 2027-01-31)');
    expect(html).toContain('Cleanup leftovers (1)');
    // Bodies are cut, like in the other reports.
    expect(html).not.toContain('TAIL-MARKER');
  });

  it('tells warnings from failures: verdict by --fail-on, badge, and a status filter of their own', () => {
    expect(html).toContain('<p class="verdict failed">2 checks failed and 1 warning</p>');
    expect(renderHtml(fixtureRun(), { failOn: 'warning' })).toContain(
      '<p class="verdict failed">2 checks failed and 1 warning (failing: --fail-on warning)</p>',
    );
    const warningsOnly = fixtureRun({
      results: results.filter((r) => r.status !== 'failed' || r.severity === 'warning'),
    });
    expect(renderHtml(warningsOnly)).toContain('<p class="verdict warning">No check failed; 1 warning</p>');
    expect(renderHtml(warningsOnly, { failOn: 'warning' })).toContain(
      '<p class="verdict failed">No check failed; 1 warning (failing: --fail-on warning)</p>',
    );
    expect(html).toContain('<span class="badge warning">⚠ warning</span>');
    expect(html).not.toContain('failed (warning)');
    expect(html).toContain('<option value="warning">warning</option>');
    expect(html).toContain('data-status="warning"');
    expect(html).toContain('Failures, warnings and errors (4)');
  });

  it('lists declared paths that were not probed', () => {
    const out = renderHtml(fixtureRun({ notProbed: [{ path: '/widgets/{id}/<parts>', reason: 'nested' }] }));
    expect(out).toContain('Not probed (1)</h2><ul><li><code>/widgets/{id}/&lt;parts&gt;</code>: nested</li>');
    expect(html).not.toContain('Not probed');
  });

  it('renders an empty run', () => {
    const empty = renderHtml(fixtureRun({ results: [] }));
    expect(empty).toContain('No check ran.');
    expect(empty).toContain('All results (0)');
  });
});

describe('html builder', () => {
  it('escapes text and attributes, drops unwritable characters, and rejects bad names', () => {
    expect(h('p', { title: `a"b'c<d>&` }, '<x>&').value).toBe(
      '<p title="a&quot;b&#39;c&lt;d&gt;&amp;">&lt;x&gt;&amp;</p>',
    );
    expect(fragment('a\u0000b\uD800c', false, null, undefined, ['d', 1]).value).toBe('a\uFFFDb\uFFFDcd1');
    expect(h('input', { hidden: true, disabled: false }).value).toBe('<input hidden>');
    expect(() => h('p onclick', {})).toThrow('invalid HTML name');
    expect(() => h('p', { 'onclick="x"': '1' })).toThrow('invalid HTML name');
  });
});
