// JSON reporter: CONTRACT.md's keys, values and key order, pretty-printed with a trailing newline.
import { describe, expect, it } from '@jest/globals';
import { jsonReporter } from '../../src/reporters/json.js';
import { FAILED_CURL, fixtureRun, NASTY } from './fixture.js';

type Json = Record<string, any>;

const text = jsonReporter.render(fixtureRun(), { color: true });
const report = JSON.parse(text) as Json;
const byId = (checkId: string, resource?: string): Json =>
  (report.results as Json[]).find((r) => r.checkId === checkId && r.resource === resource)!;

describe('json reporter', () => {
  it('is registered as conformance.json, two-space indented with a trailing newline', () => {
    expect(jsonReporter.fileName).toBe('conformance.json');
    expect(text.startsWith('{\n  "tool": {\n    "name": "conformance",')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('}\n\n')).toBe(false);
  });

  it('has the contract keys in contract order, then cleanup', () => {
    expect(Object.keys(report)).toEqual([
      'tool',
      'target',
      'startedAt',
      'durationMs',
      'summary',
      'results',
      'cleanup',
    ]);
    expect(report.tool).toEqual({ name: 'conformance', version: '0.1.0' });
    expect(report.target).toEqual({ baseUrl: 'https://api.example.com/v1' });
    expect(report.startedAt).toBe('2026-11-22T10:00:00.123Z');
    expect(report.durationMs).toBe(1834);
    expect(Object.keys(report.summary)).toEqual([
      'total',
      'passed',
      'failed',
      'warnings',
      'skipped',
      'errored',
      'waived',
      'requests',
    ]);
    // `failed` counts every failed result, as the contract says; `warnings` how many of them are warnings.
    expect(report.summary).toEqual({
      total: 10,
      passed: 2,
      failed: 3,
      warnings: 1,
      skipped: 3,
      errored: 1,
      waived: 1,
      requests: 812,
    });
    expect(report.cleanup).toEqual({
      created: 4,
      deleted: 3,
      leftovers: [
        { resource: 'widgets', url: 'https://api.example.com/v1/widgets/99', reason: 'DELETE answered 500' },
      ],
    });
  });

  it('writes a failed result as the contract shows it, plus suite and durationMs', () => {
    const failed = byId('auth-missing-token', 'widgets');
    expect(Object.keys(failed)).toEqual([
      'checkId',
      'rules',
      'suite',
      'resource',
      'title',
      'status',
      'severity',
      'message',
      'durationMs',
      'evidence',
    ]);
    expect(failed).toMatchObject({
      rules: ['AUTH-MISSING', 'GEN-STATELESS'],
      suite: 'auth',
      title: 'Requests without credentials are answered 401',
      status: 'failed',
      severity: 'error',
      durationMs: 45,
    });
    expect(failed.message).toContain('\u001b[2J');
    const [first, second] = failed.evidence as Json[];
    expect(Object.keys(first)).toEqual(['request', 'response', 'curl', 'notes']);
    expect(first.request).toEqual({
      method: 'DELETE',
      url: 'https://api.example.com/v1/widgets/17?a=1&b=2',
      headers: { authorization: '[redacted]', 'x-note': ']]> <tag> & "q"' },
      body: { note: NASTY },
    });
    // JSON keeps the service's bytes as they were (escaped by JSON, not removed).
    expect(first.response).toEqual({
      status: 204,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-weird': 'a&b<c>"d"' },
      body: NASTY,
      durationMs: 3,
    });
    expect(first.curl).toBe(FAILED_CURL);
    expect(first.notes).toEqual(['redirect not followed']);
    expect(second.response.truncated).toBe(true);
  });

  it('keeps a transport error and a null response', () => {
    const evidence = byId('list-reads', 'gadgets').evidence[0] as Json;
    expect(evidence.response).toBeNull();
    expect(evidence.error).toMatch(/^UND_ERR_HEADERS_TIMEOUT/);
    expect(evidence.request.body).toBeNull();
  });

  it('omits resource and message when absent, and keeps the waiver', () => {
    const pass = byId('no-verbs');
    expect('resource' in pass).toBe(false);
    expect('message' in pass).toBe(false);
    expect(pass.evidence).toEqual([]);
    const waived = byId('rate-limit');
    expect(waived.status).toBe('waived');
    expect(waived.waiver).toEqual({ reason: 'gateway enforces limits & quotas', expires: '2027-01-31' });
  });

  it('lists every result with a known status and severity and a non-empty rules list', () => {
    expect(report.results).toHaveLength(10);
    for (const r of report.results as Json[]) {
      expect(['passed', 'failed', 'skipped', 'errored', 'waived']).toContain(r.status);
      expect(['error', 'warning']).toContain(r.severity);
      expect(r.rules.length).toBeGreaterThan(0);
    }
  });

  it('adds interrupted and shard when set, and is deterministic', () => {
    const run = fixtureRun({ interrupted: true, shard: { index: 2, total: 3 } });
    const again = JSON.parse(jsonReporter.render(run, { color: false })) as Json;
    expect(again.interrupted).toBe(true);
    expect(again.shard).toEqual({ index: 2, total: 3 });
    expect(Object.keys(again).slice(-3)).toEqual(['cleanup', 'interrupted', 'shard']);
    expect(jsonReporter.render(run, { color: false })).toBe(jsonReporter.render(run, { color: true }));
  });
});
