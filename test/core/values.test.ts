// The one comparison of a value sent with the value read back: same meaning passes, anything looser fails.
import { describe, expect, it } from '@jest/globals';
import { describeDifferences, notBefore, sameValue, valueDifferences } from '../../src/core/values.js';
import { compareWritten } from '../../src/core/written.js';

/** Pairs of scalars that mean the same: each is judged both ways round. */
const SAME: Array<[unknown, unknown, string]> = [
  [3, '3', 'an integer and its digits'],
  [3, '3.00', 'a decimal string with two decimals'],
  [3, '3.0e0', 'exponent notation'],
  [3, 3, 'the same number'],
  [3.5, '3.50', 'a fraction with a trailing zero'],
  [0.1, '0.10', 'a fraction a double cannot hold exactly'],
  [-2.25, '-2.250', 'a negative number'],
  [0, '0.00', 'zero'],
  [0, '-0', 'negative zero'],
  [1200, '1.2e3', 'exponent notation of a larger number'],
  ['3.00', '3.00', 'the same decimal string'],
  ['2024-03-01T09:00:00Z', '2024-03-01T09:00:00+00:00', 'Z and +00:00'],
  ['2024-03-01T09:00:00Z', '2024-03-01T09:00:00.000Z', 'with and without fractional seconds'],
  ['2024-03-01T09:00:00.5Z', '2024-03-01T09:00:00.500000+00:00', 'fractions with trailing zeros'],
  ['2024-03-01T09:00:00Z', '2024-03-01T11:00:00+02:00', 'another offset, the same instant'],
  ['2024-03-01T09:00:00Z', '2024-03-01T04:30:00-04:30', 'a negative offset with minutes'],
  ['2024-03-01T00:30:00+01:00', '2024-02-29T23:30:00Z', 'an offset across a leap day'],
  ['2024-03-01T09:00:00Z', '2024-03-01t09:00:00z', 'lower-case t and z'],
  ['2024-03-01T09:00:00Z', '2024-03-01 09:00:00+00:00', 'a space for the T (RFC 3339 §5.6)'],
  ['2024-03-01T09:00:00Z', '2024-03-01T09:00:00-00:00', '-00:00 (offset unknown, the instant is UTC)'],
  ['2024-03-01', '2024-03-01T00:00:00Z', 'a date and midnight UTC of that day'],
  ['2024-03-01', '2024-03-01T00:00:00.000+00:00', 'a date and midnight UTC with milliseconds'],
  ['2024-03-01', '2024-03-01T02:00:00+02:00', 'a date and midnight UTC spelled at +02:00'],
  ['bolt', 'bolt', 'the same string'],
  [true, true, 'the same boolean'],
  [null, null, 'null'],
];

/** Pairs that differ: each is judged both ways round, and a failure shows both values. */
const DIFFERENT: Array<[unknown, unknown, string]> = [
  ['bolt', 'Bolt', 'another case'],
  ['bolt', 'bolt ', 'a trailing space'],
  [3, 3.5, 'another number'],
  [3, '3.5', 'a decimal string of another number'],
  [3.456, '3.46', 'a rounded decimal string'],
  [3.456, 3.46, 'a rounded number'],
  [true, 'true', 'a boolean and its word'],
  [false, 0, 'false and zero'],
  [1, true, 'one and true'],
  [null, 'null', 'null and its word'],
  [null, 0, 'null and zero'],
  [3, '03', 'a number and digits with a leading zero (not a JSON number)'],
  [3, ' 3', 'a number and digits with a space'],
  [3, '+3', 'a number and digits with a plus sign'],
  [3, '3 EUR', 'a number and an amount with a currency'],
  [0, '', 'zero and the empty string'],
  ['1.0', '1', 'two decimal strings: strings are compared as text'],
  ['07501', '7501', 'a zip code and its number as text'],
  ['2024-03-01T09:00:00Z', '2024-03-01T09:00:01Z', 'another second'],
  ['2024-03-01T09:00:00Z', '2024-03-01T09:00:00+01:00', 'the same wall time at another offset'],
  ['2024-03-01T09:00:00.123456Z', '2024-03-01T09:00:00.123Z', 'microseconds cut to milliseconds'],
  ['2024-03-01', '2024-03-01T00:00:00+01:00', 'a date and midnight at +01:00 (not UTC)'],
  ['2024-03-01', '2024-03-02', 'another day'],
  ['2024-03-01T10:00:00Z', '2024-03-01', 'a date-time and its day'],
  ['2024-02-30', '2024-03-01T00:00:00Z', 'an impossible date'],
  ['2024-03-01T25:00:00Z', '2024-03-02T01:00:00Z', 'an impossible hour'],
  ['2024-03-01T09:00:00', '2024-03-01T09:00:00Z', 'a date-time without an offset (not RFC 3339)'],
  [1709283600, '2024-03-01T09:00:00Z', 'seconds since 1970 and a date-time'],
];

