// ${VAR} interpolation and secrets: values, defaults, unset variables, escapes, injection.
import { describe, expect, test } from '@jest/globals';
import { parseConfigText } from '../../src/config/load.js';
import { configError, MINIMAL_YAML } from './helpers.js';

const parse = (text: string, env: NodeJS.ProcessEnv) =>
  parseConfigText(text, { source: 'conformance.yaml', env });

describe('interpolation', () => {
  test('${VAR} is replaced in every string value, also inside bodies and lists', () => {
    const text = `
baseUrl: https://\${HOST}:\${PORT}/v1
resources:
  - name: \${NAME}
    path: /widgets
    sample: { name: "\${NAME}-1", tags: ["\${NAME}"] }
`;
    const config = parse(text, { HOST: 'api.test', PORT: '8443', NAME: 'bolt' });
    expect(config.baseUrl).toBe('https://api.test:8443/v1');
    expect(config.resources[0].name).toBe('bolt');
    expect(config.resources[0].sample).toEqual({ name: 'bolt-1', tags: ['bolt'] });
  });

  test('${VAR:-default}: the default when unset or empty, the variable otherwise', () => {
    const text = 'baseUrl: ${BASE:-http://127.0.0.1:8080/v1}\nresources: [{ name: w, path: /w }]\n';
    expect(parse(text, {}).baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(parse(text, { BASE: '' }).baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(parse(text, { BASE: 'https://set.test' }).baseUrl).toBe('https://set.test');
  });

  test('$${ writes a literal ${', () => {
    const text = `${MINIMAL_YAML}    sample: { note: "costs $\${PRICE}" }\n`;
    expect(parse(text, {}).resources[0].sample).toEqual({ note: 'costs ${PRICE}' });
  });

  test('a value cannot inject YAML: it stays one string', () => {
    const text = `${MINIMAL_YAML}    sample: { name: "\${EVIL}" }\n`;
    const evil = 'x\nresources: []\n"a": [';
    expect(parse(text, { EVIL: evil }).resources[0].sample).toEqual({ name: evil });
  });

  test('an unset variable names itself and the path (E_CONFIG_ENV)', () => {
    const text = `${MINIMAL_YAML}auth:\n  token: \${API_TOKEN}\n  limitedToken: \${API_LIMITED_TOKEN}\n`;
    const error = configError(() => parse(text, {}));
    expect(error.code).toBe('E_CONFIG_ENV');
    expect(error.problems).toEqual([
      'conformance.yaml: auth.token: environment variable API_TOKEN is not set (line 7)',
      'conformance.yaml: auth.limitedToken: environment variable API_LIMITED_TOKEN is not set (line 8)',
    ]);
  });

  test('an empty ${VAR} (what CI sets for a secret that is not defined) is an error naming it', () => {
    const text = `${MINIMAL_YAML}auth:\n  token: \${API_TOKEN}\n  limitedToken: "Bearer \${API_LIMITED_TOKEN}"\n`;
    const error = configError(() => parse(text, { API_TOKEN: '', API_LIMITED_TOKEN: '' }));
    expect(error.code).toBe('E_CONFIG_ENV');
    expect(error.problems).toEqual([
      'conformance.yaml: auth.token: environment variable API_TOKEN is empty (as CI sets a secret that is not defined): give it a value, or write ${API_TOKEN:-} if empty is meant (line 7)',
      'conformance.yaml: auth.limitedToken: environment variable API_LIMITED_TOKEN is empty (as CI sets a secret that is not defined): give it a value, or write ${API_LIMITED_TOKEN:-} if empty is meant (line 8)',
    ]);
  });

  test('${VAR:-} says empty on purpose: no token, no problem', () => {
    const config = parse(`${MINIMAL_YAML}auth:\n  token: \${API_TOKEN:-}\n`, { API_TOKEN: '' });
    expect(config.auth).toEqual({});
  });

  test('unset variables and other problems together: E_CONFIG with all of them', () => {
    const text = `${MINIMAL_YAML}auth: { token: '\${API_TOKEN}' }\nrateLimit: { maxRequests: lots }\n`;
    const error = configError(() => parse(text, {}));
    expect(error.code).toBe('E_CONFIG');
    expect(error.problems).toEqual([
      'conformance.yaml: auth.token: environment variable API_TOKEN is not set (line 6)',
      'conformance.yaml: rateLimit.maxRequests: must be a number (got "lots") (line 7)',
    ]);
  });

  test('an unset variable is not reported again as a bad value', () => {
    const text = 'baseUrl: ${BASE}\nresources: [{ name: w, path: "${WPATH}" }]\n';
    const error = configError(() => parse(text, {}));
    expect(error.code).toBe('E_CONFIG_ENV');
    expect(error.problems).toEqual([
      'conformance.yaml: baseUrl: environment variable BASE is not set (line 1)',
      'conformance.yaml: resources[0].path: environment variable WPATH is not set (line 2)',
    ]);
  });

  test.each(['${API TOKEN}', '${1X}', '${X:=y}', '${UNCLOSED'])(
    'a malformed reference %s is reported',
    (ref) => {
      const text = `${MINIMAL_YAML}auth: { token: '${ref}' }\n`;
      const error = configError(() => parse(text, { X: 'x', UNCLOSED: 'u' }));
      expect(error.code).toBe('E_CONFIG');
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(
        /^conformance\.yaml: auth\.token: bad variable reference ".*": write \$\{NAME\}/,
      );
    },
  );
});

describe('secrets', () => {
  const text = `${MINIMAL_YAML}auth:
  token: \${API_TOKEN}
  limitedToken: plain-limited
webhooks:
  subscribe: { path: /hooks, body: { url: "{{receiverUrl}}", key: "\${HOOK_API_KEY}", host: "\${HOST}" } }
  expect: [{ after: { resource: widgets, operation: create }, event: widget.created }]
  signature: { header: X-Signature, secret: "\${WEBHOOK_SECRET:-fallback}" }
`;

  test('tokens and the webhook secret, with the variable they came from', () => {
    const config = parse(text, { API_TOKEN: 'tok-1', WEBHOOK_SECRET: 'whs', HOOK_API_KEY: 'k-9', HOST: 'h' });
    expect(config.auth).toEqual({ token: 'tok-1', limitedToken: 'plain-limited' });
    expect(config.secrets).toEqual([
      { value: 'tok-1', envVar: 'API_TOKEN' },
      { value: 'plain-limited' },
      { value: 'whs', envVar: 'WEBHOOK_SECRET' },
      // Not a declared secret field, but its variable's name says it is one.
      { value: 'k-9', envVar: 'HOOK_API_KEY' },
    ]);
  });

  test('a default is written in the file: a secret, but not from the variable', () => {
    const config = parse(text, { API_TOKEN: 'tok-1', HOOK_API_KEY: 'k-9', HOST: 'h' });
    expect(config.webhooks?.signature?.secret).toBe('fallback');
    expect(config.secrets).toContainEqual({ value: 'fallback' });
  });

  test('an empty token is no token, and never a secret', () => {
    const config = parse(`${MINIMAL_YAML}auth: { token: '\${T:-}', limitedToken: '' }\n`, {});
    expect(config.auth).toEqual({});
    expect(config.secrets).toEqual([]);
  });

  test('the same value twice is one secret', () => {
    const config = parse(`${MINIMAL_YAML}auth: { token: '\${A}', limitedToken: '\${B}' }\n`, {
      A: 'same',
      B: 'same',
    });
    expect(config.secrets).toEqual([{ value: 'same', envVar: 'A' }]);
  });
});

test('a misspelt variable name gets a suggestion from the names that are set', () => {
  const text = `${MINIMAL_YAML}auth: { token: '\${API_TOKN}' }\n`;
  expect(configError(() => parse(text, { API_TOKEN: 'x', PATH: '/bin' })).problems).toEqual([
    'conformance.yaml: auth.token: environment variable API_TOKN is not set (did you mean "API_TOKEN"?) (line 6)',
  ]);
});
