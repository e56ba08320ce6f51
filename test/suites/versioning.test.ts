// CheckTester cases for VER-PATH and VER-UNKNOWN: where the version segment is, and what an unknown version answers.
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import type { AuditConfig } from '../../src/core/types.js';
import versionInPath from '../../suites/versioning/version-in-path.js';
import unknownVersion, { farVersion } from '../../suites/versioning/unknown-version.js';
import { VALID_VARIANTS } from './valid-variants.js';

const tester = new CheckTester();

/** The example API served under `prefix`, audited at `base` with resource paths `paths(r)`. */
function servedAt(prefix: string, base = prefix, paths = (path: string) => path) {
  return {
    api: { versionPrefix: prefix },
    config: (config: AuditConfig, server: { origin: string }): AuditConfig => ({
      ...config,
      baseUrl: server.origin + base,
      resources: config.resources.map((r) => ({ ...r, path: paths(r.path) })),
    }),
  };
}

/** Answers GET of the collection under any version but v1 the way `answer` says. */
function otherVersions(status: number, headers: Record<string, string> = {}, body = '') {
  return {
    middleware: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      const m = /^\/v(\d+)\/widgets$/.exec(req.url ?? '');
      if (!m || m[1] === '1') return false;
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
      return true;
    },
  };
}

tester.run(versionInPath, {
  valid: [
    ...VALID_VARIANTS,
    { name: 'a version deeper in the base URL (/api/v2)', ...servedAt('/api/v2') },
    {
      name: 'the version in each resource path, not in the base URL',
      ...servedAt('/v1', '', (path) => `/v1${path}`),
    },
  ],
  invalid: [
    {
      name: 'no version anywhere',
      ...servedAt('/api'),
      failures: [{ messageId: 'noVersionSegment' }],
    },
    {
      name: 'a version that is not v<N> (/version1)',
      ...servedAt('/version1'),
      failures: [{ messageId: 'noVersionSegment' }],
    },
    {
      name: 'a date instead of v<N>',
      ...servedAt('/2024-01-01'),
      failures: [{ messageId: 'noVersionSegment' }],
    },
    {
      name: 'the version in one resource path only',
      ...servedAt('', '', (path) => (path === '/widgets' ? `/v1${path}` : path)),
      api: {
        versionPrefix: '',
        middleware: (req, _res) => {
          // The same collections, also under /v1.
          if (req.url?.startsWith('/v1/')) req.url = req.url.slice(3);
          return false;
        },
      },
      failures: [{ messageId: 'noVersionSegment' }],
    },
  ],
});

tester.run(unknownVersion, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'an unknown version answers 400',
      api: otherVersions(400, {}, '{"error":"unsupported version"}'),
    },
    { name: 'an unknown version answers 410', api: otherVersions(410, {}, '{"error":"gone"}') },
    {
      name: 'an unknown version is redirected to a page that answers 404',
      api: otherVersions(302, { location: '/v1/no-such-version' }),
    },
    { name: 'the version in a deeper base URL (/api/v3)', ...servedAt('/api/v3') },
  ],
  invalid: [
    {
      name: 'every version is served',
      api: {
        middleware: (req) => {
          if (req.url) req.url = req.url.replace(/^\/v\d+\//, '/v1/');
          return false;
        },
      },
      failures: [{ messageId: 'unknownVersionServed' }],
    },
    {
      name: 'an unknown version is redirected to the real one',
      api: otherVersions(301, { location: '/v1/widgets' }),
      failures: [{ messageId: 'redirectedToServed' }],
    },
    {
      name: 'an unknown version answers 204',
      api: otherVersions(204),
      failures: [{ messageId: 'unknownVersionServed' }],
    },
  ],
});

describe('unknown-version', () => {
  it('skips with the reason when there is no version segment to replace', async () => {
    const { result } = await auditFixture([unknownVersion], servedAt('/api'));
    expect(result.results.map((r) => [r.status, r.message])).toEqual([
      ['skipped', '/api/widgets has no /v<N>/ segment to replace (see version-in-path)'],
    ]);
  });

  it('picks a version far from the real one', () => {
    expect(farVersion(1)).toBe(999);
    expect(farVersion(2)).toBe(999);
    expect(farVersion(998)).toBe(1998);
  });
});

describe('version-in-path', () => {
  it('sends no request', async () => {
    const { result } = await auditFixture([versionInPath], servedAt('/api'));
    expect(result.summary.requests).toBe(2); // the reachability and credential probes only
    expect(result.results[0].evidence[0]).toMatchObject({
      request: { method: 'GET', url: expect.stringMatching(/\/api\/widgets$/) },
      response: null,
    });
  });
});
