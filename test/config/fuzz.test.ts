// Robustness: broken, truncated and mistyped configs derived from example.yaml either load or
// fail with a ConfigError of one-line problems; never anything else (seeded, so reproducible).
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import { ConfigError } from '../../src/core/errors.js';
import { packagePath } from '../../src/core/paths.js';
import { ConfigMutator, prng } from '../../src/testing/config-mutations.js';

const EXAMPLE_TEXT = readFileSync(packagePath('config', 'example.yaml'), 'utf8');
const ENV = { CONFORMANCE_TOKEN: 'a', CONFORMANCE_LIMITED_TOKEN: 'b', CONFORMANCE_WEBHOOK_SECRET: 'c' };

type Case = { name: string; text: string; format: 'yaml' | 'json' };

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
  return value;
}

const ODD_VALUES: unknown[] = [
  7,
  -1,
  0,
  2.5,
  1e300,
  'many',
  '',
  ' ',
  true,
  false,
  null,
  [],
  {},
  [1, 'x', null],
  { a: { b: 1 } },
  '${UNSET_VARIABLE}',
  '${BAD',
  '$${LITERAL}',
  'x'.repeat(5000),
  '/',
  'list',
  nested(150),
  { __proto__: null, constructor: 1 },
  ['list', 'list'],
  '2027-02-30',
  'http://',
  'sha256=',
];
const GARBAGE = [
  ':',
  '-',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '\t',
  '\n',
  '#',
  '&',
  '*',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '\0',
  '\u00ff',
  '\uFFFD',
  '${',
  ',',
  '?',
];

function makeCases(count: number): Case[] {
  const parsed = parseYaml(EXAMPLE_TEXT) as Record<string, unknown>;
  const m = new ConfigMutator(prng(20261122), parsed, EXAMPLE_TEXT);
  const int = (n: number): number => m.int(n);
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 6;
    let text = EXAMPLE_TEXT;
    let format: 'yaml' | 'json' = 'yaml';
    if (kind === 0) {
      // delete a few random characters
      for (let n = 1 + int(12); n > 0; n--) {
        const at = int(text.length);
        text = text.slice(0, at) + text.slice(at + 1 + int(4));
      }
    } else if (kind === 1) {
      // truncate, as YAML or as JSON
      const cut = m.truncated();
      format = cut.json ? 'json' : 'yaml';
      text = cut.text;
    } else if (kind === 2 || kind === 3) {
      // swap the type of one to three values, serialised as YAML or JSON
      format = kind === 2 ? 'yaml' : 'json';
      text = m.wrongTypes(ODD_VALUES, format === 'json');
    } else if (kind === 4) {
      // insert YAML punctuation and odd characters
      text = m.garbage(GARBAGE, false);
    } else {
      // shuffle lines: duplicate, drop, re-indent
      const lines = text.split('\n');
      for (let n = 1 + int(5); n > 0; n--) {
        const at = int(lines.length);
        const op = int(3);
        if (op === 0) lines.splice(at, 0, lines[int(lines.length)]);
        else if (op === 1) lines.splice(at, 1);
        else lines[at] = ' '.repeat(int(7)) + lines[at].trimStart();
      }
      text = lines.join('\n');
    }
    cases.push({ name: `#${i} kind ${kind}`, text, format });
  }
  return cases;
}

/** Loads or fails properly; returns what happened, fails the test on anything else. */
function outcome(text: string, format: 'yaml' | 'json'): 'loaded' | 'refused' {
  try {
    const config = parseConfigText(text, {
      source: `fuzz.${format}`,
      format,
      env: ENV,
      baseDir: packagePath('config'),
    });
    expect(Array.isArray(config.resources) && config.resources.length > 0).toBe(true);
    return 'loaded';
  } catch (error) {
    if (!(error instanceof ConfigError))
      throw new Error(`not a ConfigError: ${String((error as Error)?.stack ?? error)}`);
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) {
      expect(typeof problem).toBe('string');
      expect(problem.trim()).not.toBe('');
      expect(problem).not.toMatch(/\n/);
      expect(problem).not.toMatch(/cannot load the config/); // our catch-all: a bug if reached
    }
    return 'refused';
  }
}

describe('fuzz', () => {
  test('300 mutated configs load or fail with problems', () => {
    const tally = { loaded: 0, refused: 0 };
    for (const c of makeCases(300)) {
      try {
        tally[outcome(c.text, c.format)]++;
      } catch (error) {
        throw new Error(`${c.name} (${c.format}):\n${c.text.slice(0, 2000)}\n---\n${String(error)}`);
      }
    }
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    expect(tally.loaded).toBeGreaterThan(10);
    expect(tally.refused).toBeGreaterThan(100);
  });

  test.each<[string, string, 'yaml' | 'json']>([
    [
      'random bytes',
      Buffer.from(Array.from({ length: 400 }, (_, i) => (i * 7919) % 256)).toString('latin1'),
      'yaml',
    ],
    ['resources: 7', 'resources: 7\n', 'yaml'],
    ['deep YAML flow nesting', `resources: ${'['.repeat(20000)}${']'.repeat(20000)}\n`, 'yaml'],
    [
      'deep YAML block nesting',
      Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n'),
      'yaml',
    ],
    ['deep JSON nesting', `{"resources": ${'['.repeat(100000)}${']'.repeat(100000)}}`, 'json'],
    ['deep JSON, truncated', `{"resources": ${'[{"a":'.repeat(50000)}`, 'json'],
    [
      'alias bomb',
      'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
      'yaml',
    ],
    ['__proto__ key', '{"__proto__": {"resources": []}, "resources": [{"name": "w", "path": "/w"}]}', 'json'],
    ['custom tag', 'resources: !!js/function "function () {}"\n', 'yaml'],
    ['two documents', 'resources: []\n---\nresources: []\n', 'yaml'],
    ['NUL bytes', 'resources:\0\n  - name: w\0\n', 'yaml'],
    ['a number', '42', 'json'],
    ['null', 'null', 'json'],
  ])('%s', (_name, text, format) => {
    expect(['loaded', 'refused']).toContain(outcome(text, format));
  });
});