describe('sameValue: scalars of the same meaning', () => {
  for (const [a, b, why] of SAME) {
    it(`${JSON.stringify(a)} and ${JSON.stringify(b)}: ${why}`, () => {
      expect(sameValue(a, b)).toBe(true);
      expect(sameValue(b, a)).toBe(true);
    });
  }
});

describe('sameValue: scalars that differ', () => {
  for (const [a, b, why] of DIFFERENT) {
    it(`${JSON.stringify(a)} and ${JSON.stringify(b)}: ${why}`, () => {
      expect(sameValue(a, b)).toBe(false);
      expect(sameValue(b, a)).toBe(false);
      // The message shows both values, JSON-quoted, side by side.
      expect(describeDifferences(valueDifferences({ v: a }, { v: b }))).toMatch(
        `v: sent ${JSON.stringify(a)}, read ${JSON.stringify(b)}`,
      );
    });
  }
});

describe('notBefore: a later (or the same) instant, in any RFC 3339 spelling', () => {
  it.each([
    ['2026-11-29T02:00:00Z', '2026-11-29T02:00:01Z', true],
    ['2026-11-29T02:00:00.5Z', '2026-11-29T02:00:00.49Z', false],
    ['2026-11-29T02:00:00.49Z', '2026-11-29T02:00:00.5Z', true],
    ['2026-11-29T02:00:00Z', '2026-11-29T03:00:00+01:00', true],
    ['2026-11-29T02:00:01Z', '2026-11-29T02:00:00Z', false],
    ['2026-11-29', '2026-11-29T00:00:00Z', true],
    ['1', '2', false],
  ])('%s then %s: %s', (earlier, later, expected) => {
    expect(notBefore(earlier, later)).toBe(expected);
  });
});

describe('objects and arrays', () => {
  it('a relation sent as an id is shown by the record it names, read back expanded', () => {
    // Strapi with ?populate=widget: the documentId sent, the widget read.
    const read = { id: 58, quantity: 2, widget: { id: 1, documentId: 'ki3q', name: 'bolt' } };
    expect(sameValue({ quantity: 2, widget: 'ki3q' }, read)).toBe(true);
    expect(sameValue({ widget: 1 }, read)).toBe(true);
    expect(sameValue({ widget: 2 }, read)).toBe(false);
    expect(sameValue({ widget: 7 }, { widget: { data: { id: '7', attributes: {} } } })).toBe(true);
    // Only the members that name a record: a name is no reference.
    expect(sameValue({ widget: 'bolt' }, read)).toBe(false);
    expect(
      compareWritten([{ data: { quantity: 2, widget: 'ki3q' } }], { data: read }, 'id').contradictions,
    ).toEqual([]);
    expect(compareWritten([{ widget: 'zz9' }], read, 'id').contradictions).toHaveLength(1);
  });

  it('compares nested objects and arrays member by member, with the same rule', () => {
    const sent = { price: 3, build: { number: 412, at: '2024-03-01T09:00:00Z' }, lines: [1.5, 'a'] };
    const read = {
      id: 7,
      price: '3.00',
      build: { number: '412.00', at: '2024-03-01T10:00:00+01:00', commit: 'a1b2c3d' },
      lines: ['1.50', 'a'],
    };
    expect(sameValue(sent, read)).toBe(true);
  });

  it('accepts members the read adds, at every depth', () => {
    expect(sameValue({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(sameValue([{ b: 1 }], [{ b: '1', id: 'x' }])).toBe(true);
  });

  it('names each changed member with its path', () => {
    const differences = valueDifferences(
      { price: 3, build: { number: 412 }, lines: ['a', 'b'], 'unit price': 2 },
      { price: '3.50', build: { number: 413 }, lines: ['a', 'c'], 'unit price': 2 },
    );
    expect(describeDifferences(differences)).toBe(
      'price: sent 3, read "3.50"; build.number: sent 412, read 413; lines[1]: sent "b", read "c"',
    );
  });

  it('says a member is gone, never undefined', () => {
    const differences = valueDifferences(
      { name: 'bolt', tags: ['metal'], box: { size: 2 } },
      { name: 'bolt', box: {} },
    );
    const text = describeDifferences(differences);
    expect(text).toBe('tags: sent ["metal"], gone; box.size: sent 2, gone');
    expect(text).not.toMatch(/undefined/);
    expect(sameValue({ price: 3 }, { price: undefined })).toBe(false);
  });

  it('lets a member sent as null be absent from the read, but not hold another value', () => {
    expect(sameValue({ note: null }, {})).toBe(true);
    expect(sameValue({ note: null }, { note: null })).toBe(true);
    expect(sameValue({ note: null }, { note: '' })).toBe(false);
  });

  it('shows a list of another length whole', () => {
    expect(describeDifferences(valueDifferences({ tags: ['a', 'b'] }, { tags: ['a'] }))).toBe(
      'tags: sent ["a","b"], read ["a"]',
    );
    expect(sameValue({ tags: ['a', 'b'] }, { tags: ['b', 'a'] })).toBe(false);
  });

  it('compares a body that is not an object as a whole', () => {
    expect(describeDifferences(valueDifferences([1], { a: 1 }))).toBe('the body: sent [1], read {"a":1}');
    expect(describeDifferences(valueDifferences({ a: 1 }, 'text'))).toBe(
      'the body: sent {"a":1}, read "text"',
    );
  });

  it('puts a prefix before every path (a payload compared inside its envelope)', () => {
    expect(valueDifferences({ a: 1 }, { a: 2 }, 'data').map((d) => d.path)).toEqual(['data.a']);
  });

  it('says how many more differences there are beyond the ones shown', () => {
    const sent = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, i]));
    expect(describeDifferences(valueDifferences(sent, {}))).toMatch(/f4: sent 4, gone; and 3 more$/);
  });
});

