// A DOC-SCHEMA finding's script tests with jq the one violation ajv found: true on the body that broke it, false once fixed.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { compileItemSchema } from '../../src/config/item-schema.js';
import { schemaRepro, type SchemaSite } from '../../suites/support/schema-repro.js';

const run = promisify(execFile);

/** Whether a jq filter is true of a JSON text (jq -e: false, null and errors are not). */
async function holds(filter: string, json: unknown): Promise<boolean> {
  const child = run('jq', ['-e', filter]);
  child.child.stdin?.end(JSON.stringify(json));
  return child.then(
    () => true,
    () => false,
  );
}

/**
 * Many jq filters, each on its own JSON value, in one jq run (jq's start, about 20 ms, made ~220
 * runs cost 4 s): `test` gives jq -e's verdict (true when the last output is neither false nor
 * null; no output, or an error, is false), `show` what `jq -r` prints. `holds` checks the verdicts
 * agree with jq -e itself.
 */
class JqBatch {
  private readonly values: unknown[] = [];
  private readonly exprs: string[] = [];

  test(filter: string, value: unknown): number {
    return this.add(
      `(try ([(${filter})] | length > 0 and (last | . != false and . != null)) catch false)`,
      value,
    );
  }

  show(filter: string, value: unknown): number {
    return this.add(`([(${filter})] | map(if type == "string" then . else tojson end) | join("\\n"))`, value);
  }

  private add(expr: string, value: unknown): number {
    this.exprs.push(`($batch[${this.values.length}] | ${expr})`);
    this.values.push(value);
    return this.values.length - 1;
  }

  async run(): Promise<unknown[]> {
    const child = run('jq', ['-c', `. as $batch | [${this.exprs.join(', ')}]`], { maxBuffer: 1 << 24 });
    child.child.stdin?.end(JSON.stringify(this.values));
    return JSON.parse((await child).stdout) as unknown[];
  }
}

const SCHEMA = {
  type: 'object',
  required: ['id', 'name'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
    kind: { enum: ['a', 'b'] },
    level: { const: 3 },
    price: { type: ['number', 'null'], minimum: 0, exclusiveMaximum: 100 },
    tags: { type: 'array', minItems: 1, items: { type: 'string' } },
    'a/b~c': { type: 'string' },
    when: { type: 'string', format: 'date-time' },
  },
};
const GOOD = {
  id: 1,
  name: 'bolt',
  kind: 'a',
  level: 3,
  price: 3,
  tags: ['x'],
  'a/b~c': 'y',
  when: '2024-01-01T00:00:00Z',
};

/** One break of GOOD per keyword: the item that breaks it, and the keyword ajv must name first. */
const BREAKS: Array<[string, Record<string, unknown>]> = [
  ['required', { ...GOOD, name: undefined }],
  ['additionalProperties', { ...GOOD, views: 1 }],
  ['type', { ...GOOD, id: 1.5 }],
  ['type', { ...GOOD, price: 'cheap' }],
  ['type', { ...GOOD, tags: ['x', 2] }],
  ['type', { ...GOOD, 'a/b~c': 7 }],
  ['enum', { ...GOOD, kind: 'c' }],
  ['const', { ...GOOD, level: 4 }],
  ['minimum', { ...GOOD, price: -1 }],
  ['exclusiveMaximum', { ...GOOD, price: 100 }],
  ['minLength', { ...GOOD, name: 'b' }],
  ['maxLength', { ...GOOD, name: 'boltsx' }],
  ['pattern', { ...GOOD, name: 'Bolt' }],
  ['minItems', { ...GOOD, tags: [] }],
];

const validate = compileItemSchema(SCHEMA);

function firstError(item: unknown) {
  expect(validate(JSON.parse(JSON.stringify(item)))).toBe(false);
  return validate.errors![0];
}

describe("a DOC-SCHEMA finding's jq test", () => {
  it.each(BREAKS)(
    'for %s is true of the body that breaks it and false of the fixed one',
    async (keyword, bad) => {
      const error = firstError(bad);
      expect(error.keyword).toBe(keyword);
      const sites: Array<[SchemaSite, (item: unknown) => unknown]> = [
        [{ kind: 'item', pointer: '' }, (item) => item],
        [{ kind: 'item', pointer: '/data' }, (item) => ({ data: item })],
        [{ kind: 'list', pointer: '/items' }, (item) => ({ items: [GOOD, item], next: null })],
        [{ kind: 'list', pointer: '' }, (item) => [item]],
      ];
      // Every site's test on the broken body, the fixed one and an error body, and what it shows,
      // in one jq run.
      const jq = new JqBatch();
      const asked = sites.map(([site, wrap]) => {
        const check = schemaRepro(error, site);
        if (check.kind !== 'jq') throw new Error(`no jq test for ${keyword}`);
        expect(check.ok2xx).toBe(true);
        const body = JSON.parse(JSON.stringify(wrap(bad))) as unknown;
        return {
          site,
          check,
          body,
          broken: jq.test(check.test, body),
          fixed: jq.test(check.test, wrap(GOOD)),
          other: jq.test(check.test, { error: 'bad request' }),
          shows: jq.show(check.shows, body),
        };
      });
      const answers = await jq.run();
      for (const { site, broken, fixed, other, shows } of asked) {
        expect({ site, broken: answers[broken] }).toEqual({ site, broken: true });
        expect({ site, fixed: answers[fixed] }).toEqual({ site, fixed: false });
        // A body of another shape holds no value to judge (though it does lack a required member).
        if (keyword !== 'required') expect(answers[other]).toBe(false);
        // What it shows names the place (JSON pointer, list elements as *).
        expect(answers[shows]).toContain(site.pointer + (site.kind === 'list' ? '/*' : ''));
      }
      // The batch's verdicts are jq -e's own (checked on the first site, broken and fixed).
      const [first] = asked;
      expect(await holds(first.check.test, first.body)).toBe(true);
      expect(await holds(first.check.test, sites[0][1](GOOD))).toBe(false);
    },
  );

  it('says no script tests a keyword jq cannot check as ajv does (format)', () => {
    const error = firstError({ ...GOOD, when: 'yesterday' });
    expect(error.keyword).toBe('format');
    expect(schemaRepro(error, { kind: 'item', pointer: '' })).toEqual({
      kind: 'none',
      why: expect.stringContaining('"format"'),
    });
  });
});
