// The README's "Describing your API's shape" examples, run as written against an API of each shape.
import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { packagePath } from '../../src/core/paths.js';
import { runAudit } from '../../src/engine/run.js';
import { startShapesApi, type ShapesApiOptions } from '../../src/testing/shapes-api.js';
import { catalogue } from '../../suites/index.js';
import { tempDir } from '../config/helpers.js';
import { bad } from './helpers.js';

const readme = readFileSync(packagePath('README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf("## Describing your API's shape"),
  readme.indexOf('## Starting from an OpenAPI document'),
);
/** The first YAML block under a sub-heading of the section (other sub-headings may hold other examples). */
const example = (heading: string): string | undefined => {
  const at = section.indexOf(`### ${heading}\n`);
  if (at < 0) return undefined;
  const rest = section.slice(at + 4 + heading.length);
  const end = rest.indexOf('\n### ');
  return /```yaml\n([\s\S]*?)```/.exec(end < 0 ? rest : rest.slice(0, end))?.[1];
};

/** The API each example is written for, in the README's order, and the findings the shape itself brings. */
const shapes: Array<{ name: string; api: ShapesApiOptions; expected: RegExp[] }> = [
  { name: 'Trailing slashes', api: { addressing: 'slash' }, expected: [] },
  {
    name: 'Items addressed by a query filter',
    api: { addressing: 'filter' },
    expected: [/^item-url-names-one widgets: items of widgets are addressed by a query filter/],
  },
  {
    name: "Where the new item's id is",
    api: { createAnswer: 'meta' },
    expected: [/^create-location widgets: .* no Location header/],
  },
  {
    name: 'Unique fields and ids in the body: payload templates',
    api: { uniqueEmail: true, putNeedsId: true },
    expected: [],
  },
  { name: 'Nested resources', api: { nested: true }, expected: [] },
];

describe("README: describing your API's shape", () => {
  it('has an example under each shape heading', () => {
    for (const shape of shapes)
      expect([shape.name, example(shape.name)]).toEqual([shape.name, expect.stringContaining('resources:')]);
  });

  it.each(shapes.map((s, i) => [s.name, i] as const))(
    'the %s example audits an API of that shape as expected, leaving nothing behind',
    async (_, i) => {
      const server = await startShapesApi(shapes[i].api);
      try {
        const before = server.snapshot();
        const dir = tempDir();
        writeFileSync(join(dir, 'conformance.config.yaml'), example(shapes[i].name) ?? '');
        const env = {
          API_BASE_URL: server.baseUrl,
          API_TOKEN: server.tokens.full,
          API_LIMITED_TOKEN: server.tokens.limited,
        };
        const config = await loadConfig({ cwd: dir, path: 'conformance.config.yaml', env });
        const result = await runAudit(config, {
          catalogue: catalogue.filter((c) => !c.id.startsWith('rate-limit')),
          concurrency: 4,
          timeoutMs: 5000,
        });
        const found = bad(result);
        expect(found).toHaveLength(shapes[i].expected.length);
        shapes[i].expected.forEach((pattern, k) => expect(found[k]).toMatch(pattern));
        expect(result.cleanup.leftovers).toEqual([]);
        expect(JSON.stringify(server.snapshot())).toBe(JSON.stringify(before));
      } finally {
        await server.close();
      }
    },
  );
});
