// Config validation of the request and auth keys: each problem one line with its path (exit 2).
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../src/core/errors.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { schemeConfig } from '../../src/testing/scheme-config.js';

const TOKEN = '  token: ${CONFORMANCE_TOKEN}\n';

async function problems(auth: string, extra = ''): Promise<string[]> {
  const server = await startExampleFixture();
  try {
    await schemeConfig(server, auth, extra, { API_PASSWORD: 'pw-123456' });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  } finally {
    await server.close();
  }
}

describe('config validation of headers, query and auth', () => {
  it.each([
    [
      'a header that would override the default credential',
      TOKEN,
      'headers:\n  authorization: Bearer x\n',
      /headers\.authorization: would override the credential \(auth\.header: the Authorization header\)/,
    ],
    [
      'a header that would override an API-key header',
      `${TOKEN}  header: X-API-Key\n`,
      'headers:\n  x-api-key: k\n',
      /headers\.x-api-key: would override the credential/,
    ],
    [
      'a query parameter that would override the credential',
      `${TOKEN}  query: api_key\n`,
      'query:\n  api_key: k\n',
      /query\.api_key: would override the credential \(auth\.query: the query parameter api_key\)/,
    ],
    [
      'the credential cookie in a Cookie header',
      `${TOKEN}  cookie: session\n`,
      'headers:\n  Cookie: "a=1; session=x"\n',
      /headers\.Cookie: would override the credential \(auth\.cookie: the cookie session\)/,
    ],
    [
      'query and cookie together',
      `${TOKEN}  query: k\n  cookie: c\n`,
      '',
      /auth\.cookie: cannot be used with auth\.query: the credential goes in one place/,
    ],
    [
      'basic with a token',
      `${TOKEN}  basic:\n    username: u\n    password: \${API_PASSWORD}\n`,
      '',
      /auth\.token: cannot be used with auth\.basic: HTTP Basic is its own scheme/,
    ],
    [
      'token and login together',
      `${TOKEN}  login:\n    path: /login\n    json: {}\n    token: /token\n`,
      '',
      /auth\.login: cannot be used with auth\.token: the login obtains the token/,
    ],
    [
      'login.token not a JSON pointer',
      '  login:\n    path: /login\n    json: {}\n    token: access_token\n',
      '',
      /auth\.login\.token: must be a JSON pointer such as \/token/,
    ],
    [
      'a login on another origin',
      '  login:\n    path: https://elsewhere.example/token\n    form: {}\n    token: /t\n',
      '',
      /auth\.login\.path: must be on the base URL's origin/,
    ],
    [
      'a prefix with a query credential',
      `${TOKEN}  query: k\n  prefix: Token\n`,
      '',
      /auth\.prefix: cannot be used with auth\.query: a prefix belongs to a header credential/,
    ],
  ])('%s', async (_name, auth, extra, expected) => {
    const found = await problems(auth, extra);
    expect({ found, matches: found.some((p) => expected.test(p)) }).toEqual({ found, matches: true });
  });

  it('a valid config of each kind loads', async () => {
    expect(
      await problems(
        `${TOKEN}  header: X-API-Key\n`,
        'headers:\n  X-Tenant: acme\nquery:\n  v: "2"\ncontentType: application/vnd.api+json\n',
      ),
    ).toEqual([]);
  });
});
