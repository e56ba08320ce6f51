// Every key of config/schema.json has a description, so an editor explains each one as it is typed.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../src/core/paths.js';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path of every key (under `properties` or `patternProperties`, at any depth) that has no description. */
function undescribed(schema: Node): string[] {
  const missing: string[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}[${i}]`));
    if (!isNode(node)) return;
    for (const group of ['properties', 'patternProperties']) {
      const keys = node[group];
      if (!isNode(keys)) continue;
      for (const [key, sub] of Object.entries(keys)) {
        const path = where === '' ? key : `${where}.${key}`;
        if (!isNode(sub) || typeof sub.description !== 'string' || sub.description.trim().length < 5)
          missing.push(path);
        walk(sub, path);
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' || key === 'patternProperties') continue;
      // Definitions are walked for their own keys (a resource's), under their name.
      if (key === 'definitions' && isNode(value)) {
        for (const [name, def] of Object.entries(value)) walk(def, `#${name}`);
      } else if (isNode(value) || Array.isArray(value)) walk(value, where === '' ? key : `${where}.${key}`);
    }
  };
  walk(schema, '');
  return missing;
}

describe('config/schema.json', () => {
  it('describes every key', () => {
    const schema = JSON.parse(readFileSync(packagePath('config', 'schema.json'), 'utf8')) as Node;
    expect(undescribed(schema)).toEqual([]);
  });

  it('the walk finds a key without a description at any depth (inline, in items, in definitions)', () => {
    const schema = {
      properties: {
        a: { type: 'string', description: 'described' },
        b: { type: 'object', properties: { c: { type: 'string' } } },
        d: { type: 'array', items: { properties: { e: { type: 'number' } } } },
      },
      definitions: { thing: { properties: { f: { $ref: '#/x' } } } },
    };
    expect(undescribed(schema)).toEqual(['b', 'b.c', 'd', 'd.items.e', '#thing.f']);
  });
});
