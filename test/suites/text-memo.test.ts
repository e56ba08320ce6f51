// DOC-SCHEMA's memo of verdicts: a run-wide budget of characters, least recently used forgotten first.
import { describe, it, expect } from '@jest/globals';
import { TextMemo } from '../../suites/support/text-memo.js';

describe('TextMemo', () => {
  it('keeps keys within its budget of characters, forgetting the least recently used first', () => {
    const memo = new TextMemo<number>(30, 0);
    memo.set('a'.repeat(10), 1);
    memo.set('b'.repeat(10), 2);
    memo.set('c'.repeat(10), 3);
    expect(memo.get('a'.repeat(10))).toBe(1); // now the most recently used
    memo.set('d'.repeat(10), 4);
    expect(memo.get('b'.repeat(10))).toBeUndefined();
    expect([memo.get('a'.repeat(10)), memo.get('c'.repeat(10)), memo.get('d'.repeat(10))]).toEqual([1, 3, 4]);
    expect(memo.size).toBe(3);
  });

  it('counts each entry with its overhead, and keeps no key larger than the budget', () => {
    const memo = new TextMemo<string>(100, 40);
    memo.set('x', 'one');
    memo.set('y', 'two');
    memo.set('z', 'three'); // 3 × 41 > 100: x goes
    expect(memo.size).toBe(2);
    expect(memo.get('x')).toBeUndefined();
    memo.set('w'.repeat(61), 'huge');
    expect(memo.get('w'.repeat(61))).toBeUndefined();
    expect(memo.size).toBe(2);
  });

  it('replaces the value of a key set again without counting it twice', () => {
    const memo = new TextMemo<number>(20, 0);
    for (let i = 0; i < 100; i++) memo.set('k'.repeat(10), i);
    memo.set('j'.repeat(10), -1);
    expect([memo.get('k'.repeat(10)), memo.get('j'.repeat(10))]).toEqual([99, -1]);
  });
});
