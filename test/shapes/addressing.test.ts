// Item addressing (issue 10, item 1): trailing slashes, query filters, percent-encoded ids, through every check and cleanup.
import { describe, expect, it } from '@jest/globals';
import { fillTemplate, itemUrl, matchTemplate, TargetIndex, targetIn } from '../../src/core/addressing.js';
import type { ResourceConfig } from '../../src/core/types.js';
import { auditShapes, bad } from './helpers.js';

const r = (path: string, item?: string): ResourceConfig =>
  ({ name: 'widgets', path, item, idField: 'id' }) as ResourceConfig;

describe('item templates', () => {
  it('fill {id} as one path segment or as a query value, and keep a trailing slash', () => {
    expect(itemUrl(r('/widgets'), 'a b/ä')).toBe('/widgets/a%20b%2F%C3%A4');
    expect(itemUrl(r('/widgets/'), '7')).toBe('/widgets/7');
    expect(itemUrl(r('/widgets/', '/widgets/{id}/'), '7')).toBe('/widgets/7/');
    expect(itemUrl(r('/widgets', '/widgets?id=eq.{id}'), 'a&b=c')).toBe('/widgets?id=eq.a%26b%3Dc');
  });

  it('never make a URL with the id missing, empty or a dot segment', () => {
    expect(itemUrl(r('/widgets', '/widgets?id=eq.{id}'), '')).toBeUndefined();
    expect(itemUrl(r('/widgets'), '..')).toBeUndefined();
    expect(fillTemplate('/c/{customerId}/o/{id}', { customerId: '5' })).toBe('/c/5/o/{id}');
  });

  it('read ids back from URLs of the template, told from the collection', () => {
    const filter = r('/widgets', '/widgets?id=eq.{id}');
    expect(targetIn([filter], '/v1', 'http://h/v1/widgets?id=eq.a%26b')).toEqual({ r: filter, id: 'a&b' });
    expect(targetIn([filter], '/v1', 'http://h/v1/widgets?limit=5')).toEqual({ r: filter });
    const slash = r('/widgets/', '/widgets/{id}/');
    expect(targetIn([slash], '', 'http://h/widgets/a%20b/')).toEqual({ r: slash, id: 'a b' });
    expect(targetIn([slash], '', 'http://h/widgets/')).toEqual({ r: slash });
    expect(matchTemplate('/c/{customerId}/o/{id}', '/c/5/o/9', new URLSearchParams())).toEqual({
      customerId: '5',
      id: '9',
    });
  });
});

describe('the index of resources by URL (every exchange is looked up in it)', () => {
  const named = (name: string, path: string, item?: string): ResourceConfig =>
    ({ name, path, item, idField: 'id' }) as ResourceConfig;
  const many = Array.from({ length: 500 }, (_, i) => named(`things${i}`, `/things${i}`));
  const a = named('a', '/a');
  const ab = named('ab', '/a/b');
  const nestedOrders = named('orders', '/c/{customerId}/o');
  const bound = named('parts', '/w/7/parts', '/w/7/parts/{id}/');
  const filter = named('f', '/f', '/f?id=eq.{id}');
  const dashed = named('dashed', '/d', '/d/item-{id}');
  const anywhere = named('tenant', '/{tenant}/x');
  const resources = [...many, a, ab, nestedOrders, bound, filter, dashed, anywhere];
  const index = new TargetIndex(resources, '/v1');
  const at = (path: string): string | undefined => {
    const t = index.find(`http://h/v1${path}`);
    return t && `${t.r.name}${t.id === undefined ? '' : ` ${t.id}`}`;
  };

  it('finds a collection or an item among hundreds of resources, as a scan in order would', () => {
    expect(at('/things321')).toBe('things321');
    expect(at('/things321/')).toBe('things321');
    expect(at('/things321/a%20b')).toBe('things321 a b');
    expect(at('/things321/7/extra')).toBeUndefined();
    expect(at('/a/b')).toBe('ab'); // a collection path wins over an item of a shorter one
    expect(at('/a/c')).toBe('a c');
    expect(at('/c/5/o')).toBe('orders');
    expect(at('/c/5/o/9')).toBe('orders 9');
    expect(at('/w/7/parts/3/')).toBe('parts 3');
    expect(at('/w/8/parts/3')).toBeUndefined();
    expect(at('/f?id=eq.4')).toBe('f 4');
    expect(at('/f?limit=2')).toBe('f');
    expect(at('/d/item-5')).toBe('dashed 5');
    expect(at('/acme/x')).toBe('tenant');
    expect(at('/things321/%E0%A4%A')).toBeUndefined(); // an id that does not decode names nothing
    expect(index.find('http://h/other/things1')).toBeUndefined();
    for (const path of [
      '/things0',
      '/things499/3',
      '/a/b/4',
      '/c/5/o/9',
      '/f?id=eq.4',
      '/acme/x',
      '/nothing/1',
    ]) {
      expect(index.find(`http://h/v1${path}`)).toEqual(targetIn(resources, '/v1', `http://h/v1${path}`));
    }
  });
});

