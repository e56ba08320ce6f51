// The package as a user installs it: npm pack, npm i <tarball> in an empty folder, then the commands work (scripts/pack-check.mjs).
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { packagePath } from '../../src/core/paths.js';

describe('the packed tarball', () => {
  it('installs in an empty folder with no install script, and npx conformance demo reports zero failures', async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [packagePath('scripts', 'pack-check.mjs'), '--no-build'],
        { env: { ...process.env, NODE_OPTIONS: '' }, timeout: 180_000 },
        (error, out, err) => resolve({ code: error ? 1 : 0, stdout: `${out}${err}` }),
      );
    });
    expect(stdout.split('\n').filter((line) => line.includes(' FAIL '))).toEqual([]);
    for (const step of [
      'no source map, and no file that points at one',
      'no script runs on install',
      'npx conformance demo reports zero failures (exit 0)',
      'explain quotes the shipped conventions',
      "init's $schema comment points at the installed config/schema.json",
    ])
      expect(stdout).toContain(`ok   ${step}`);
    expect(code).toBe(0);
  }, 200_000);
});
