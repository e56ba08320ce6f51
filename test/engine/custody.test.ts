// Custody of test data: the seen-ids registry, which ids may be adopted, and what cleanup compares.
import { describe, expect, it } from '@jest/globals';
import { compareWritten, shownFor } from '../../src/core/written.js';
import { addressable, itemUrl } from '../../src/core/addressing.js';
import { MAX_SEEN_IDS, SeenIds } from '../../src/engine/seen-ids.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { catalogue } from '../../suites/index.js';
import type { ResourceConfig } from '../../src/core/types.js';

const widgets = { name: 'widgets', path: '/widgets', idField: 'id' } as ResourceConfig;

describe('ids as path segments', () => {
  it('percent-encodes an id as one segment and refuses dot segments', () => {
    expect(itemUrl(widgets, 'a/b c')).toBe('/widgets/a%2Fb%20c');
    expect(itemUrl(widgets, '7')).toBe('/widgets/7');
    for (const id of ['.', '..', 'x/../1', 'x/./1', '../1', 'x\\..\\1', ''])
      expect({ id, ok: addressable(id) }).toEqual({ id, ok: false });
    for (const id of ['...', '.hidden', 'v1.2', 'a..b', '%2e%2e'])
      expect({ id, ok: addressable(id) }).toEqual({ id, ok: true });
  });
});

describe('SeenIds', () => {
  it('knows what was seen before a point, not after it', () => {
    const seen = new SeenIds();
    seen.record('widgets', '1');
    const point = seen.mark();
    seen.record('widgets', '2');
    expect(seen.seenBefore('widgets', '1', point)).toBe(true);
    expect(seen.seenBefore('widgets', '2', point)).toBe(false);
    expect(seen.seenBefore('orders', '1', point)).toBe(false);
    // A later sighting keeps the first one's point.
    seen.record('widgets', '1');
    expect(seen.seenBefore('widgets', '1', point)).toBe(true);
    seen.forget('widgets', '1');
    expect(seen.seenBefore('widgets', '1', point)).toBe(false);
  });

  it('compares UUIDs in any case', () => {
    const seen = new SeenIds();
    seen.record('w', '3F2504E0-4F89-11D3-9A0C-0305E82C3301');
    expect(seen.seenBefore('w', '3f2504e0-4f89-11d3-9a0c-0305e82c3301', seen.mark())).toBe(true);
  });

  it('keeps at most MAX_SEEN_IDS per resource; beyond it the resource is no longer whole', () => {
    const seen = new SeenIds();
    seen.markWhole('w');
    expect(seen.whole('w')).toBe(true);
    for (let i = 0; i < MAX_SEEN_IDS; i++) seen.record('w', String(i));
    expect(seen.whole('w')).toBe(true);
    seen.record('w', 'one more');
    const point = seen.mark();
    expect(seen.whole('w')).toBe(false);
    expect(seen.seenBefore('w', '0', point)).toBe(false);
    expect(seen.seenBefore('w', '1', point)).toBe(true);
    // A huge id is kept as a hash: still recognised.
    const huge = 'x'.repeat(100_000);
    seen.record('v', huge);
    expect(seen.seenBefore('v', huge, seen.mark())).toBe(true);
  });
});

describe('compareWritten', () => {
  const sample = { name: 'bolt', price: 3, tags: ['metal'] };
  it('accepts what services commonly do to what they store', () => {
    const ok = [
      { id: 7, name: 'bolt', price: 3, tags: ['metal'], createdAt: 'x' },
      { id: 7, name: 'Bolt', price: '3', tags: ['metal', 'small'] },
      { id: 7, name: 'bolt' },
      { data: { id: 7, name: 'bolt', price: 3 }, meta: { request_id: 'r' } },
      { id: 7, name: 'nut', price: 4, updatedAt: 'y', version: 9 },
    ];
    for (const answer of ok) {
      expect(compareWritten([sample, { name: 'nut', price: 4 }], answer, 'id').contradictions).toEqual([]);
    }
    // JSON:API documents, with an unknown member beside the envelope.
    const doc = { data: { type: 'widgets', attributes: { name: 'bolt' } }, extra: 1 };
    expect(
      compareWritten([doc], { data: { id: '7', type: 'widgets', attributes: { name: 'bolt' } } }, 'id'),
    ).toEqual({ contradictions: [], agreed: 2 });
  });

  it('takes what the service made of the values sent (its answer) as written too, and nothing else', () => {
    const sent = { name: ' bolt ', price: '3.50', size: { width: 2 } };
    const answer = { data: { id: 7, name: 'bolt', price: 3.5, size: { width: 2, unit: 'cm' }, views: 0 } };
    const shown = shownFor(sent, answer, 'id');
    expect(shown).toEqual({ name: 'bolt', price: 3.5, size: { width: 2 } });
    const later = { id: 7, name: 'bolt', price: 3.5, size: { width: 2, unit: 'mm' }, views: 12 };
    expect(compareWritten([sent], later, 'id').contradictions).toEqual(['/price: 3.5 (written: "3.50")']);
    expect(compareWritten([sent, shown], later, 'id').contradictions).toEqual([]);
    expect(shownFor(sent, { id: 7 }, 'id')).toBeUndefined();
  });

  it('names the fields another record holds', () => {
    const other = { id: 1, name: 'main valve', price: 1200, owner: 'plant-3' };
    expect(compareWritten([sample], other, 'id')).toEqual({
      contradictions: ['/name: "main valve" (written: "bolt")', '/price: 1200 (written: 3)'],
      agreed: 0,
    });
    expect(compareWritten([sample], { ...other, lastSeen: 5 }, 'id', ['price']).contradictions).toEqual([
      '/name: "main valve" (written: "bolt")',
    ]);
  });
});

describe('cleanup compares before it deletes', () => {
  it('an item that no longer holds what the audit wrote is reported as not deleted, and never deleted', async () => {
    let swapped = false;
    const deletes: string[] = [];
    const { result } = await auditFixture([catalogue.find((c) => c.id === 'create-answers-201')!], {
      api: {
        middleware: (req, res) => {
          if (!swapped || !/^\/v1\/widgets\/[^/]+$/.test(req.url ?? '')) return false;
          if (req.method === 'DELETE') deletes.push(req.url ?? '');
          if (req.method !== 'GET') return false;
          // Someone else's record now answers at the audit's URL.
          const id = (req.url ?? '').split('/').pop();
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ id: Number(id), name: 'main valve', price: 1200, tags: ['plant-3'] }));
          return true;
        },
      },
      run: {
        only: ['create-answers-201'],
        onResult: () => {
          swapped = true;
        },
      },
    });
    const widgetsLeft = result.cleanup.leftovers.filter((l) => l.resource === 'widgets');
    expect(widgetsLeft.length).toBe(1);
    expect(widgetsLeft[0].reason).toMatch(
      /^not deleted: the item no longer holds what the audit wrote \(\/name: "main valve" \(written: "bolt"\); \/price: 1200 \(written: 3\); \/tags: \["plant-3"\] \(written: \["metal","small"\]\)\), so it may not be the audit's$/,
    );
    expect(deletes).toEqual([]);
  });
});