describe('full audits of correct APIs of each addressing shape', () => {
  it.each([
    ['ids that need percent-encoding', { textIds: true }],
    ['trailing slashes (301 without)', { addressing: 'slash' as const }],
    ['trailing slashes with text ids', { addressing: 'slash' as const, textIds: true }],
  ])('%s: zero failures, pre-existing records byte-identical, nothing left behind', async (_, options) => {
    const { result, before, after } = await auditShapes(options);
    expect(bad(result)).toEqual([]);
    expect(result.summary.passed).toBeGreaterThan(20);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(result.cleanup.created).toBeGreaterThan(0);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('a query filter (/widgets?id=eq.{id}, items as one-element arrays): only RES-ITEM, the shape itself', async () => {
    const { result, before, after } = await auditShapes({ addressing: 'filter' });
    expect(bad(result)).toEqual([
      expect.stringMatching(
        /^item-url-names-one widgets: items of widgets are addressed by a query filter \(\/widgets\?id=eq\.\{id\}\)/,
      ),
    ]);
    const failed = result.results.find((x) => x.checkId === 'item-url-names-one');
    expect(failed?.evidence[0].request.url).toMatch(/\/v1\/widgets\?id=eq\.\d+$/);
    expect(result.summary.passed).toBeGreaterThan(20);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});

describe('broken APIs of each shape fail only the rule they break', () => {
  it('a filter-addressed API that ignores deletes fails MTH-DELETE, and reports what it could not delete', async () => {
    const { result } = await auditShapes({ addressing: 'filter', breaks: { ignoreDelete: true } });
    expect(bad(result).filter((b) => !b.startsWith('item-url-names-one'))).toEqual([
      expect.stringMatching(
        /^delete-removes widgets: .*the item is still readable: GET \/v1\/widgets\?id=eq\.\d+ answered 200, expected 404, or 200 with an empty list \[\] \(the item is addressed by a query filter, so no match reads as no item\);/,
      ),
    ]);
    const evidence = result.results.find((x) => x.checkId === 'delete-removes')?.evidence ?? [];
    expect(evidence.some((e) => /curl .*\/v1\/widgets\?id=eq\.\d+/.test(e.curl))).toBe(true);
    expect(result.cleanup.leftovers.length).toBeGreaterThan(0);
    expect(result.cleanup.leftovers.every((l) => /\/v1\/widgets\?id=eq\.\d+$/.test(l.url))).toBe(true);
  });

  it('trailing slashes with a soft delete fail MTH-DELETE and nothing else', async () => {
    const { result } = await auditShapes({ addressing: 'slash', breaks: { softDelete: true } });
    expect(bad(result)).toEqual([
      expect.stringMatching(/^delete-removes widgets: .*GET \/v1\/widgets\/\d+\/ answered 200, expected 404/),
    ]);
    expect(result.cleanup.leftovers.every((l) => /\/v1\/widgets\/\d+\/$/.test(l.url))).toBe(true);
  });

  it('a filter answering [] for an unknown id fails ERR-NOT-FOUND and nothing else: [] is no item', async () => {
    const { result, before, after } = await auditShapes({
      addressing: 'filter',
      breaks: { emptyArrayForUnknown: true },
    });
    expect(bad(result).filter((b) => !b.startsWith('item-url-names-one'))).toEqual([
      expect.stringMatching(
        /^not-found-404 widgets: .*GET \/v1\/widgets\?id=eq\.\d+ answered 200 with the body \[\] for an id that was never issued, expected 404 \(the item URL is a query filter, which answers an empty list when nothing matches; the conventions ask for 404 for a resource that does not exist\)/,
      ),
    ]);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});
