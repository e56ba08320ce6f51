// No pass on nothing (issue 10, item 8): unknown-id verdicts only where a known item answers at the same URL shape.
import { describe, expect, it } from '@jest/globals';
import { catalogue } from '../../suites/index.js';
import { shapesResources } from '../../src/testing/shapes-config.js';
import { auditShapes, statuses } from './helpers.js';

const pick = (...ids: string[]) => catalogue.filter((c) => ids.includes(c.id));
const CHECKS = ['not-found-404', 'missing-credentials-401', 'invalid-credentials-401'];

describe('a check that judges an unknown id first proves the item URL shape is served', () => {
  it('skips, never passes, where every URL of the declared item shape answers 404 (known ids too)', async () => {
    // The API addresses items by a filter; the config wrongly declares /widgets/{id}, which it never serves.
    const resources = shapesResources().replace('    sample:', '    item: /widgets/{id}\n    sample:');
    const { result } = await auditShapes({ addressing: 'filter' }, { resources, checks: pick(...CHECKS) });
    for (const id of CHECKS) expect(statuses(result, id)).toEqual(['skipped widgets']);
    const notFound = result.results.find((r) => r.checkId === 'not-found-404');
    expect(notFound?.message).toMatch(
      /^the unknown-id probes were not judged: the item URL \/widgets\/\{id\} is not served: a known item answered 404 \(GET \/v1\/widgets\/\d+\)/,
    );
    const missing = result.results.find((r) => r.checkId === 'missing-credentials-401');
    expect(missing?.message).toMatch(
      /the item-URL probes were not judged: the item URL \/widgets\/\{id\} is not served/,
    );
  });

  it('another item template the service does not serve (/widgets/{id}/x) is skipped too', async () => {
    const resources = shapesResources().replace('    sample:', '    item: /widgets/{id}/x\n    sample:');
    const { result } = await auditShapes({}, { resources, checks: pick('not-found-404') });
    expect(statuses(result, 'not-found-404')).toEqual(['skipped widgets']);
  });

  it('passes where a known item answers at the same shape (read-only: a listed item)', async () => {
    const { result } = await auditShapes(
      { addressing: 'slash' },
      { checks: pick(...CHECKS), run: { readOnly: true } },
    );
    expect(statuses(result, 'not-found-404')).toEqual(['passed widgets']);
    expect(result.cleanup.created).toBe(0);
  });
});
