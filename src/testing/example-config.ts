// The config that audits a fixture built on the example API: config/example.yaml with its tokens.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditConfig } from '../core/types.js';
import { packagePath } from '../core/paths.js';
import { loadConfig } from '../config/load.js';
import type { FixtureServer } from './fixture-server.js';
import { exampleEnv } from '../cli/demo.js';

export { exampleEnv };

/** Loads config/example.yaml pointed at the server. */
export async function exampleConfig(server: FixtureServer): Promise<AuditConfig> {
  return loadConfig({
    path: packagePath('config', 'example.yaml'),
    baseUrl: server.baseUrl,
    env: exampleEnv(server),
  });
}

/**
 * Writes config/example.yaml, changed by `edit` (its text in, the new text out) when given, to a
 * fresh directory, its schema paths pointing at the package's; throws when `edit` changed nothing
 * (config/example.yaml changed: the test must follow). Returns the file's path.
 */
export async function writeExampleConfig(edit?: (text: string) => string): Promise<string> {
  const example = await readFile(packagePath('config', 'example.yaml'), 'utf8');
  const text = edit ? edit(example) : example;
  if (edit && text === example) throw new Error('config/example.yaml changed: update the edit of this test');
  const file = join(await mkdtemp(join(tmpdir(), 'conf-example-')), 'conformance.yaml');
  await writeFile(file, text.replaceAll('./schemas/', `${packagePath('config', 'schemas')}/`));
  return file;
}
