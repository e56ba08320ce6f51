// loadConfig / parseConfigText: files, formats, defaults, base URL, top-level shape, syntax errors.
import { describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, parseConfigText } from '../../src/config/load.js';
import { packagePath } from '../../src/core/paths.js';
import { openApiStep } from '../../src/openapi/step.js';
import { configError, configErrorAsync, MINIMAL_YAML, tempDir } from './helpers.js';

const MINIMAL_JSON = JSON.stringify({
  baseUrl: 'https://api.example.com/v1',
  resources: [{ name: 'widgets', path: '/widgets' }],
});

describe('files', () => {
  test('a YAML file gets every default', async () => {
    const dir = tempDir({ 'conformance.config.yaml': MINIMAL_YAML });
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config).toEqual({
      baseUrl: 'https://api.example.com/v1',
      auth: {},
      secrets: [],
      idempotency: { header: 'Idempotency-Key' },
      rateLimit: { maxRequests: 200, expected: false },
      ignoreFields: [],
      waivers: [],
      resources: [
        {
          name: 'widgets',
          path: '/widgets',
          idField: 'id',
          operations: ['list', 'read', 'create', 'replace', 'update', 'delete'],
          invalid: [],
          forbidden: [],
          idempotencyKey: false,
        },
      ],
      source: 'conformance.config.yaml',
    });
    expect(config.webhooks).toBeUndefined();
  });

  test('a JSON file loads to the same config', async () => {
    const dir = tempDir({ 'a.yaml': MINIMAL_YAML, 'b.json': MINIMAL_JSON });
    const fromYaml = await loadConfig({ cwd: dir, path: 'a.yaml', env: {} });
    const fromJson = await loadConfig({ cwd: dir, path: 'b.json', env: {} });
    expect({ ...fromJson, source: 'x' }).toEqual({ ...fromYaml, source: 'x' });
    expect(fromJson.source).toBe('b.json');
  });

  test('the default file is .yaml, then .yml, then .json', async () => {
    const both = tempDir({
      'conformance.config.json': MINIMAL_JSON.replace('/widgets', '/from-json'),
      'conformance.config.yml': MINIMAL_YAML.replace('/widgets', '/from-yml'),
    });
    expect((await loadConfig({ cwd: both, env: {} })).resources[0].path).toBe('/from-yml');
    const json = tempDir({ 'conformance.config.json': MINIMAL_JSON });
    expect((await loadConfig({ cwd: json, env: {} })).source).toBe('conformance.config.json');
  });

  test('no config file at all is an error that says what to do', async () => {
    const error = await configErrorAsync(loadConfig({ cwd: tempDir(), env: {} }));
    expect(error.problems).toEqual([
      'no config file: pass --config or create conformance.config.yaml (conformance init writes one)',
    ]);
  });

  test('a missing explicit file is named', async () => {
    const error = await configErrorAsync(loadConfig({ cwd: tempDir(), path: 'missing.yaml', env: {} }));
    expect(error.code).toBe('E_CONFIG');
    expect(error.problems).toEqual(['missing.yaml: cannot read the config file: no such file']);
  });

  test('a directory is not a config file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'conf.yaml'));
    const error = await configErrorAsync(loadConfig({ cwd: dir, path: 'conf.yaml', env: {} }));
    expect(error.problems[0]).toMatch(/^conf\.yaml: .*directory/);
  });
});

