// Bounded JSON: the nesting limit is found without parsing, strings do not count, and the limit itself parses.
import { describe, expect, it } from '@jest/globals';
import { bodyValue, MAX_JSON_DEPTH, nestsDeeperThan, parseJson } from '../../src/http/json.js';
import { couldNotCompare } from '../../src/core/verdicts.js';
import type { Exchange } from '../../src/core/check.js';

const nested = (depth: number, open = '[', close = ']'): string => open.repeat(depth) + close.repeat(depth);

describe('nestsDeeperThan', () => {
  it(`parses ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(parseJson(nested(MAX_JSON_DEPTH)).ok).toBe(true);
  });

  it('counts objects and arrays alike', () => {
    const mixed = '{"a":['.repeat(300) + '1' + ']}'.repeat(300);
    expect(nestsDeeperThan(mixed)).toBe(true);
    expect(nestsDeeperThan(mixed, 600)).toBe(false);
    expect(JSON.parse(mixed)).toBeDefined();
  });

  it('brackets inside strings, escaped quotes included, do not count', () => {
    const text = JSON.stringify({ s: '['.repeat(5000), t: 'a \\" [[[[ " {{{{ \\\\', u: ['x"[[['] });
    expect(nestsDeeperThan(text)).toBe(false);
    expect(parseJson(text)).toMatchObject({ ok: true });
  });

  it('stops at the limit: a body of four million brackets is refused at once, never parsed', () => {
    const deep = nested(4 * 1024 * 1024);
    const parsed = parseJson(deep);
    expect(parsed).toEqual({
      ok: false,
      problem: `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep: not usable JSON (the audit parses no deeper)`,
    });
  });
});

describe('bodyValue', () => {
  it('a complete JSON body: value, no problem', () => {
    const v = bodyValue(Buffer.from('{"id": 1}  '), true);
    expect(v).toMatchObject({ isJson: true, json: { id: 1 }, text: '{"id": 1}  ', validUtf8: true });
    expect(v.problem).toBeUndefined();
  });

  it('says why a complete body is not usable JSON', () => {
    expect(bodyValue(Buffer.from('<html>'), true).problem).toBe('does not parse as JSON');
    expect(bodyValue(Buffer.from([0x7b, 0xff, 0x7d]), true).problem).toBe('is not valid UTF-8');
    expect(bodyValue(Buffer.from(nested(600)), true).problem).toMatch(/more than 512 levels deep/);
    expect(
      bodyValue(Buffer.from('{}'), true, 'is declared gzip-compressed but does not decode').problem,
    ).toBe('is declared gzip-compressed but does not decode');
  });

  it('a body cut short is not judged, an empty one has nothing to judge', () => {
    for (const v of [bodyValue(Buffer.from('{"id": 1, "na'), false), bodyValue(Buffer.from('  '), true)]) {
      expect(v.isJson).toBe(false);
      expect(v.problem).toBeUndefined();
    }
  });

  it('padding costs little: the cost counts the text and the content, not the spaces twice', () => {
    const padded = bodyValue(Buffer.from(`{"id":1}${' '.repeat(1_000_000)}`), true);
    expect(padded.cost).toBeLessThan(1_000_100);
    const dense = bodyValue(Buffer.from(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i))), true);
    expect(dense.cost).toBeGreaterThan(2 * dense.text.length - 10);
    // Each element takes a slot of 8 bytes once parsed, whatever its characters: counted.
    expect(dense.jsonCost).toBeGreaterThanOrEqual(dense.text.length + 8 * 100_000 - 8);
  });
});

describe('couldNotCompare', () => {
  const read = (fields: Partial<Exchange>): Exchange =>
    ({
      method: 'GET',
      url: 'http://127.0.0.1:1/v1/widgets/5',
      status: 200,
      headers: {},
      text: '{}',
      json: {},
      isJson: true,
      mediaType: 'application/json',
      truncated: false,
      durationMs: 1,
      ...fields,
    }) as Exchange;

  it('a complete read compares; one cut short, unanswered or unreadable does not, and says why', () => {
    expect(couldNotCompare(read({}), undefined)).toBeUndefined();
    expect(
      couldNotCompare(read({ status: 404, isJson: false, jsonProblem: 'does not parse as JSON' })),
    ).toBeUndefined();
    expect(
      couldNotCompare(
        read({}),
        read({
          truncated: true,
          error: { code: 'E_BODY_BUDGET', message: 'response body over 65536 bytes while …' },
        }),
      ),
    ).toBe('could not compare: GET /v1/widgets/5 was cut short (response body over 65536 bytes while …)');
    expect(
      couldNotCompare(
        read({
          status: undefined,
          error: { code: 'E_TIMEOUT', message: 'no complete response within 400 ms' },
        }),
      ),
    ).toBe(
      'could not compare: GET /v1/widgets/5 got no complete answer (no complete response within 400 ms)',
    );
    expect(
      couldNotCompare(
        read({ isJson: false, jsonProblem: 'nests arrays or objects more than 512 levels deep: …' }),
      ),
    ).toBe(
      'could not compare: the body of GET /v1/widgets/5 nests arrays or objects more than 512 levels deep: …',
    );
    expect(couldNotCompare(read({ isJson: false, undecoded: 'zstd' }))).toMatch(/Content-Encoding zstd/);
  });
});
