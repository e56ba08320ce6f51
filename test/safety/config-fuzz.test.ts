// Config fuzzing through the command line: random, truncated and wrongly typed YAML/JSON configs always
// exit 2 with named problems, one per line, and never a stack trace (seeded, so reproducible).
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { packagePath } from '../../src/core/paths.js';
import { ConfigMutator, prng } from '../../src/testing/config-mutations.js';
import { cli, STACK_LINE, tempDir } from './helpers.js';

const EXAMPLE = readFileSync(packagePath('config', 'example.yaml'), 'utf8');
const ENV = {
  CONFORMANCE_TOKEN: 'fuzz-token-1',
  CONFORMANCE_LIMITED_TOKEN: 'fuzz-token-2',
  CONFORMANCE_WEBHOOK_SECRET: 'x',
};
/** Nothing listens there: a config that survives the fuzzing ends as "unreachable", also exit 2. */
const NOWHERE = 'http://127.0.0.1:1/v1';

const WRONG_TYPES: unknown[] = [
  7,
  -1,
  2.5,
  '',
  'many',
  true,
  null,
  [],
  {},
  [1, 'x'],
  { a: 1 },
  '${UNSET_FUZZ}',
  'x'.repeat(3000),
];
const GARBAGE = [
  ':',
  '-',
  '[',
  '{',
  '}',
  '"',
  "'",
  '\t',
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
  '\uFFFD',
  '${',
];

interface Case {
  name: string;
  file: string;
  text: string | Buffer;
}

function cases(count: number): Case[] {
  const parsed = parseYaml(EXAMPLE) as Record<string, unknown>;
  const m = new ConfigMutator(prng(5_2026_11_22), parsed, EXAMPLE);
  const { random } = m;
  const int = (n: number): number => m.int(n);
  const out: Case[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    if (kind === 0) {
      const cut = m.truncated();
      out.push({ name: `#${i} truncated`, file: cut.json ? 'c.json' : 'c.yaml', text: cut.text });
    } else if (kind === 1 || kind === 2) {
      const json = kind === 2;
      out.push({
        name: `#${i} wrong types`,
        file: json ? 'c.json' : 'c.yaml',
        text: m.wrongTypes(WRONG_TYPES, json),
      });
    } else if (kind === 3) {
      out.push({ name: `#${i} garbage`, file: 'c.yaml', text: m.garbage(GARBAGE, true) });
    } else {
      const bytes = Buffer.from(Array.from({ length: 1 + int(600) }, () => int(256)));
      out.push({ name: `#${i} random bytes`, file: random() < 0.5 ? 'c.json' : 'c.yaml', text: bytes });
    }
  }
  out.push(
    { name: 'empty YAML', file: 'c.yaml', text: '' },
    { name: 'empty JSON', file: 'c.json', text: '' },
    { name: 'a JSON array', file: 'c.json', text: '[1, 2]' },
    { name: 'a YAML string', file: 'c.yaml', text: 'just words' },
    { name: 'resources is a number', file: 'c.yaml', text: 'resources: 7\n' },
    { name: 'BOM then JSON', file: 'c.json', text: '\uFEFF{"resources": "x"}' },
    { name: 'deep nesting', file: 'c.json', text: `{"resources": ${'['.repeat(50_000)}` },
  );
  return out;
}

describe('config fuzzing through the CLI', () => {
  it('every broken config: exit 2, one named problem per line, no stack trace', async () => {
    const dir = await tempDir();
    const outcomes: string[] = [];
    const tally = { problems: 0, unreachable: 0 };
    const all = cases(120);
    for (const [i, c] of all.entries()) {
      const sub = join(dir, String(i));
      await mkdir(sub);
      const file = join(sub, c.file);
      await writeFile(file, c.text);
      const run = await cli(['run', '--config', file, '--base-url', NOWHERE, '--out', join(sub, 'out')], {
        env: ENV,
      });
      const lines = run.stderr.split('\n').filter((l) => l !== '');
      const bad =
        run.code !== 2 ||
        lines.length === 0 ||
        lines.some((l) => !l.startsWith('conformance: ') || l.length < 'conformance: '.length + 5) ||
        STACK_LINE.test(run.stderr + run.stdout) ||
        /TypeError|ReferenceError|RangeError|Cannot read propert|is not a function|undefined is not|\[object Object\]/.test(
          run.stderr,
        );
      if (bad) outcomes.push(`${c.name}: exit ${run.code}\n${run.stderr.slice(0, 600)}`);
      tally[/cannot reach/.test(run.stderr) ? 'unreachable' : 'problems']++;
    }
    expect(outcomes).toEqual([]);
    // Most mutations break the config; the few that survive it meet the unreachable target.
    expect(tally.problems).toBeGreaterThan(all.length / 2);
  });
});