describe('what happened to a value that is close', () => {
  const note = (sent: unknown, read: unknown): string =>
    describeDifferences(valueDifferences({ v: sent }, { v: read }));

  it('says a number was rounded, to how many decimals', () => {
    expect(note(3.456, '3.46')).toBe('v: sent 3.456, read "3.46" (rounded to 2 decimals)');
    expect(note(3.456, 3.46)).toBe('v: sent 3.456, read 3.46 (rounded to 2 decimals)');
    expect(note('3.456', 3.5)).toBe('v: sent "3.456", read 3.5 (rounded to 1 decimal)');
    expect(note(2.5, '3')).toBe('v: sent 2.5, read "3" (rounded to a whole number)');
    // 12.345 is 12.3449999... as a double: a half-cent rounding either way is still rounding.
    expect(note(12.345, '12.34')).toBe('v: sent 12.345, read "12.34" (rounded to 2 decimals)');
    expect(note(12.345, '12.35')).toBe('v: sent 12.345, read "12.35" (rounded to 2 decimals)');
  });

  it('says a number was cut when it was truncated', () => {
    expect(note(3.459, '3.45')).toBe('v: sent 3.459, read "3.45" (cut to 2 decimals)');
  });

  it('says nothing more of a plainly different number', () => {
    expect(note(3, '3.50')).toBe('v: sent 3, read "3.50"');
    expect(note(3.456, '3.50')).toBe('v: sent 3.456, read "3.50"');
    expect(note(3.4, '3.456')).toBe('v: sent 3.4, read "3.456"');
  });

  it('says a date-time lost precision or its time of day', () => {
    expect(note('2024-03-01T09:00:00.123789Z', '2024-03-01T09:00:00.123Z')).toMatch(
      /\(cut to milliseconds\)$/,
    );
    // Rounding and cutting give the same here: it is called rounding.
    expect(note('2024-03-01T09:00:00.123456Z', '2024-03-01T09:00:00.123Z')).toMatch(
      /\(rounded to milliseconds\)$/,
    );
    expect(note('2024-03-01T09:00:00.9999Z', '2024-03-01T09:00:01.000+00:00')).toMatch(
      /\(rounded to milliseconds\)$/,
    );
    expect(note('2024-03-01T09:00:00.4Z', '2024-03-01T10:00:00+01:00')).toMatch(
      /\(rounded to whole seconds\)$/,
    );
    expect(note('2024-03-01T10:00:00Z', '2024-03-01')).toMatch(
      /\(read back as a date, without the time of day\)$/,
    );
    expect(note('2024-03-01T09:00:00Z', '2024-03-01T09:00:01Z')).toBe(
      'v: sent "2024-03-01T09:00:00Z", read "2024-03-01T09:00:01Z"',
    );
  });
});
