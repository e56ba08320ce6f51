// Shared helpers of the config tests: temp dirs, a valid base config, and problem extraction.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../src/core/errors.js';

/** A fresh directory under the OS temp dir with the given files (paths relative to it). */
export function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
  for (const [name, content] of Object.entries(files)) {
    const file = join(dir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

/** A minimal valid config as YAML text. */
export const MINIMAL_YAML = `
baseUrl: https://api.example.com/v1
resources:
  - name: widgets
    path: /widgets
`;

/** The ConfigError thrown by `fn` (fails the test when it returns or throws something else). */
export function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw new Error(`expected a ConfigError, got: ${String(error)}`);
  }
  throw new Error('expected a ConfigError, but the config loaded');
}

/** Same as configError, for a promise. */
export async function configErrorAsync(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw new Error(`expected a ConfigError, got: ${String(error)}`);
  }
  throw new Error('expected a ConfigError, but the config loaded');
}
