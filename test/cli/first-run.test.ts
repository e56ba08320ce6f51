// What a new user trips over first, as they see it: empty secrets, a base URL without its prefix, an empty plan.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { startExampleFixture, startRawFixture } from '../../src/testing/fixture-server.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { runCli } from '../../src/testing/cli-runner.js';

const exampleYaml = packagePath('config', 'example.yaml');
const tempDir = () => mkdtemp(join(tmpdir(), 'conf-first-'));

describe('an empty secret', () => {
  it('API_TOKEN= (a CI secret that is not defined) is exit 2 naming the variable, before anything is sent', async () => {
    const server = await startExampleFixture();
    try {
      const env = { ...exampleEnv(server), CONFORMANCE_TOKEN: '' };
      const r = await runCli(['run', '--config', exampleYaml, '--base-url', server.baseUrl], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'auth.token: environment variable CONFORMANCE_TOKEN is empty (as CI sets a secret that is not defined): give it a value, or write ${CONFORMANCE_TOKEN:-} if empty is meant',
      );
      expect(r.stdout).toBe('');
    } finally {
      await server.close();
    }
  });
});

describe('a base URL missing its prefix', () => {
  it('every collection answering 404 is exit 2 with the hint, and no report is written', async () => {
    const server = await startExampleFixture();
    const out = await tempDir();
    try {
      // The example API serves under /v1: its origin alone is the classic mistake.
      const r = await runCli(['run', '--config', exampleYaml, '--base-url', server.origin, '--out', out], {
        env: exampleEnv(server),
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `conformance: every collection answered 404 at ${server.origin}: is the base URL missing a prefix such as /v1? (GET /widgets, /orders; pass --force to audit anyway)\n`,
      );
      expect(await readdir(out)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('without a token the message names that suspect too', async () => {
    const server = await startRawFixture((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    const dir = await tempDir();
    try {
      const config = join(dir, 'c.yaml');
      await writeFile(config, 'resources:\n  - { name: widgets, path: /widgets }\n');
      const r = await runCli(['run', '--config', config, '--base-url', server.origin, '--out', dir], {
        env: {},
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        '(GET /widgets; no auth.token is set, and some APIs answer 404 to anonymous requests; pass --force to audit anyway)',
      );
    } finally {
      await server.close();
    }
  });

  it('--force audits anyway (and the failures say what the 404s broke)', async () => {
    const server = await startExampleFixture();
    const out = await tempDir();
    try {
      const r = await runCli(
        [
          'run',
          '--config',
          exampleYaml,
          '--base-url',
          server.origin,
          '--out',
          out,
          '--force',
          '--only',
          'MTH-READ',
        ],
        { env: exampleEnv(server) },
      );
      expect(r.code).toBe(1);
      const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
      expect(report.summary.failed).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('one collection that exists is enough: the audit runs and fails only the missing one', async () => {
    const server = await startExampleFixture();
    const dir = await tempDir();
    try {
      const config = join(dir, 'c.yaml');
      await writeFile(
        config,
        'auth: { token: "${CONFORMANCE_TOKEN}" }\nresources:\n  - { name: gadgets, path: /gadgets }\n  - { name: widgets, path: /widgets }\n',
      );
      const r = await runCli(
        [
          'run',
          '--config',
          config,
          '--base-url',
          server.baseUrl,
          '--out',
          dir,
          '--only',
          'MTH-READ',
          '--quiet',
        ],
        { env: exampleEnv(server) },
      );
      expect(r.code).toBe(1);
      const report = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8'));
      const failed = report.results.filter((x: { status: string }) => x.status === 'failed');
      expect(failed.map((x: { resource: string }) => x.resource)).toEqual(['gadgets']);
    } finally {
      await server.close();
    }
  });
});

describe('an empty plan', () => {
  const env = exampleEnv({ tokens: { full: 'abcd1234', limited: 'efgh5678' } });
  const args = ['run', '--config', exampleYaml, '--base-url', 'http://127.0.0.1:1/v1'];

  it('--only X --skip X is exit 2, not a green run of nothing', async () => {
    const r = await runCli([...args, '--only', 'MTH-DELETE', '--skip', 'MTH-DELETE'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'conformance: no check left to run: --skip MTH-DELETE removes every check --only MTH-DELETE chose (conformance list shows them)\n',
    );
  });

  it('--skip "*" alone too; a plan with something left runs as before', async () => {
    const all = await runCli([...args, '--skip', '*'], { env });
    expect(all.code).toBe(2);
    expect(all.stderr).toContain('no check left to run: --skip * removes every check (');
    // Something left: the run goes on to the (unreachable) target, exit 2 for that reason instead.
    const some = await runCli([...args, '--only', 'methods', '--skip', 'MTH-DELETE'], { env });
    expect(some.stderr).toContain('cannot reach');
  });
});