describe('base URL', () => {
  test('--base-url wins over the file, without a trailing slash', () => {
    const config = parseConfigText(MINIMAL_YAML, { source: 'c.yaml', baseUrl: 'http://127.0.0.1:9999/v2/' });
    expect(config.baseUrl).toBe('http://127.0.0.1:9999/v2');
  });

  test('--base-url alone is enough, and the file baseUrl need not resolve', () => {
    const text = 'baseUrl: ${UNSET_BASE}\nresources: [{ name: w, path: /w }]\n';
    const config = parseConfigText(text, { source: 'c.yaml', baseUrl: 'https://x.test/v1', env: {} });
    expect(config.baseUrl).toBe('https://x.test/v1');
    expect(
      parseConfigText('resources: [{ name: w, path: /w }]', { source: 'c.yaml', baseUrl: 'https://x.test' })
        .baseUrl,
    ).toBe('https://x.test');
  });

  test('neither in the file nor on the command line', () => {
    const error = configError(() =>
      parseConfigText('resources: [{ name: w, path: /w }]\n', { source: 'c.yaml' }),
    );
    expect(error.problems).toEqual(['c.yaml: baseUrl: required (or pass --base-url)']);
  });

  test.each([
    ['api.example.com/v1', 'must be an absolute http(s) URL'],
    ['ftp://api.example.com/v1', 'must be an absolute http(s) URL'],
    ['https://api.example.com/v1?key=1', 'must not have a query or fragment'],
  ])('file baseUrl %s is refused', (url, message) => {
    const error = configError(() =>
      parseConfigText(MINIMAL_YAML.replace('https://api.example.com/v1', url), { source: 'c.yaml' }),
    );
    expect(error.problems).toEqual([`c.yaml: baseUrl: ${message} (got ${JSON.stringify(url)}) (line 2)`]);
  });

  test('a bad --base-url is named as such, alone', () => {
    const error = configError(() => parseConfigText(MINIMAL_YAML, { source: 'c.yaml', baseUrl: '/v1' }));
    expect(error.problems).toEqual(['--base-url: must be an absolute http(s) URL (got "/v1")']);
    const unset = 'baseUrl: ${UNSET_BASE}\nresources: [{ name: w, path: /w }]\n';
    const again = configError(() => parseConfigText(unset, { source: 'c.yaml', baseUrl: 'nope', env: {} }));
    expect(again.problems).toEqual(['--base-url: must be an absolute http(s) URL (got "nope")']);
  });
});

describe('defaults and normalisation', () => {
  test('replace defaults to sample; the base URL loses its trailing slash, a path keeps its own (issue 10); explicit values stay', () => {
    const text = `
baseUrl: https://api.example.com/v1/
idempotency: { header: X-Request-Id }
rateLimit: { maxRequests: 50, expected: true, waitMs: 1500 }
ignoreFields: [etag]
resources:
  - name: widgets
    path: /widgets/
    idField: uuid
    operations: [list, read]
    sample: { name: bolt }
    update: { name: nut }
    invalid: [{ name: 3 }, "text", 7]
    forbidden: [create]
    idempotencyKey: true
`;
    const config = parseConfigText(text, { source: 'c.yaml' });
    expect(config.baseUrl).toBe('https://api.example.com/v1');
    expect(config.idempotency).toEqual({ header: 'X-Request-Id' });
    expect(config.rateLimit).toEqual({ maxRequests: 50, expected: true, waitMs: 1500 });
    expect(config.ignoreFields).toEqual(['etag']);
    expect(config.resources[0]).toEqual({
      name: 'widgets',
      path: '/widgets/',
      idField: 'uuid',
      operations: ['list', 'read'],
      sample: { name: 'bolt' },
      replace: { name: 'bolt' },
      update: { name: 'nut' },
      invalid: [{ name: 3 }, 'text', 7],
      forbidden: ['create'],
      idempotencyKey: true,
    });
  });

  test('webhooks get their defaults', () => {
    const text = `${MINIMAL_YAML}
webhooks:
  subscribe: { path: /hooks, body: { url: "{{receiverUrl}}" } }
  expect: [{ after: { resource: widgets, operation: create }, event: widget.created }]
  signature: { header: X-Sig, secret: literal-secret }
`;
    const config = parseConfigText(text, { source: 'c.yaml' });
    expect(config.webhooks).toEqual({
      subscribe: { path: '/hooks', method: 'POST', body: { url: '{{receiverUrl}}' } },
      expect: [{ after: { resource: 'widgets', operation: 'create' }, event: 'widget.created' }],
      eventField: 'type',
      timeoutMs: 5000,
      signature: {
        header: 'X-Sig',
        algorithm: 'hmac-sha256',
        encoding: 'hex',
        prefix: '',
        secret: 'literal-secret',
      },
    });
    expect(config.secrets).toEqual([{ value: 'literal-secret' }]);
  });

  test('webhook expectations must name a declared resource', () => {
    const text = `${MINIMAL_YAML}
webhooks:
  subscribe: { path: /hooks, body: {} }
  expect: [{ after: { resource: widget, operation: create }, event: widget.created }]
`;
    const error = configError(() => parseConfigText(text, { source: 'c.yaml' }));
    expect(error.problems).toEqual([
      'c.yaml: webhooks.expect[0].after.resource: unknown resource "widget" (did you mean "widgets"?) (line 9)',
    ]);
  });

  test('resource names are unique', () => {
    const text = `${MINIMAL_YAML}  - name: widgets\n    path: /other\n`;
    const error = configError(() => parseConfigText(text, { source: 'c.yaml' }));
    expect(error.problems).toEqual([
      'c.yaml: resources[1].name: duplicate resource name "widgets" (also resources[0].name) (line 6)',
    ]);
  });

  test('openapi: a relative file is resolved from the config, a URL is kept', async () => {
    const dir = tempDir({
      'sub/c.yaml': `${MINIMAL_YAML}openapi: ./api.yaml\n`,
      // The document is read at load time, so it must exist (and be valid).
      'sub/api.yaml': readFileSync(packagePath('test', 'fixtures', 'openapi', 'widgets-31.yaml'), 'utf8'),
    });
    const config = await loadConfig({
      cwd: dir,
      path: 'sub/c.yaml',
      documentStep: openApiStep(),
      env: { CONFORMANCE_TOKEN: 'full-secret' },
    });
    expect(config.openapiSource).toBe(join(dir, 'sub', 'api.yaml'));
    // A command that cannot read documents says so instead of ignoring the key.
    await expect(loadConfig({ cwd: dir, path: 'sub/c.yaml' })).rejects.toThrow(
      './api.yaml: this command cannot read OpenAPI documents',
    );
    const remote = parseConfigText(`${MINIMAL_YAML}openapi: https://x.test/openapi.json\n`, {
      source: 'c.yaml',
    });
    expect(remote.openapiSource).toBe('https://x.test/openapi.json');
  });
});

