// The full audit of FastAPI 0.92 in its tutorial's style (trailing-slash collections, the OAuth2 password flow), and its own OpenAPI document.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/load.js';
import { ConformanceError } from '../../src/core/errors.js';
import { openApiStep } from '../../src/openapi/step.js';
import { startFastapi } from './harness/fastapi.js';
import { configPath, postForm, type RealService } from './harness/service.js';
import { describeRealServer } from './harness/software.js';
import { describeServiceAudit } from './describe-service-audit.js';

// Found by probing the app by hand, then confirmed by this audit: fastapi/EXPECTED.md.
const DEVIATIONS = [
  // A body sent with no Content-Type is parsed as JSON and stored (201).
  'MTH-JSON-BODY widgets error',
  'MTH-JSON-BODY orders error',
  // The body is parsed before the token is looked at: malformed JSON without a credential, or with
  // an invalid one, is 422.
  'AUTH-MISSING widgets error',
  'AUTH-MISSING orders error',
  'AUTH-INVALID widgets error',
  'AUTH-INVALID orders error',
  // No Location on a 201; pydantic's 422 where 400 is expected.
  'MTH-CREATE widgets warning',
  'MTH-CREATE orders warning',
  'ERR-MALFORMED widgets warning',
  'ERR-MALFORMED orders warning',
];

describeServiceAudit({
  name: 'fastapi',
  title: 'FastAPI 0.92 under audit, the OAuth2 password flow (fastapi/conformance.config.yaml)',
  config: configPath('fastapi'),
  start: async () => {
    const service = await startFastapi();
    return { service, stops: [() => service.stop()] };
  },
  // LIM-*: no rate limit (a burst of 200 proves nothing more); HOOK-*: no webhooks.
  skip: ['LIM-*', 'HOOK-*'],
  deviations: DEVIATIONS,
});

describeRealServer('fastapi', 'FastAPI 0.92 through its own OpenAPI document (/openapi.json)', () => {
  let service: RealService;
  beforeAll(async () => {
    service = await startFastapi();
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
  }, 60_000);

  const load = (env: Record<string, string>) =>
    loadConfig({ openapi: `${service.origin}/openapi.json`, env, documentStep: openApiStep() });

  it('reads the 3.0.2 document with 3.1-style exclusive bounds, saying so, and derives both collections', async () => {
    const { status, body } = await postForm(`${service.baseUrl}/token`, {
      username: 'admin',
      password: service.env.FASTAPI_PASSWORD,
    });
    expect(status).toBe(200);
    const config = await load({ CONFORMANCE_TOKEN: body.access_token });
    expect(
      config.openapiNotes?.some((n) => /exclusiveMinimum\/exclusiveMaximum given as a number/.test(n)),
    ).toBe(true);
    // Items at /v1/widgets/{id}: the default of path /v1/widgets/ (its slash left out), as FastAPI serves them.
    expect(config.resources.map((r) => [r.name, r.path, r.item, r.idField])).toEqual([
      ['widgets', '/v1/widgets/', undefined, 'id'],
      ['orders', '/v1/orders/', undefined, 'id'],
    ]);
  });

  it('without CONFORMANCE_TOKEN it is exit 2 naming it: every operation it would send takes the token', async () => {
    const error = await load({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConformanceError);
    expect((error as ConformanceError).problems.join('\n')).toMatch(
      /auth\.token: every operation the audit sends takes credentials \(security scheme "OAuth2PasswordBearer"\), and none is set: set CONFORMANCE_TOKEN/,
    );
  });
});
