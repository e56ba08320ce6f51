// Configs that audit the example API under another auth scheme or with extra request keys, loaded from YAML like a user's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditConfig } from '../core/types.js';
import { packagePath } from '../core/paths.js';
import { loadConfig } from '../config/load.js';
import type { FixtureServer } from './fixture-server.js';
import { exampleEnv } from './example-config.js';

/**
 * config/example.yaml pointed at the server, with its `auth:` section replaced by `auth` (YAML text,
 * indented two spaces) and `extra` (top-level YAML) added; `env` joins the example's variables.
 */
export async function schemeConfig(
  server: FixtureServer,
  auth: string,
  extra = '',
  env: NodeJS.ProcessEnv = {},
): Promise<AuditConfig> {
  const example = readFileSync(packagePath('config', 'example.yaml'), 'utf8');
  const text = example.replace(/^auth:\n(?: {2}.*\n)+/m, `auth:\n${auth.replace(/\n?$/, '\n')}${extra}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'conformance-scheme-'));
  try {
    const file = join(dir, 'conformance.config.yaml');
    // The example's item schemas are relative to config/.
    writeFileSync(file, text.replace(/\.\/schemas\//g, `${packagePath('config', 'schemas')}/`));
    return await loadConfig({ path: file, baseUrl: server.baseUrl, env: { ...exampleEnv(server), ...env } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
