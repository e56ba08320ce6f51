// The cleanup ledger: the newest item still to delete per resource, and nothing kept of deleted items but their path.
import { describe, expect, it } from '@jest/globals';
import { Ledger } from '../../src/engine/ledger.js';

describe('Ledger', () => {
  it('gives the newest item of a resource not deleted yet, as the pending list does', () => {
    const ledger = new Ledger();
    ledger.add('widgets', '/widgets/1', { name: 'a' });
    ledger.add('orders', '/orders/1', { total: 1 });
    ledger.add('widgets', '/widgets/2', { name: 'b' });
    expect(ledger.newestPending('widgets')?.path).toBe('/widgets/2');
    ledger.markDeleted('/widgets/2');
    expect(ledger.newestPending('widgets')?.path).toBe('/widgets/1');
    expect(ledger.pending().find((e) => e.resource === 'widgets')?.path).toBe('/widgets/1');
    ledger.markDeleted('/widgets/1');
    expect(ledger.newestPending('widgets')).toBeUndefined();
    expect(ledger.newestPending('things')).toBeUndefined();
  });

  it('keeps no written bodies of a deleted item, and starts afresh when its path is created again', () => {
    const ledger = new Ledger();
    ledger.add('widgets', '/widgets/1', { name: 'a' });
    ledger.noteWrite('/widgets/1', { name: 'b' });
    expect(ledger.get('/widgets/1')?.written).toEqual([{ name: 'a' }, { name: 'b' }]);
    ledger.markDeleted('/widgets/1');
    expect(ledger.get('/widgets/1')).toEqual({
      resource: 'widgets',
      path: '/widgets/1',
      deleted: true,
      written: [],
    });
    ledger.noteWrite('/widgets/1', { name: 'c' });
    expect(ledger.get('/widgets/1')?.written).toEqual([]);
    ledger.add('widgets', '/widgets/1', { name: 'd' });
    expect(ledger.get('/widgets/1')).toEqual({
      resource: 'widgets',
      path: '/widgets/1',
      deleted: false,
      written: [{ name: 'd' }],
    });
    expect(ledger.all().map((e) => e.path)).toEqual(['/widgets/1']);
  });
});
