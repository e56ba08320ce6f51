// Nested resources (issue 10, item 7): a parent of the audit's own, the child under it, child deleted before parent.
import { describe, expect, it } from '@jest/globals';
import { shapesResources } from '../../src/testing/shapes-config.js';
import { auditShapes, bad, statuses } from './helpers.js';

describe('nested resources', () => {
  it.each([
    ['/customers/{customerId}/orders/{id}', { nested: true }],
    [
      '/customers/{customerId}/orders/{id}/ (trailing slashes)',
      { nested: true, addressing: 'slash' as const },
    ],
  ])(
    '%s: the full audit passes, deletes child then parent (a customer with orders answers 409) and leaves the records as they were',
    async (_, options) => {
      const { result, before, after } = await auditShapes(options);
      expect(bad(result)).toEqual([]);
      expect(statuses(result, 'delete-removes')).toEqual([
        'passed customers',
        'passed orders',
        'passed widgets',
      ]);
      expect(result.cleanup.leftovers).toEqual([]);
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
      // The orders were audited under a customer the audit created, never under the pre-existing one.
      const orders = result.results.find(
        (r) => r.checkId === 'create-answers-201' && r.resource === 'orders',
      );
      expect(orders?.status).toBe('passed');
    },
  );

  it('under --read-only, reads run under the parentId given, and nothing is created', async () => {
    const resources = shapesResources({ nested: true }).replace(
      '    parent: customers',
      "    parent: customers\n    parentId: '3'",
    );
    const { result, before, after } = await auditShapes(
      { nested: true },
      { resources, run: { readOnly: true } },
    );
    expect(bad(result)).toEqual([]);
    expect(statuses(result, 'read-collection-and-item')).toEqual([
      'passed customers',
      'passed orders',
      'passed widgets',
    ]);
    expect(result.cleanup.created).toBe(0);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('under --read-only without parentId, the nested resource is skipped saying why', async () => {
    const { result } = await auditShapes({ nested: true }, { run: { readOnly: true } });
    const orders = result.results.filter((r) => r.resource === 'orders');
    expect(orders.length).toBeGreaterThan(5);
    expect(orders.filter((r) => r.status !== 'skipped')).toEqual([]);
    expect(orders.some((r) => /no parentId names an existing customers item/.test(r.message ?? ''))).toBe(
      true,
    );
  });

  it('when no parent of its own can be created, nothing runs under the parent (parentId is for read-only runs only)', async () => {
    const resources = shapesResources({ nested: true })
      .replace('    sample: { name: Grace }\n', '    operations: [list, read, replace, update, delete]\n')
      .replace('    parent: customers', "    parent: customers\n    parentId: '3'");
    const { result, before, after } = await auditShapes({ nested: true }, { resources });
    const orders = result.results.filter((r) => r.resource === 'orders');
    expect(orders.filter((r) => r.status !== 'skipped')).toEqual([]);
    expect(orders[0].message).toMatch(
      /only under a customers item of its own, and customers does not declare create/,
    );
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});
