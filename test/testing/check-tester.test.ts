// The CheckTester is as strict as ESLint's RuleTester: exact failures by message id, malformed or duplicate cases refused.
import { describe, expect, it } from '@jest/globals';
import { CheckTester } from '../../src/testing/check-tester.js';
import { failureMismatch, refuseBadCases, type ActualFailure } from '../../src/testing/expected-failures.js';
import notFound404 from '../../suites/errors/not-found-404.js';

const tester = new CheckTester();
const broken = { api: { breaks: { notFound200: true } } };

describe('CheckTester refuses malformed cases before running any', () => {
  const refusal = (cases: Parameters<typeof refuseBadCases>[1]): string => {
    try {
      refuseBadCases(notFound404, cases);
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  it('CheckTester.run throws before defining a test', () => {
    expect(() => tester.run(notFound404, { valid: [], invalid: [{ name: 'broken', ...broken }] })).toThrow(
      /an invalid case must state its failures/,
    );
  });

  it('an invalid case that states no failures', () => {
    expect(refusal({ valid: [], invalid: [{ name: 'broken', ...broken }] })).toBe(
      'CheckTester(not-found-404): case "broken": an invalid case must state its failures (a count or message ids)',
    );
  });

  it('an invalid case that expects no failure at all', () => {
    expect(refusal({ valid: [], invalid: [{ name: 'broken', ...broken, failures: 0 }] })).toMatch(
      /expects at least one failure/,
    );
    expect(refusal({ valid: [], invalid: [{ name: 'broken', ...broken, failures: [] }] })).toMatch(
      /expects at least one failure/,
    );
  });

  it('a message id the check does not declare, naming the ones it does', () => {
    const failures = [{ messageId: 'unknownIdNot404' }, { messageId: 'answered200' }];
    expect(refusal({ valid: [], invalid: [{ name: 'broken', ...broken, failures }] })).toBe(
      'CheckTester(not-found-404): case "broken": messageId "answered200" is not one of the check\'s messages (unknownIdNot404, unknownCollectionNot404)',
    );
  });

  it('failures stated on a valid case', () => {
    expect(refusal({ valid: [{ name: 'fine', failures: 1 }], invalid: [] })).toMatch(
      /a valid case expects no failures/,
    );
  });

  it('two cases with one name, even of different kinds', () => {
    expect(
      refusal({ valid: [{ name: 'twice' }], invalid: [{ name: 'twice', ...broken, failures: 4 }] }),
    ).toBe('CheckTester(not-found-404): case "twice": duplicate case name');
  });

  it('two cases with the same fixture (functions compared by reference), but not different ones', () => {
    const middleware = (): boolean => false;
    expect(
      refusal({
        valid: [
          { name: 'a', api: { middleware } },
          { name: 'b', api: { middleware } },
        ],
        invalid: [],
      }),
    ).toBe('CheckTester(not-found-404): case "b": duplicate case: the same fixture as "a"');
    expect(
      refusal({
        valid: [],
        invalid: [
          { name: 'a', ...broken, failures: 1 },
          { name: 'b', api: { breaks: { notFound200: true } }, failures: 2 },
        ],
      }),
    ).toMatch(/duplicate case: the same fixture as "a"/);
    // The same data judged on another resource, or another function, is another case.
    expect(
      refusal({
        valid: [
          { name: 'a', api: { middleware } },
          { name: 'b', api: { middleware: (): boolean => false } },
          { name: 'c', api: { middleware }, resource: 'orders' },
        ],
        invalid: [],
      }),
    ).toBe('accepted');
  });
});

describe('failures are compared exactly, like RuleTester errors', () => {
  const actual: ActualFailure[] = [
    { resource: 'widgets', messageId: 'unknownIdNot404', message: 'GET /widgets/9 answered 200' },
    { resource: 'widgets', messageId: 'unknownIdNot404', message: 'PUT /widgets/9 answered 200' },
    { resource: 'orders', messageId: 'unknownCollectionNot404', message: 'GET /nothing answered 200' },
  ];

  it('the same ids, in any order, match', () => {
    const expected = [
      { messageId: 'unknownCollectionNot404' },
      { messageId: 'unknownIdNot404' },
      { messageId: 'unknownIdNot404', resource: 'widgets', message: /^PUT / },
    ];
    expect(failureMismatch(expected, actual)).toBeUndefined();
    expect(failureMismatch(3, actual)).toBeUndefined();
  });

  it('one failure fewer or more than reported does not match, and says what was reported', () => {
    expect(
      failureMismatch([{ messageId: 'unknownIdNot404' }, { messageId: 'unknownCollectionNot404' }], actual),
    ).toBe(
      'expected 2 failures: *: unknownCollectionNot404; *: unknownIdNot404; got 3: orders: unknownCollectionNot404 (GET /nothing answered 200); widgets: unknownIdNot404 (GET /widgets/9 answered 200); widgets: unknownIdNot404 (PUT /widgets/9 answered 200)',
    );
    expect(failureMismatch(2, actual)).toMatch(/^expected 2 failures, got 3: /);
    expect(failureMismatch(4, actual)).toMatch(/^expected 4 failures, got 3: /);
  });

  it('another id, another resource or another wording does not match', () => {
    const ids = (over: object) => [
      { messageId: 'unknownIdNot404' },
      { messageId: 'unknownIdNot404' },
      { messageId: 'unknownCollectionNot404', ...over },
    ];
    expect(failureMismatch(ids({ messageId: 'unknownIdNot404' }), actual)).toMatch(
      /\(not found: \*: unknownIdNot404\)/,
    );
    expect(failureMismatch(ids({ resource: 'widgets' }), actual)).toMatch(
      /\(not found: widgets: unknownCollectionNot404\)/,
    );
    expect(failureMismatch(ids({ message: 'PUT' }), actual)).toMatch(
      /not found: \*: unknownCollectionNot404/,
    );
  });

  it('a problem without an id (past the cap) matches no stated id', () => {
    const dropped = [
      ...actual,
      { resource: 'widgets', messageId: undefined, message: '(dropped past the cap)' },
    ];
    expect(failureMismatch(4, dropped)).toBeUndefined();
    expect(
      failureMismatch(
        [...Array(3)].map(() => ({ messageId: 'unknownIdNot404' })),
        dropped,
      ),
    ).toBeDefined();
  });
});
