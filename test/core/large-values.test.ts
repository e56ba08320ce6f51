// JSON values of hundreds of thousands of entries (a large collection, a hostile envelope) never travel as the arguments of one call.
import { describe, expect, it } from '@jest/globals';
import type { Exchange } from '../../src/core/check.js';
import { nextPage } from '../../src/core/paging.js';
import { readNoise } from '../../src/core/state.js';

/** More entries than a call takes as arguments (about 120,000 on Node 20's default stack). */
const MANY = 200_000;

describe('values too large to spread into a call', () => {
  it('readNoise names a member changed in each of 200,000 list entries', () => {
    const first = { data: Array.from({ length: MANY }, (_, id) => ({ id, readAt: 1 })) };
    const again = { data: Array.from({ length: MANY }, (_, id) => ({ id, readAt: 2 })) };
    expect([...readNoise(first, again)]).toEqual(['readAt']);
  });

  it('nextPage finds the next link beside a paging envelope of 200,000 members', () => {
    const meta = Object.fromEntries(Array.from({ length: MANY }, (_, i) => [`m${i}`, i]));
    const x = {
      url: 'http://127.0.0.1:1/v1/widgets',
      headers: {},
      json: { data: [], meta: { ...meta, next: '/v1/widgets?page=2' } },
    } as unknown as Exchange;
    expect(nextPage(x)).toBe('http://127.0.0.1:1/v1/widgets?page=2');
  });
});
