// The config and the document together (loadConfig): the config wins field by field; tokens from the environment.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig as loadWith, type LoadOptions } from '../../src/config/load.js';
import { ConfigError, ConformanceError } from '../../src/core/errors.js';
import { openApiStep } from '../../src/openapi/step.js';
import { fixture, tempFolder } from './helpers.js';

/** Config loading as `run` does it: with the OpenAPI step. */
const loadConfig = (options: LoadOptions) => loadWith({ documentStep: openApiStep(), ...options });

const DOC = fixture('widgets-31.yaml');

async function withConfig(text: string): Promise<string> {
  const dir = await tempFolder();
  await writeFile(join(dir, 'conformance.config.yaml'), text);
  return dir;
}

async function errorOf(promise: Promise<unknown>): Promise<ConformanceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConformanceError) return error;
    throw error;
  }
  throw new Error('expected an error, but the config loaded');
}

describe('no config file: --openapi alone', () => {
  it('derives everything; tokens come from CONFORMANCE_TOKEN and CONFORMANCE_LIMITED_TOKEN, named in curl lines', async () => {
    const config = await loadConfig({
      cwd: await tempFolder(),
      openapi: DOC,
      env: { CONFORMANCE_TOKEN: 'full-secret', CONFORMANCE_LIMITED_TOKEN: 'limited-secret' },
    });
    expect(config.baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(config.auth).toEqual({ token: 'full-secret', limitedToken: 'limited-secret' });
    expect(config.secrets).toEqual([
      { value: 'full-secret', envVar: 'CONFORMANCE_TOKEN' },
      { value: 'limited-secret', envVar: 'CONFORMANCE_LIMITED_TOKEN' },
    ]);
    expect(config.resources.map((r) => r.name)).toEqual(['widgets', 'orders']);
    expect(config.idempotency.header).toBe('Idempotency-Key');
    expect(config.openapiSource).toBe(DOC);
    const widgets = config.resources[0];
    expect(widgets.schema).toBeDefined();
    expect(widgets.idempotencyKey).toBe(true);
  });

  it('without a token, a document that requires one on every operation is an error naming the variable', async () => {
    // Every request would meet a 401: a correct API would fail every check that reads or writes.
    const error = await errorOf(loadConfig({ cwd: await tempFolder(), openapi: DOC, env: {} }));
    expect(error.code).toBe('E_CONFIG_ENV');
    expect(error.problems).toEqual([
      `${DOC}: auth.token: every operation the audit sends takes credentials (security scheme "bearer"), and none is set: set CONFORMANCE_TOKEN to a token with full access (and CONFORMANCE_LIMITED_TOKEN to one with less, for AUTH-FORBIDDEN), or give a config with auth`,
    ]);
  });

  it('without tokens, a document that lets anonymous clients in still loads (the checks that need one are skipped)', async () => {
    const dir = await tempFolder();
    const open = join(dir, 'open.yaml');
    const text = readFileSync(DOC, 'utf8');
    await writeFile(open, text.replace('security:\n  - bearer: []\n', 'security:\n  - {}\n  - bearer: []\n'));
    const config = await loadConfig({ cwd: dir, openapi: open, env: {} });
    expect(config.auth).toEqual({});
    // An operation the audit sends with security: [] takes no credential either.
    const publicList = join(dir, 'public-list.yaml');
    await writeFile(
      publicList,
      text.replace('  /widgets:\n    get:\n', '  /widgets:\n    get:\n      security: []\n'),
    );
    expect((await loadConfig({ cwd: dir, openapi: publicList, env: {} })).auth).toEqual({});
    // Nor one that no requirement covers (no top-level security, only PUT secured).
    const putOnly = join(dir, 'put-only.yaml');
    await writeFile(
      putOnly,
      text
        .replace('security:\n  - bearer: []\n', '')
        .replace(
          '    put:\n      operationId: replaceWidget\n',
          '    put:\n      operationId: replaceWidget\n      security: [{ bearer: [] }]\n',
        ),
    );
    expect((await loadConfig({ cwd: dir, openapi: putOnly, env: {} })).auth).toEqual({});
  });

  it('an anonymous route the audit does not send (a login) leaves the token required', async () => {
    const dir = await tempFolder();
    const withLogin = join(dir, 'login.yaml');
    const login =
      "  /login:\n    post:\n      security: []\n      responses: { '200': { description: a token } }\n";
    await writeFile(withLogin, readFileSync(DOC, 'utf8').replace('paths:\n', `paths:\n${login}`));
    const error = await errorOf(loadConfig({ cwd: dir, openapi: withLogin, env: {} }));
    expect(error.problems[0]).toContain('auth.token: every operation the audit sends takes credentials');
  });

  it('CONFORMANCE_TOKEN set but empty (a CI secret that is not defined) is an error, not "no token"', async () => {
    const error = await errorOf(
      loadConfig({ cwd: await tempFolder(), openapi: DOC, env: { CONFORMANCE_TOKEN: '' } }),
    );
    expect(error.code).toBe('E_CONFIG_ENV');
    expect(error.problems).toEqual([
      `${DOC}: auth.token: environment variable CONFORMANCE_TOKEN is empty (as CI sets a secret that is not defined): give it a token (every operation the audit sends takes credentials)`,
    ]);
  });

  it('neither a config file nor --openapi: the usual error', async () => {
    const error = await errorOf(loadConfig({ cwd: await tempFolder(), env: {} }));
    expect(error.problems).toEqual([
      'no config file: pass --config or create conformance.config.yaml (conformance init writes one)',
    ]);
  });

  it('a document without any collection/item pair is a config problem naming its paths', async () => {
    const dir = await tempFolder();
    const file = join(dir, 'flat.yaml');
    await writeFile(
      file,
      "openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: 'https://x.test' }]\npaths:\n  /health:\n    get: { responses: { '200': { description: ok } } }\n",
    );
    const error = await errorOf(loadConfig({ cwd: dir, openapi: file, env: {} }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.problems).toContain(
      `${file}: no resource to audit: the document has no collection/item path pair such as /things and /things/{id}, and no collection whose GET declares a query parameter naming an item's id (/things?id=eq.{id}) (its paths: /health)`,
    );
  });
});

describe('a config file with `openapi:`', () => {
  it('the config wins field by field; resources match by name, else by path; the rest are added', async () => {
    const dir = await withConfig(
      [
        'openapi: ./api.yaml',
        'baseUrl: https://staging.example.com/v1',
        'auth: { token: "${MY_TOKEN}" }',
        'idempotency: { header: X-Request-Id }',
        'resources:',
        '  - name: gadgets',
        '    path: /widgets', // matched by path: the config's name and sample win
        '    sample: { name: mine, price: 1 }',
        '    forbidden: [delete]',
        '  - name: extras',
        '    path: /extras', // only in the config
      ].join('\n'),
    );
    await writeFile(join(dir, 'api.yaml'), await (await import('node:fs/promises')).readFile(DOC, 'utf8'));
    const config = await loadConfig({ cwd: dir, env: { MY_TOKEN: 't0k', CONFORMANCE_TOKEN: 'ignored' } });
    expect(config.baseUrl).toBe('https://staging.example.com/v1');
    expect(config.auth).toEqual({ token: 't0k' });
    expect(config.idempotency.header).toBe('X-Request-Id');
    expect(config.openapiSource).toBe(join(dir, 'api.yaml'));
    expect(config.resources.map((r) => [r.name, r.path])).toEqual([
      ['gadgets', '/widgets'],
      ['extras', '/extras'],
      ['orders', '/orders'],
    ]);
    const [gadgets, extras] = config.resources;
    expect(gadgets.sample).toEqual({ name: 'mine', price: 1 });
    expect(gadgets.forbidden).toEqual(['delete']);
    // From the document, where the config is silent.
    expect(gadgets.update).toEqual({ price: 5 });
    expect(gadgets.replace).toEqual({ name: 'nut', price: 4 });
    expect(gadgets.schema).toBeDefined();
    expect(gadgets.idempotencyKey).toBe(true);
    expect(extras.schema).toBeUndefined();
  });

  it('--openapi wins over the file; --base-url over both', async () => {
    const dir = await withConfig('openapi: ./missing.yaml\n');
    const config = await loadConfig({
      cwd: dir,
      openapi: fixture('widgets-swagger2.json'),
      baseUrl: 'http://127.0.0.1:1/api',
      env: { CONFORMANCE_TOKEN: 'full-secret' },
    });
    expect(config.baseUrl).toBe('http://127.0.0.1:1/api');
    expect(config.openapiSource).toBe(fixture('widgets-swagger2.json'));
  });

  it('an unusable document named in the config is an OpenAPI error (exit 2), an unset variable a config error', async () => {
    const missing = await errorOf(
      loadConfig({ cwd: await withConfig('openapi: ./missing.yaml\n'), env: {} }),
    );
    expect(missing.code).toBe('E_OPENAPI');
    expect(missing.problems).toEqual(['./missing.yaml: cannot read the OpenAPI document: no such file']);
    const unset = await errorOf(loadConfig({ cwd: await withConfig('openapi: ${SPEC}\n'), env: {} }));
    expect(unset.code).toBe('E_CONFIG_ENV');
    expect(unset.problems[0]).toContain('environment variable SPEC is not set');
  });

  it('paths that are not probed are carried to the run and linted by RES-NOUN', async () => {
    const config = await loadConfig({
      cwd: await tempFolder(),
      openapi: fixture('petstore-30-refs', 'openapi.yaml'),
      baseUrl: 'http://127.0.0.1:1/v1',
      env: { CONFORMANCE_TOKEN: 'full-secret' },
    });
    expect(config.extraPaths).toEqual(['/pets/{petId}/photos', '/health']);
    expect(config.notProbed?.map((n) => n.path)).toEqual(['/pets/{petId}/photos', '/health']);
  });
});
