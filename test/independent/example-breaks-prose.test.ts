// Messages read as prose: a full audit of each broken example API says what it found without undefined, NaN or [object Object].
import { describe, expect, it } from '@jest/globals';
import { BREAK_NAMES } from '../../src/example-api/index.js';
import { diffPaths } from '../../src/core/shapes.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { catalogue } from '../../suites/index.js';
import { unreadableMessages } from './helpers.js';

describe('messages of a full audit of each broken example API', () => {
  // The alternative API's broken variants assert the same in broken-cases.ts.
  it.each(BREAK_NAMES)('%s: every message and problem reads as prose', async (name) => {
    const { result } = await auditFixture(catalogue, {
      api: { breaks: { [name]: true } },
      // The retry check waits out the limit (about a second) and is not about messages of breaks.
      run: { skip: ['rate-limit-retry'] },
    });
    expect(result.results.some((r) => r.status === 'failed')).toBe(true);
    expect(unreadableMessages(result)).toEqual([]);
  });
});

describe('differences between two bodies', () => {
  it('say "gone" and "absent" in words, never "undefined"', () => {
    expect(diffPaths({ name: 'bolt', price: 3 }, { price: 3 })).toEqual(['/name: "bolt", then gone']);
    expect(diffPaths({ price: 3 }, { price: 3, views: 1 })).toEqual(['/views: absent, then 1']);
    expect(diffPaths({ a: { b: 1 } }, { a: { b: 2 } })).toEqual(['/a/b: 1 → 2']);
    expect(diffPaths(undefined, { id: 1 })).toEqual(['/: nothing → {"id":1}']);
  });

  it('finds every leak in a message, and lets JSON null through', () => {
    const run = (message: string) =>
      unreadableMessages({
        results: [
          {
            checkId: 'c',
            rules: ['R'],
            suite: 's',
            title: 't',
            status: 'failed',
            severity: 'error',
            message,
            evidence: [],
            durationMs: 0,
          },
        ],
      } as never);
    expect(run('/views: undefined → 1')).toHaveLength(1);
    expect(run('price NaN')).toHaveLength(1);
    expect(run('got [object Object]')).toHaveLength(1);
    expect(run('the id is null')).toHaveLength(1);
    expect(run('PATCH answered 200 to JSON null; {"a": null} and [null, 1]')).toEqual([]);
  });
});
