// Config validation of the shape keys (issue 10, item 10): one line per problem, with its path in the file; exit 2.
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/load.js';
import { tempDir, configErrorAsync } from '../config/helpers.js';
import { cli } from '../safety/helpers.js';

const load = (resources: string) =>
  loadConfig({
    cwd: tempDir({ 'c.yaml': `baseUrl: https://api.example.com/v1\nresources:\n${resources}` }),
    path: 'c.yaml',
    env: {},
  });

const problems = async (resources: string): Promise<string[]> =>
  (await configErrorAsync(load(resources))).problems;

describe('shape keys in the config', () => {
  it('load as written: a trailing slash kept, item, createdIdFrom, parent', async () => {
    const config = await load(`  - name: customers
    path: /customers/
    item: /customers/{id}/
  - name: orders
    parent: customers
    path: /customers/{customerId}/orders/
    item: /customers/{customerId}/orders/{id}/
    createdIdFrom: /data/id
    parentId: '7'
`);
    expect(config.resources.map((r) => [r.path, r.item, r.parent, r.createdIdFrom, r.parentId])).toEqual([
      ['/customers/', '/customers/{id}/', undefined, undefined, undefined],
      [
        '/customers/{customerId}/orders/',
        '/customers/{customerId}/orders/{id}/',
        'customers',
        '/data/id',
        '7',
      ],
    ]);
  });

  it.each([
    [
      'an item template without {id}',
      '  - { name: w, path: /w, item: /w/x }',
      /resources\[0\]\.item.*must hold \{id\} exactly once/,
    ],
    [
      '{id} in the collection path',
      '  - { name: w, path: "/w/{id}" }',
      /resources\[0\]\.path.*\{id\} belongs in item/,
    ],
    ['a dot segment in item', '  - { name: w, path: /w, item: "/w/../admin/{id}" }', /resources\[0\]\.item/],
    [
      'createdIdFrom neither a pointer nor location',
      '  - { name: w, path: /w, createdIdFrom: data.id }',
      /resources\[0\]\.createdIdFrom.*JSON pointer/,
    ],
    [
      'an unknown parent',
      '  - { name: w, path: "/c/{cId}/w", parent: customer }',
      /resources\[0\]\.parent.*unknown resource "customer"/,
    ],
    [
      'a parent cycle',
      '  - { name: a, path: "/b/{bId}/a", parent: b }\n  - { name: b, path: "/a/{aId}/b", parent: a }',
      /resources\[\d\]\.parent.*leads back/,
    ],
    [
      'placeholders that do not match the parent chain',
      '  - { name: c, path: /c }\n  - { name: o, path: /c/orders, parent: c }',
      /resources\[1\]\.path.*must name 1 ancestor id \(c\)/,
    ],
    [
      'a placeholder without a parent',
      '  - { name: o, path: "/c/{cId}/o" }',
      /resources\[0\]\.path.*has no parent/,
    ],
    [
      'parentId without parent',
      "  - { name: o, path: /o, parentId: '3' }",
      /resources\[0\]\.parentId.*needs parent/,
    ],
  ])('%s is refused, naming its path in the file', async (_, resources, pattern) => {
    const found = await problems(resources);
    expect(found.some((p) => pattern.test(p))).toBe(true);
    for (const p of found) expect(p).not.toMatch(/\n/);
  });

  it('exits 2 with one line per problem', async () => {
    const dir = tempDir({
      'c.yaml':
        'baseUrl: http://127.0.0.1:9/v1\nresources:\n  - { name: w, path: /w, item: /w/x, parent: nope }\n',
    });
    const run = await cli(['run', '--config', `${dir}/c.yaml`, '--out', `${dir}/out`, '--quiet'], {
      env: {},
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/resources\[0\]\.item/);
    expect(run.stderr).toMatch(/resources\[0\]\.parent/);
  });
});
