// The config that audits a fixture built on the example API: config/example.yaml with its tokens.
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
