// Finding the new item's id (issue 10, item 2): body shapes, Location path or query, createdIdFrom; and what happens when none works.
import { describe, expect, it } from '@jest/globals';
import { shapesResources } from '../../src/testing/shapes-config.js';
import { auditShapes, bad } from './helpers.js';

describe('the id of a created item is found', () => {
  it.each([
    ['in a one-element array', { createAnswer: 'array' as const }],
    ['in an envelope', { createAnswer: 'envelope' as const }],
    ['in a Location path, with no body', { createAnswer: 'location' as const }],
    [
      'in a Location path with a trailing slash',
      { createAnswer: 'location' as const, addressing: 'slash' as const },
    ],
  ])('%s: the full audit passes and leaves nothing', async (_, options) => {
    const { result, before, after } = await auditShapes(options);
    expect(bad(result)).toEqual([]);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(result.cleanup.created).toBeGreaterThan(5);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('in a Location query (/widgets?id=eq.7) of a filter-addressed API', async () => {
    const { result, before, after } = await auditShapes({ addressing: 'filter', createAnswer: 'location' });
    expect(bad(result).filter((b) => !b.startsWith('item-url-names-one'))).toEqual([]);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('where createdIdFrom points: a JSON pointer into the body', async () => {
    const resources = shapesResources().replace('    sample:', '    createdIdFrom: /meta/newId\n    sample:');
    const { result, before, after } = await auditShapes({ createAnswer: 'meta' }, { resources });
    // The answer has no Location: that warning is the only finding.
    expect(bad(result)).toEqual([
      'create-location widgets: POST /v1/widgets answered 201 with no Location header',
    ]);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('createdIdFrom: location reads only the Location', async () => {
    const resources = shapesResources().replace('    sample:', '    createdIdFrom: location\n    sample:');
    const { result, before, after } = await auditShapes({ createAnswer: 'envelope' }, { resources });
    expect(bad(result)).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});

describe('when no id can be found', () => {
  it('says so, creates nothing more there, leaves at most one item (reported) and still runs the probes that need no item of its own', async () => {
    const { result, after, before } = await auditShapes({ createAnswer: 'meta' });
    expect(bad(result)).toEqual([
      expect.stringMatching(
        /^create-answers-201 widgets: POST \/v1\/widgets answered 201 but named no new item/,
      ),
    ]);
    // One item was made; it is either found again and deleted (recovered) or reported left behind.
    const made = (after.widgets?.length ?? 0) - (before.widgets?.length ?? 0);
    const reported = (result.cleanup.recovered ?? []).length + result.cleanup.leftovers.length;
    expect(made + (result.cleanup.recovered ?? []).length).toBe(1);
    expect(reported).toBe(1);
    const skipped = result.results.filter(
      (r) => r.status === 'skipped' && /creates nothing more in widgets/.test(r.message ?? ''),
    );
    expect(skipped.length).toBeGreaterThan(3);
    expect(skipped[0].message).toMatch(/POST \/v1\/widgets answered 201 but named no id/);
    // Probes that need no item of their own still run and pass.
    const passed = result.results.filter((r) => r.status === 'passed').map((r) => r.checkId);
    expect(passed).toEqual(
      expect.arrayContaining([
        'not-found-404',
        'malformed-400',
        'json-body-required',
        'missing-credentials-401',
      ]),
    );
  });

  it('a createdIdFrom pointer that matches nothing says so', async () => {
    const resources = shapesResources().replace('    sample:', '    createdIdFrom: /data/id\n    sample:');
    const { result } = await auditShapes({ createAnswer: 'meta' }, { resources });
    const skipped = result.results.find((r) => /creates nothing more in widgets/.test(r.message ?? ''));
    expect(skipped?.message).toMatch(/createdIdFrom \/data\/id matches no id in its body/);
  });
});
