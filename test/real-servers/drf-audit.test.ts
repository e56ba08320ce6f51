// The full audit of Django REST framework 3.14 (trailing slashes, Authorization: Token from a login, nested orders).
import { afterAll } from '@jest/globals';
import { packagePath } from '../../src/core/paths.js';
import { seedDrf, startDrf, type DrfMode, type DrfSeed } from './harness/drf.js';
import { configPath } from './harness/service.js';
import { describeServiceAudit } from './describe-service-audit.js';

// Found by probing the project by hand, then confirmed by this audit: drf/EXPECTED.md.
const SHARED = [
  // A 201 never carries Location (DRF sets one only when the serializer has a url field).
  'MTH-CREATE widgets warning',
  'MTH-CREATE customers warning',
  'MTH-CREATE orders warning',
  // PATCH of an item with an empty JSON body answers 200, the item unchanged.
  'ERR-MALFORMED widgets error',
  'ERR-MALFORMED customers error',
  'ERR-MALFORMED orders error', // ... and the negative quantity below is a 500, not a 400
  // On SQLite a PositiveIntegerField has no minimum for DRF: quantity -1 reaches the database's
  // CHECK constraint, which raises (POST and PUT: HTML "Server Error (500)").
  'ERR-SERVER orders error',
  // Django's HTML pages: the 404 of an unknown collection (and of /api/v999/), that 500.
  'GEN-JSON widgets error',
  'GEN-JSON customers error',
  'GEN-JSON orders error',
  'GEN-JSON - error',
  // Those HTML bodies, and JSON errors whose top-level keys differ ({"detail"}, {"price": [...]}).
  'ERR-BODY widgets warning',
  'ERR-BODY customers warning',
  'ERR-BODY orders warning',
  'ERR-BODY - warning',
];

// HasAPIKey is a permission class, not an authenticator: with no key or a wrong one DRF answers 403.
const APIKEY_ONLY = [
  'AUTH-MISSING widgets error',
  'AUTH-MISSING customers error',
  'AUTH-MISSING orders error',
  'AUTH-INVALID widgets error',
  'AUTH-INVALID customers error',
  'AUTH-INVALID orders error',
];

let seeding: Promise<DrfSeed> | undefined;
/** One migrated and seeded database for both audits (each server runs on a copy of it): made once. */
const seed = (): Promise<DrfSeed> => (seeding ??= seedDrf());
afterAll(async () => {
  await (await seeding?.catch(() => undefined))?.stop();
}, 60_000);

function drfAudit(mode: DrfMode, title: string, config: string, deviations: string[]): void {
  describeServiceAudit({
    name: 'drf',
    title,
    config,
    start: async () => {
      const service = await startDrf(await seed(), mode);
      return { service, stops: [() => service.stop()] };
    },
    // LIM-*: the throttle (100/s per user) makes a burst's outcome depend on timing; HOOK-*: no webhooks.
    skip: ['LIM-*', 'HOOK-*'],
    deviations,
    // Every item the audit made (orders under a customer of its own) is deleted: nothing is left.
  });
}

drfAudit(
  'token',
  'Django REST framework under audit, Authorization: Token from a login (drf/conformance.config.yaml)',
  configPath('drf'),
  SHARED,
);

drfAudit(
  'apikey',
  'Django REST framework under audit, X-API-Key (drf/conformance.apikey.config.yaml)',
  packagePath('test', 'real-servers', 'drf', 'conformance.apikey.config.yaml'),
  [...SHARED, ...APIKEY_ONLY],
);
