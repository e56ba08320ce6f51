// The reproduction scripts' jq compares values as the audit does (src/core/values.ts, deepEqual): no verdict on a spelling.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sameValue } from '../../src/core/values.js';
import { CANON_DEF, SHOWS_DEF } from '../../src/engine/repro-shell.js';

const run = promisify(execFile);

async function jq(filter: string, args: string[]): Promise<string> {
  const { stdout } = await run('jq', ['-n', ...args, filter]);
  return stdout.trim();
}

/** Pairs of (sent, read) JSON texts, spelled as a service might: the audit's verdict decides. */
const PAIRS: Array<[string, string]> = [
  ['3', '"3"'],
  ['3', '"3.00"'],
  ['3', '"3.0e0"'],
  ['3', '3.0'],
  ['3', '3.5'],
  ['3.456', '"3.46"'],
  ['"1.0"', '"1"'],
  ['"3"', '3'],
  ['3', '"01"'],
  ['0', '"-0"'],
  ['true', '"true"'],
  ['1', 'true'],
  ['"bolt"', '"Bolt"'],
  ['null', 'null'],
  ['"x"', '3'],
  ['"2024-03-01T10:00:00Z"', '"2024-03-01T12:00:00+02:00"'],
  ['"2024-03-01T10:00:00Z"', '"2024-03-01t10:00:00.000z"'],
  ['"2024-03-01T10:00:00Z"', '"2024-03-01 10:00:00.5Z"'],
  ['"2024-03-01T10:00:00.5Z"', '"2024-03-01T10:00:00.500Z"'],
  ['"2024-03-01T10:00:00.123456Z"', '"2024-03-01T10:00:00.123Z"'],
  ['"2024-03-01T23:30:00-01:00"', '"2024-03-02T00:30:00Z"'],
  ['"2024-03-01"', '"2024-03-01T00:00:00Z"'],
  ['"2024-03-01T00:00:00+00:00"', '"2024-03-01"'],
  ['"2024-03-01"', '"2024-03-02"'],
  ['"2023-02-29"', '"2023-02-29T00:00:00Z"'],
  ['"2024-02-29"', '"2024-02-29T00:00:00Z"'],
  ['"2016-12-31T23:59:60Z"', '"2017-01-01T00:00:00Z"'],
  ['"2024-03-01T10:00:00Z"', '"2024-03-01T10:00:00"'],
  ['{"a":1,"b":null}', '{"a":"1","id":7}'],
  ['{"a":null}', '{"a":"x"}'],
  ['{"a":null}', '{"a":null}'],
  ['{"a":"x"}', '{}'],
  ['{"a":[1,2]}', '{"a":[1]}'],
  ['{"a":[1,2]}', '{"a":["1","2.0"]}'],
  ['{"a":{"b":2}}', '{"a":{"c":3,"b":2.0}}'],
  ['{"a":{"b":2}}', '{"a":[2]}'],
  ['[1]', '{"0":1}'],
  // A relation sent as an id, read back expanded (Strapi with populate), also in a data envelope.
  ['{"widget":"ki3q"}', '{"widget":{"id":1,"documentId":"ki3q","name":"bolt"}}'],
  ['{"widget":7}', '{"widget":{"id":"7","name":"bolt"}}'],
  ['{"widget":7}', '{"widget":{"data":{"id":7,"attributes":{}}}}'],
  ['{"widget":7}', '{"widget":{"id":8,"ref":7}}'],
  ['{"widget":7}', '{"widget":{"id":7,"data":{"id":9}}}'],
  ['{"widget":9}', '{"widget":{"id":7,"data":{"id":9}}}'],
  ['"bolt"', '{"name":"bolt"}'],
  ['true', '{"id":true}'],
];

describe('a script compares a value read back by meaning, as the audit does', () => {
  it.each(PAIRS)('sent %s, read %s', async (sent, read) => {
    const audit = sameValue(JSON.parse(sent), JSON.parse(read));
    const script = await jq(`${SHOWS_DEF} $r | shows($s)`, ['--argjson', 's', sent, '--argjson', 'r', read]);
    expect({ sent, read, script }).toEqual({ sent, read, script: String(audit) });
  });
});

describe('a script compares two reads as the audit does (members in any order, numbers by value)', () => {
  const cases: Array<[string, string, boolean, boolean]> = [
    ['{"a":1,"b":[1,2]}', '{"b":[1,2],"a":1.0}', false, true],
    ['{"a":1,"b":[1,2]}', '{"b":[2,1],"a":1}', false, false],
    ['{"a":"1"}', '{"a":1}', false, false],
    // A collection read: the audit sorts the items by id, in a bare array or an envelope.
    ['[{"id":1},{"id":2}]', '[{"id":2},{"id":1.0}]', true, true],
    ['{"data":[{"id":1},{"id":2}],"next":null}', '{"next":null,"data":[{"id":2},{"id":1}]}', true, true],
    ['{"data":[{"id":1},{"id":2}]}', '{"data":[{"id":1},{"id":3}]}', true, false],
    ['{"data":[{"id":1,"views":1}]}', '{"data":[{"id":1,"views":2}]}', true, false],
  ];
  it.each(cases)('%s then %s (a list: %s)', async (a, b, list, same) => {
    const filter = `${CANON_DEF} ($a | canon(${list})) == ($b | canon(${list}))`;
    expect(await jq(filter, ['--argjson', 'a', a, '--argjson', 'b', b])).toBe(String(same));
  });
});
