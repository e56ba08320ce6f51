// CheckTester cases for AUTH-CHALLENGE (an observer: the missing-credentials check makes the 401s), and the challenge parser.
import { describe, expect, it } from '@jest/globals';
import { CheckTester, times } from '../../src/testing/check-tester.js';
import bearerChallenge, { namesBearer } from '../../suites/auth/bearer-challenge.js';
import missingCredentials401 from '../../suites/auth/missing-credentials-401.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { dropHeader, rewriteReply } from './auth-fixtures.js';

/** Replaces the WWW-Authenticate header of every 401 (undefined: drops it). */
const challenge = (value: string | undefined) =>
  rewriteReply(
    () => true,
    (status, headers) => {
      if (status === 401) {
        dropHeader(headers, 'www-authenticate');
        if (value !== undefined) headers['WWW-Authenticate'] = value;
      }
      return status;
    },
  );

new CheckTester({ with: [missingCredentials401] }).run(bearerChallenge, {
  valid: [
    ...VALID_VARIANTS,
    { name: 'a bare Bearer challenge', api: { middleware: challenge('Bearer') } },
    { name: 'a lower-case scheme', api: { middleware: challenge('bearer realm="api"') } },
    {
      name: 'realm, error and scope parameters',
      api: { middleware: challenge('Bearer realm="api", error="invalid_token", scope="read write"') },
    },
    {
      name: 'Bearer beside another challenge',
      api: { middleware: challenge('Basic realm="legacy", Bearer realm="api"') },
    },
  ],
  invalid: [
    {
      name: 'no WWW-Authenticate on a 401',
      api: { middleware: challenge(undefined) },
      failures: [...times(20, 'noChallenge')],
      severity: 'warning',
    },
    {
      name: 'a Basic challenge',
      api: { middleware: challenge('Basic realm="example"') },
      failures: [...times(20, 'wrongScheme')],
      severity: 'warning',
    },
  ],
});

describe('namesBearer', () => {
  it.each([
    ['Bearer', true],
    ['Bearer realm="example", error="invalid_token"', true],
    ['BEARER realm=x', true],
    ['Basic realm="x", Bearer', true],
    ['Newauth realm="apps", type=1, title="Login to \\"apps\\"", Bearer realm="simple"', true],
    ['Basic realm="Bearer"', false],
    ['Basic realm="x, Bearer y"', false],
    ['Bearerish realm="x"', false],
    ['Basic realm="x", bearer=1', false],
    ['', false],
  ])('%s -> %s', (header, expected) => {
    expect(namesBearer(header)).toBe(expected);
  });
});
