// Engine behaviour: errored checks do not stop the run, --only/--skip select, cleanup reports leftovers.
import { describe, expect, it } from '@jest/globals';
import { defineCheck } from '../../src/core/check.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { buildPlan } from '../../src/engine/plan.js';
import { catalogue } from '../../suites/index.js';
import readCollectionAndItem from '../../suites/methods/read-collection-and-item.js';
import type { AuditConfig } from '../../src/core/types.js';

const throwing = defineCheck({
  kind: 'active',
  id: 'throws',
  rules: ['MTH-READ'],
  suite: 'test',
  title: 'a check that throws',
  severity: 'error',
  schedule: 'own-items',
  writes: 'none',
  messages: {},
  description: { sends: '-', passes: '-', why: '-' },
  async run() {
    throw new Error('boom');
  },
});

describe('engine', () => {
  it('turns a check that throws into an errored result and keeps going', async () => {
    const { result } = await auditFixture([throwing, readCollectionAndItem]);
    const errored = result.results.filter((r) => r.checkId === 'throws');
    expect(errored.map((r) => r.status)).toEqual(['errored', 'errored']);
    expect(errored[0].message).toContain('boom');
    expect(
      result.results.filter((r) => r.checkId === 'read-collection-and-item').map((r) => r.status),
    ).toEqual(['passed', 'passed']);
  });

  it('selects checks by id, rule id, suite and wildcard', () => {
    const config = { resources: [{ name: 'a' }, { name: 'b' }] } as unknown as AuditConfig;
    const ids = (only: string[], skip: string[] = []) =>
      [...new Set(buildPlan(config, catalogue, { only, skip }).tasks.map((t) => t.check.id))].sort();
    expect(ids(['MTH-READ'])).toEqual(['read-collection-and-item']);
    expect(ids(['mth-*'])).toEqual([
      'change-visible',
      'create-answers-201',
      'create-location',
      'delete-removes',
      'json-body-required',
      'read-collection-and-item',
    ]);
    expect(ids(['methods'], ['MTH-CREATE', 'MTH-JSON-BODY'])).toEqual([
      'change-visible',
      'delete-removes',
      'read-collection-and-item',
    ]);
  });

  it('shards by resource: each resource in exactly one shard', () => {
    const config = { resources: ['c', 'a', 'b', 'd'].map((name) => ({ name })) } as unknown as AuditConfig;
    const shards = [1, 2, 3].map((index) =>
      buildPlan(config, catalogue, { shard: { index, total: 3 } }).resources.map((r) => r.name),
    );
    expect(shards.flat().sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(shards).toEqual([['a', 'd'], ['b'], ['c']]);
  });

  it('reports what it created and could not delete', async () => {
    const { result } = await auditFixture([catalogue.find((c) => c.id === 'create-answers-201')!], {
      api: {
        middleware: (req, res) => {
          if (req.method !== 'DELETE') return false;
          res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"no"}');
          return true;
        },
      },
    });
    expect(result.cleanup.leftovers.length).toBe(2);
    expect(result.cleanup.leftovers[0].reason).toBe('DELETE answered 403');
  });

  it('reads every created item back: a DELETE that did nothing is a leftover, not a clean run', async () => {
    const { result } = await auditFixture([catalogue.find((c) => c.id === 'delete-removes')!], {
      api: { breaks: { deleteNoop: true } },
    });
    expect(result.cleanup.leftovers.length).toBe(result.cleanup.created);
    expect(result.cleanup.leftovers[0].reason).toMatch(/DELETE answered 204, but GET still answers 200/);
    // The item the check itself deleted is said so in a sentence ("an earlier DELETE, but …" was not one).
    expect(result.cleanup.leftovers.map((l) => l.reason)).toContain(
      'deleted during the checks, but GET still answers 200: the item is still there',
    );
    expect(result.cleanup.deleted).toBe(0);
  });

  it('reads a collection whose second page holds 200,000 entries (more than a call takes as arguments)', async () => {
    // The collection read before the first create follows the pages: the first names the second.
    const page2 = JSON.stringify({ data: Array.from({ length: 200_000 }, (_, i) => ({ id: 100_000 + i })) });
    const { result } = await auditFixture([catalogue.find((c) => c.id === 'create-answers-201')!], {
      api: {
        middleware: (req, res) => {
          if (req.method !== 'GET' || !(req.url ?? '').startsWith('/v1/widgets?page=')) return false;
          const body = req.url === '/v1/widgets?page=2' ? page2 : '{"data": []}';
          res.writeHead(200, { 'content-type': 'application/json' }).end(body);
          return true;
        },
        variant: { listStyle: 'paged' },
      },
    });
    const widgets = result.results.find((r) => r.resource === 'widgets');
    expect([widgets?.status, widgets?.message]).toEqual(['passed', undefined]);
  });
});
