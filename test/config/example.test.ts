// config/example.yaml: loads with the demo's variables set, and its bodies agree with its schemas.
import { describe, expect, test } from '@jest/globals';
import { compileItemSchema } from '../../src/config/item-schema.js';
import { loadConfig } from '../../src/config/load.js';
import { packagePath } from '../../src/core/paths.js';
import { configErrorAsync } from './helpers.js';

const EXAMPLE = packagePath('config', 'example.yaml');
const ENV = {
  CONFORMANCE_TOKEN: 'full-token',
  CONFORMANCE_LIMITED_TOKEN: 'limited-token',
  CONFORMANCE_WEBHOOK_SECRET: 'hook-secret',
};

describe('config/example.yaml', () => {
  test('loads with the three variables set', async () => {
    const config = await loadConfig({ path: EXAMPLE, env: ENV });
    expect(config.baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(config.auth).toEqual({ token: 'full-token', limitedToken: 'limited-token' });
    expect(config.secrets).toEqual([
      { value: 'full-token', envVar: 'CONFORMANCE_TOKEN' },
      { value: 'limited-token', envVar: 'CONFORMANCE_LIMITED_TOKEN' },
      { value: 'hook-secret', envVar: 'CONFORMANCE_WEBHOOK_SECRET' },
    ]);
    expect(config.rateLimit).toEqual({ maxRequests: 1500, expected: true });
    expect(config.resources.map((r) => [r.name, r.path, r.idempotencyKey])).toEqual([
      ['widgets', '/widgets', true],
      ['orders', '/orders', true],
    ]);
    expect(config.webhooks?.signature).toEqual({
      header: 'X-Signature',
      algorithm: 'hmac-sha256',
      encoding: 'hex',
      prefix: 'sha256=',
      secret: 'hook-secret',
    });
    expect(config.webhooks?.expect.map((e) => e.event)).toEqual(['widget.created', 'order.created']);
  });

  test('--base-url and CONFORMANCE_BASE_URL replace the default base URL', async () => {
    const env = { ...ENV, CONFORMANCE_BASE_URL: 'http://127.0.0.1:1234/v1' };
    expect((await loadConfig({ path: EXAMPLE, env })).baseUrl).toBe('http://127.0.0.1:1234/v1');
    const overridden = await loadConfig({ path: EXAMPLE, env, baseUrl: 'http://127.0.0.1:5678/v1/' });
    expect(overridden.baseUrl).toBe('http://127.0.0.1:5678/v1');
  });

  test('without the variables, each is named', async () => {
    const error = await configErrorAsync(loadConfig({ path: EXAMPLE, env: {} }));
    expect(error.code).toBe('E_CONFIG_ENV');
    expect(error.problems.map((p) => /environment variable (\w+) is not set/.exec(p)?.[1])).toEqual([
      'CONFORMANCE_TOKEN',
      'CONFORMANCE_LIMITED_TOKEN',
      'CONFORMANCE_WEBHOOK_SECRET',
    ]);
  });

  test('samples fit the item schemas, invalid bodies do not', async () => {
    const config = await loadConfig({ path: EXAMPLE, env: ENV });
    const managed = (id: unknown) => ({
      id,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    });
    const ids: Record<string, unknown> = { widgets: 7, orders: '0b7e1c5a-4a8e-4d6f-9b1e-2f3c4d5e6f70' };
    for (const resource of config.resources) {
      const validate = compileItemSchema(resource.schema!);
      const item = (body: unknown) => ({ ...(body as object), ...managed(ids[resource.name]) });
      expect([resource.name, validate(item(resource.sample))]).toEqual([resource.name, true]);
      expect([resource.name, validate(item(resource.replace))]).toEqual([resource.name, true]);
      expect([resource.name, validate({ ...item(resource.sample), ...(resource.update as object) })]).toEqual(
        [resource.name, true],
      );
      for (const body of resource.invalid) {
        expect([resource.name, body, validate(item(body))]).toEqual([resource.name, body, false]);
      }
    }
  });
});
