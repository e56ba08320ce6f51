// resources[].schema: files relative to the config, inline objects, and broken schemas named early.
import { describe, expect, test } from '@jest/globals';
import { loadConfig, parseConfigText } from '../../src/config/load.js';
import { compileItemSchema } from '../../src/config/item-schema.js';
import { configErrorAsync, tempDir } from './helpers.js';

const WIDGET = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };

function configWith(schema: string): string {
  return `baseUrl: https://a.test/v1\nresources:\n  - name: widgets\n    path: /widgets\n    schema: ${schema}\n`;
}

describe('schema files', () => {
  test('a path is read relative to the config file, not the working directory', async () => {
    const dir = tempDir({
      'project/conf/c.yaml': configWith('./schemas/widget.json'),
      'project/conf/schemas/widget.json': JSON.stringify(WIDGET),
    });
    const config = await loadConfig({ cwd: dir, path: 'project/conf/c.yaml' });
    expect(config.resources[0].schema).toEqual(WIDGET);
  });

  test('a YAML schema file works too', async () => {
    const dir = tempDir({
      'c.yaml': configWith('widget.yaml'),
      'widget.yaml': 'type: object\nrequired: [id]\n',
    });
    const config = await loadConfig({ cwd: dir, path: 'c.yaml' });
    expect(config.resources[0].schema).toEqual({ type: 'object', required: ['id'] });
  });

  test('a missing file names the resource path and the file', async () => {
    const dir = tempDir({ 'c.yaml': configWith('./schemas/widget.json') });
    const error = await configErrorAsync(loadConfig({ cwd: dir, path: 'c.yaml' }));
    expect(error.problems).toEqual([
      'c.yaml: resources[0].schema: cannot read ./schemas/widget.json: ENOENT (line 5)',
    ]);
  });

  test('a file that does not parse gives its own line and column', async () => {
    const dir = tempDir({ 'c.yaml': configWith('w.json'), 'w.json': '{\n  "type": "object",\n}' });
    const error = await configErrorAsync(loadConfig({ cwd: dir, path: 'c.yaml' }));
    expect(error.problems).toEqual([
      'c.yaml: resources[0].schema: cannot parse w.json:3:1: invalid JSON: unexpected "}", expected a quoted key (line 5)',
    ]);
  });

  test('an invalid JSON Schema is reported before any request', async () => {
    const dir = tempDir({ 'c.yaml': configWith('w.json'), 'w.json': '{ "type": "strng" }' });
    const error = await configErrorAsync(loadConfig({ cwd: dir, path: 'c.yaml' }));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(
      /^c\.yaml: resources\[0\]\.schema: w\.json: invalid JSON Schema: .*type/,
    );
  });

  test('a file holding something other than a schema object', async () => {
    const dir = tempDir({ 'c.yaml': configWith('w.json'), 'w.json': '[1, 2]' });
    const error = await configErrorAsync(loadConfig({ cwd: dir, path: 'c.yaml' }));
    expect(error.problems).toEqual([
      'c.yaml: resources[0].schema: w.json must hold a JSON Schema object (got a list) (line 5)',
    ]);
  });

  test('inline schemas are checked as well', () => {
    const ok = parseConfigText(configWith('{ type: object, properties: { id: { type: string } } }'), {
      source: 'c.yaml',
    });
    expect(ok.resources[0].schema).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    expect(() => parseConfigText(configWith('{ type: 7 }'), { source: 'c.yaml' })).toThrow(
      /resources\[0\]\.schema: invalid JSON Schema/,
    );
  });

  test('the dialect follows $schema; unknown keywords and formats are tolerated', () => {
    const v2020 = compileItemSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        pair: { type: 'array', prefixItems: [{ type: 'string' }] },
      },
      'x-internal': true,
    });
    expect(v2020({ at: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(v2020({ at: 'yesterday' })).toBe(false);
    expect(v2020({ pair: [1] })).toBe(false); // prefixItems: 2020-12 is in force
    expect(() => compileItemSchema({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(
      /unsupported \$schema/,
    );
  });
});
