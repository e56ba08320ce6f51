// The full audit of a second, independently written correct API (src/testing/alt-api) under several
// combinations of valid choices the conventions leave open: no failure, nothing touched, nothing left.
import { describe, expect, it } from '@jest/globals';
import type { AltApiOptions } from '../../src/testing/alt-api/index.js';
import { auditAlt, badResults, skipped } from './helpers.js';

/** Skips every combination has: no webhooks declared; settings declare no idempotency key and no schema. */
const ALWAYS_SKIPPED = [
  'idempotency-key-once settings',
  'matches-schema settings',
  'webhook-delivery -',
  'webhook-signature -',
];

interface Combination {
  name: string;
  options: AltApiOptions;
  /** Skips beyond ALWAYS_SKIPPED that the combination explains (an operation not declared...). */
  alsoSkipped?: string[];
  /** The ordinary checks meet its rate limit: the client waits out 429s beyond LIM-RETRY's one wait. */
  limiting?: boolean;
}

const COMBINATIONS: Combination[] = [
  {
    name: 'cursor lists {items, next}, bare items, DELETE 200 {deleted, id} then 404, problem+json, unknown fields refused, RateLimit-* headers only, X-Idempotency-Key',
    options: {},
  },
  {
    name: 'Django REST pages of 3 {count, next, previous, results}, items in {data, meta}, 201 with only a Location, DELETE 204 and repeats 204, flat {code, message} errors, unknown fields ignored, Retry-After as an HTTP date, /api/v2, Idempotency-Token, an affinity cookie, Basic and Bearer challenges',
    options: {
      lists: 'drf',
      pageSize: 3,
      items: 'data',
      createBody: 'location-only',
      deleteStatus: 204,
      repeatDelete: 'same',
      errors: 'flat',
      unknownFields: 'ignore',
      rateLimit: 'date',
      prefix: '/api/v2',
      idempotencyHeader: 'Idempotency-Token',
      affinityCookie: true,
      challenges: 'basic-and-bearer',
    },
  },
  {
    name: 'Stripe-style lists newest first in pages of 2, creates answering {id} only, 410 Gone for deleted items, unknown query parameters refused, the IETF RateLimit header, a per-address limit before authentication, settings without PUT, a limited token that may write but not delete',
    options: {
      lists: 'stripe',
      pageSize: 2,
      createBody: 'id-only',
      deletedStatus: 410,
      unknownQuery: 'reject',
      rateLimit: 'structured',
      limitBeforeAuth: true,
      settingsOps: 'no-put',
      limitedMay: 'write-but-not-delete',
    },
    alsoSkipped: ['put-repeatable settings'],
  },
  {
    name: 'HAL pages of 2 (application/hal+json), summary list entries, server-managed fields nested under names the config lists in ignoreFields, Connection: close, empty collections',
    options: {
      lists: 'hal',
      pageSize: 2,
      listFields: 'summary',
      managedFields: 'nested',
      closeConnections: true,
      seeded: false,
    },
  },
  {
    name: 'JSON:API documents (application/vnd.api+json) in pages of 2, DELETE 204, unknown attributes ignored',
    options: { format: 'jsonapi', pageSize: 2, deleteStatus: 204, unknownFields: 'ignore' },
  },
  {
    name: 'collections nested under a parent (/accounts/acc_main/...), a read-only feed (updates: GET only), items in {data, meta}',
    options: { nested: true, updatesOps: 'read-only', items: 'data' },
    // What cannot run on a collection that takes no writes.
    alsoSkipped: [
      'change-visible updates',
      'create-answers-201 updates',
      'create-location updates',
      'delete-removes updates',
      'delete-repeatable updates',
      'forbidden-403 updates',
      'idempotency-key-once updates',
      'json-body-required updates',
      'malformed-400 updates',
      'put-repeatable updates',
    ],
  },
  {
    name: 'a tight limit of 120 requests per second per token that the ordinary checks run into',
    options: {
      rateLimitScope: 'token',
      rateLimitPerSecond: 120,
      items: 'data',
      lists: 'cursor',
      pageSize: 2,
    },
    limiting: true,
  },
  {
    name: 'items named with siblings ({"address": {...}, "meta": {...}}), Retry-After dates from a server whose clock is 20 s behind',
    options: {
      items: 'named',
      rateLimit: 'date',
      rateLimitScope: 'token',
      rateLimitPerSecond: 120,
      clockSkewMs: -20000,
    },
    limiting: true,
  },
  {
    name: 'decimal and timestamp columns: numbers shown as strings with two decimals ("12.50"), date-times as the same instant at +02:00 with milliseconds, dates as midnight UTC',
    options: { values: 'decimal-strings' },
  },
  {
    name: 'decimal strings and respelled date-times inside JSON:API documents, server-managed fields nested',
    options: { values: 'decimal-strings', format: 'jsonapi', managedFields: 'nested', pageSize: 2 },
  },
];

describe('full audit of the alternative API', () => {
  for (const c of COMBINATIONS) {
    it(`passes: ${c.name}`, async () => {
      const { result, before, after, clock } = await auditAlt(c.options);
      expect(badResults(result)).toEqual([]);
      // Every check ran that could: a skip would hide a check that did not understand the answers.
      expect(skipped(result)).toEqual([...ALWAYS_SKIPPED, ...(c.alsoSkipped ?? [])].sort());
      expect(result.cleanup.leftovers).toEqual([]);
      expect(result.cleanup.created).toBeGreaterThan(0);
      // Same records, same bytes: nothing pre-existing changed, nothing created remains.
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
      // The server and the audit share a clock that jumps over waits: the limit lifts at once for
      // a client that waited as told, and a tight limit is still met (1,130 requests in far less
      // than the 9 s that 120 a second would allow them).
      if (c.limiting) expect(clock.sleeps.length).toBeGreaterThan(1);
    }, 60_000);
  }

  it('passes under --read-only and changes nothing', async () => {
    const { result, before, after } = await auditAlt(COMBINATIONS[1].options, { run: { readOnly: true } });
    expect(badResults(result)).toEqual([]);
    expect(result.summary.passed).toBeGreaterThan(0);
    expect(result.cleanup.created).toBe(0);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  }, 60_000);
});
