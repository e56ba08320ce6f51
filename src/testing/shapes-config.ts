// Configs for the shapes API (src/testing/shapes-api.ts): YAML as a user writes it, loaded through the config loader.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/load.js';
import type { AuditConfig } from '../core/types.js';
import type { FixtureServer } from './fixture-server.js';
import type { ShapesApiOptions } from './shapes-api.js';

/** The environment the YAML refers to (tokens). */
export function shapesEnv(server: FixtureServer): NodeJS.ProcessEnv {
  return { SHAPES_TOKEN: server.tokens.full, SHAPES_LIMITED_TOKEN: server.tokens.limited };
}

/** Loads a config whose `resources:` section is `resources` (YAML, indented as under the key). */
export async function loadShapesConfig(server: FixtureServer, resources: string): Promise<AuditConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-shapes-'));
  const text = `baseUrl: ${server.baseUrl}
auth:
  token: \${SHAPES_TOKEN}
  limitedToken: \${SHAPES_LIMITED_TOKEN}
rateLimit: { maxRequests: 20, expected: false }
resources:
${resources}`;
  writeFileSync(join(dir, 'conformance.config.yaml'), text);
  return loadConfig({ cwd: dir, path: 'conformance.config.yaml', env: shapesEnv(server) });
}

/** The `resources:` YAML of a correct config for the shapes API with these options. */
export function shapesResources(options: ShapesApiOptions = {}): string {
  const mode = options.addressing ?? 'path';
  const path = mode === 'slash' ? '/widgets/' : '/widgets';
  const item = mode === 'slash' ? '/widgets/{id}/' : mode === 'filter' ? '/widgets?id=eq.{id}' : undefined;
  const email = options.uniqueEmail ? ", email: 'ann-{{unique}}@example.com'" : '';
  const id = options.putNeedsId ? "id: '{{id}}', " : '';
  let out = `  - name: widgets
    path: ${path}
${item ? `    item: ${item}\n` : ''}    sample: { name: bolt, price: 3${email} }
    replace: { ${id}name: nut, price: 4${email} }
    update: { price: 5 }
    invalid: [{ name: x, price: -1 }, { price: 3 }]
    forbidden: [create, replace, update, delete]
`;
  if (options.nested) {
    const s = mode === 'slash' ? '/' : '';
    out += `  - name: customers
    path: /customers${s}
${s ? `    item: /customers/{id}/\n` : ''}    sample: { name: Grace }
    update: { name: Hopper }
    invalid: [{ name: '' }]
    forbidden: [create, replace, update, delete]
  - name: orders
    parent: customers
    path: /customers/{customerId}/orders${s}
    item: /customers/{customerId}/orders/{id}${s}
    sample: { item: coffee, qty: 2 }
    update: { qty: 3 }
    invalid: [{ item: coffee, qty: -1 }]
    forbidden: [create, replace, update, delete]
`;
  }
  return out;
}