describe('shape and syntax', () => {
  test.each([
    ['- a\n- b\n', 'c.yaml: the top level must be a mapping of keys such as "resources" (got a list)'],
    ['just text\n', 'c.yaml: the top level must be a mapping of keys such as "resources" (got "just text")'],
    [
      '',
      'c.yaml: the file is empty: it needs at least "resources" (conformance init writes a starter config)',
    ],
    [
      '# only a comment\n',
      'c.yaml: the file is empty: it needs at least "resources" (conformance init writes a starter config)',
    ],
  ])('top level %j', (text, problem) => {
    expect(configError(() => parseConfigText(text, { source: 'c.yaml' })).problems).toEqual([problem]);
  });

  test('a YAML syntax error has line and column', () => {
    const error = configError(() => parseConfigText('resources:\n  - name: "w\n', { source: 'c.yaml' }));
    expect(error.problems[0]).toMatch(/^c\.yaml:3:1: Missing closing "quote/);
  });

  test('duplicate YAML keys are an error', () => {
    const error = configError(() =>
      parseConfigText(`${MINIMAL_YAML}baseUrl: https://b.test\n`, { source: 'c.yaml' }),
    );
    expect(error.problems[0]).toMatch(/^c\.yaml:6:1: Map keys must be unique/);
  });

  test('an unquoted ${VAR} inside { } gets a hint', () => {
    const error = configError(() => parseConfigText('auth: { token: ${T} }\n', { source: 'c.yaml' }));
    expect(error.problems).toContain(
      "c.yaml: hint: inside { } or [ ], quote values that use variables: '${NAME}'",
    );
  });

  test.each([
    ['{"resources": [1, 2,]}', 'c.json:1:21: invalid JSON: unexpected "]", expected a value'],
    ['{"resources": [1, 2}', "c.json:1:20: invalid JSON: unexpected \"}\", expected ',' or ']'"],
    [
      '{\n  "baseUrl": "x"\n  "resources": []\n}',
      "c.json:3:3: invalid JSON: unexpected \"\\\"\", expected ',' or '}'",
    ],
    ['{"a": 1', "c.json:1:8: invalid JSON: unexpected end of input, expected ',' or '}'"],
    ["{'a': 1}", 'c.json:1:2: invalid JSON: unexpected "\'", expected a quoted key'],
  ])('JSON syntax error %j has line and column', (text, problem) => {
    expect(configError(() => parseConfigText(text, { source: 'c.json' })).problems).toEqual([problem]);
  });

  test('format follows the extension unless given', () => {
    // Valid YAML, invalid JSON: the .json name decides.
    configError(() => parseConfigText(MINIMAL_YAML, { source: 'c.json' }));
    expect(parseConfigText(MINIMAL_YAML, { source: 'c.json', format: 'yaml' }).resources).toHaveLength(1);
  });

  test('a byte-order mark is fine', () => {
    expect(parseConfigText(`\uFEFF${MINIMAL_JSON}`, { source: 'c.json' }).resources).toHaveLength(1);
  });
});
