// Waivers in a real audit: covered failures are waived (and pass), expired ones fail again; bad ids are config errors.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitCodeOf } from '../../src/cli/audit.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { exampleEnv, writeExampleConfig } from '../../src/testing/example-config.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { catalogue } from '../../suites/index.js';
import { runCli } from '../../src/testing/cli-runner.js';

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env });

const deleteCheck = catalogue.filter((c) => c.id === 'delete-removes');

describe('waivers in a run', () => {
  it('waives the covered failure until it expires, then fails it again saying so', async () => {
    const waivers = [
      { check: 'delete-removes', resource: 'widgets', reason: 'soft delete until v2', expires: '2026-03-31' },
      { rule: 'MTH-DELETE', resource: 'orders', reason: 'old gateway', expires: '2026-01-09' },
    ];
    const { result } = await auditFixture(deleteCheck, {
      api: { breaks: { deleteNoop: true } },
      config: (config) => ({ ...config, waivers }),
      run: { now: () => new Date('2026-01-10T08:00:00Z') },
    });
    const byResource = Object.fromEntries(result.results.map((r) => [r.resource, r]));
    expect(byResource.widgets.status).toBe('waived');
    expect(byResource.widgets.waiver).toEqual({ reason: 'soft delete until v2', expires: '2026-03-31' });
    expect(byResource.widgets.evidence.length).toBeGreaterThan(0);
    expect(byResource.orders.status).toBe('failed');
    expect(byResource.orders.message).toMatch(/^waiver expired on 2026-01-09: old gateway — /);
    expect(result.summary).toMatchObject({ waived: 1, failed: 1 });
    // The expired one still fails the run; a waived one alone would not.
    expect(exitCodeOf(result, 'error')).toBe(1);
    const onlyWaived = { ...result, results: result.results.filter((r) => r.resource === 'widgets') };
    expect(exitCodeOf(onlyWaived, 'error')).toBe(0);
  });
});

function configWith(waivers: string): Promise<string> {
  return writeExampleConfig((text) => `${text}\nwaivers:\n${waivers}`);
}

describe('waivers on the command line', () => {
  it('reports a waived failure as waived, exits 0, and shows the reason', async () => {
    const server = await startExampleFixture({ breaks: { deleteNoop: true } });
    try {
      const config = await configWith(
        '  - { rule: MTH-DELETE, reason: "soft delete until v2", expires: "2999-12-31" }\n',
      );
      const out = await mkdtemp(join(tmpdir(), 'conf-waivers-out-'));
      const r = await cli(
        [
          'run',
          '--base-url',
          server.baseUrl,
          '--config',
          config,
          '--only',
          'delete-removes',
          '--out',
          out,
          '--no-color',
        ],
        exampleEnv(server),
      );
      expect(r.stderr).not.toContain('conformance:');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Waived (2)');
      expect(r.stdout).toContain(
        '~ MTH-DELETE delete-removes widgets: waived: soft delete until v2 (until 2999-12-31)',
      );
      const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
      expect(report.summary).toMatchObject({ failed: 0, waived: 2 });
    } finally {
      await server.close();
    }
  });

  it('exits 2 naming an unknown rule or check id in a waiver, before any request', async () => {
    const config = await configWith(
      '  - { rule: MTH-DELET, reason: typo, expires: "2999-12-31" }\n' +
        '  - { check: delete-removed, reason: typo, expires: "2999-12-31" }\n',
    );
    const r = await cli(['run', '--base-url', 'http://127.0.0.1:9/v1', '--config', config], {
      CONFORMANCE_TOKEN: 't0ken-full',
      CONFORMANCE_LIMITED_TOKEN: 't0ken-limited',
      CONFORMANCE_WEBHOOK_SECRET: 'secret',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('waivers[0].rule: unknown rule "MTH-DELET"');
    expect(r.stderr).toContain('waivers[1].check: unknown check "delete-removed"');
    expect(r.stderr).not.toContain('cannot reach');
  });
});
