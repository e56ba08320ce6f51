// Interruption: the audit stops sending, deletes what it created, writes partial reports marked
// interrupted and exits 130, through main() and through the real bin on SIGINT/SIGTERM.
import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { cli, readReport, STACK_LINE, tempDir } from './helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const exampleYaml = packagePath('config', 'example.yaml');

/** True for a POST to a collection: the first request that creates something. */
function createsSomething(req: IncomingMessage): boolean {
  return (
    req.method === 'POST' && /^\/v1\/(widgets|orders)$/.test(new URL(req.url ?? '/', 'http://x').pathname)
  );
}

/** The example API, calling `onFirstCreate` when the first create request arrives (and then answering it). */
async function apiThatSignals(onFirstCreate: () => void): Promise<FixtureServer & { creates: number }> {
  const seen = { creates: 0 };
  const server = await startExampleFixture({
    middleware: (req) => {
      if (createsSomething(req) && seen.creates++ === 0) onFirstCreate();
      return false;
    },
  });
  closers.push(() => server.close());
  // A live count (Object.assign would copy a getter's value once).
  Object.defineProperty(server, 'creates', { get: () => seen.creates });
  return server as FixtureServer & { creates: number };
}

/** Checks what every interrupted run must show, and that the service holds only what it held before. */
async function expectInterrupted(
  out: string,
  before: Record<string, unknown[]>,
  server: FixtureServer,
): Promise<void> {
  const report = await readReport(out);
  expect(report.interrupted).toBe(true);
  expect(report.cleanup.leftovers).toEqual([]);
  expect(report.cleanup.created).toBeGreaterThan(0);
  expect(report.cleanup.deleted).toBe(report.cleanup.created);
  expect(report.results.some((r) => /interrupted/.test(r.message ?? ''))).toBe(true);
  const junit = await readFile(join(out, 'junit.xml'), 'utf8');
  expect(junit).toContain('name="interrupted" value="true"');
  expect(server.snapshot!()).toEqual(before);
}

describe('an interrupted audit', () => {
  it('main() with an aborted signal: exit 130, partial reports, nothing left on the service', async () => {
    const controller = new AbortController();
    const server = await apiThatSignals(() => controller.abort(new Error('interrupted by SIGINT')));
    const before = server.snapshot!();
    const out = join(await tempDir(), 'reports');
    const run = await cli(['run', '--config', exampleYaml, '--base-url', server.baseUrl, '--out', out], {
      env: exampleEnv(server),
      signal: controller.signal,
    });
    expect(run.code).toBe(130);
    expect(run.stdout).toContain('interrupted: results are incomplete');
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
    // The create in flight when the signal came finished, and cleanup deleted what it made.
    expect(server.creates).toBeGreaterThan(0);
    await expectInterrupted(out, before, server);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'bin/conformance on %s: exit 130, partial reports, nothing left on the service',
    async (signal) => {
      const bin = packagePath('bin', 'conformance');
      if (!existsSync(packagePath('dist', 'src', 'cli', 'main.js'))) {
        // CI builds before testing; a fresh clone may not have: build once.
        spawnSync(
          process.execPath,
          [packagePath('node_modules', 'typescript', 'bin', 'tsc'), '-p', packagePath()],
          {
            stdio: 'ignore',
          },
        );
      }
      const proc: { child?: ReturnType<typeof spawn> } = {};
      let sent = false;
      const server = await apiThatSignals(() => {
        sent = true;
        proc.child?.kill(signal);
      });
      const before = server.snapshot!();
      const out = join(await tempDir(), 'reports');
      const child = spawn(
        process.execPath,
        [bin, 'run', '--config', exampleYaml, '--base-url', server.baseUrl, '--out', out, '--no-color'],
        { env: { ...process.env, ...exampleEnv(server), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      proc.child = child;
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(sent).toBe(true);
      expect({ code, stderr: stderr.slice(-2000) }).toEqual({ code: 130, stderr: expect.any(String) });
      expect(stderr).toContain(`${signal}: stopping, cleaning up what the audit created`);
      expect(stdout + stderr).not.toMatch(STACK_LINE);
      await expectInterrupted(out, before, server);
    },
  );
});
