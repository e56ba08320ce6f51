// Loading a document: every way it can be unusable is one clear line (OpenApiError), and fetched documents bring their $refs.
import { describe, expect, it } from '@jest/globals';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadOpenApi } from '../../src/openapi/load.js';
import { respellExclusiveBounds } from '../../src/openapi/respell.js';
import type { Json } from '../../src/openapi/document.js';
import { renderedLines } from '../../src/openapi/problems.js';
import { startRawFixture } from '../../src/testing/fixture-server.js';
import { fixture, openApiProblems, tempFolder } from './helpers.js';

const problemsOf = openApiProblems;

async function write(files: Record<string, string>): Promise<string> {
  const dir = await tempFolder();
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

const HEAD = "openapi: 3.0.3\ninfo: { title: t, version: '1' }\n";

describe('documents that cannot be used', () => {
  it('a YAML syntax error names the line and column', async () => {
    const dir = await write({ 'a.yaml': `${HEAD}paths: {\n  /x: [\n` });
    const [line] = await problemsOf(join(dir, 'a.yaml'));
    expect(line).toMatch(new RegExp(`^${join(dir, 'a.yaml')}:\\d+:\\d+: `));
  });

  it('a file that is not there, a folder, a file too large', async () => {
    const dir = await write({ 'big.yaml': `${HEAD}paths: {}\n# ${'x'.repeat(2000)}\n` });
    expect(await problemsOf(join(dir, 'nope.yaml'))).toEqual([
      `${join(dir, 'nope.yaml')}: cannot read the OpenAPI document: no such file`,
    ]);
    expect(await problemsOf(dir)).toEqual([`${dir}: cannot read the OpenAPI document: it is a directory`]);
    expect((await problemsOf(join(dir, 'big.yaml'), { limits: { maxBytes: 1000 } }))[0]).toMatch(
      /OpenAPI document too large \(\d+ bytes, at most 1000\)$/,
    );
  });

  it('JSON or YAML that is not an OpenAPI document', async () => {
    const dir = await write({ 'c.json': '{"hello": 1}' });
    expect(await problemsOf(join(dir, 'c.json'))).toEqual([
      `${join(dir, 'c.json')}: not an OpenAPI document: it needs an "openapi" (3.x) or "swagger" (2.0) key at the top`,
    ]);
  });

  it('a $ref to nothing, and one to a missing file', async () => {
    const local = `${HEAD}paths:\n  /x:\n    get:\n      responses:\n        '200': { $ref: '#/components/responses/Nope' }\n`;
    const external = `${HEAD}paths:\n  /x:\n    get:\n      responses:\n        '200': { $ref: './gone.yaml#/Ok' }\n`;
    const dir = await write({ 'local.yaml': local, 'external.yaml': external });
    expect(await problemsOf(join(dir, 'local.yaml'))).toEqual([
      `${join(dir, 'local.yaml')}: Missing $ref pointer "#/components/responses/Nope". Token "components" does not exist.`,
    ]);
    const [line] = await problemsOf(join(dir, 'external.yaml'));
    expect(line).toContain(join(dir, 'gone.yaml'));
  });

  it('an unsupported version says so', async () => {
    const dir = await write({ 'v32.yaml': "openapi: 3.2.0\ninfo: { title: t, version: '1' }\npaths: {}\n" });
    expect(await problemsOf(join(dir, 'v32.yaml'))).toEqual([
      `${join(dir, 'v32.yaml')}: OpenAPI 3.2 is currently unsupported.`,
    ]);
  });
});

describe('documents that load', () => {
  it("FastAPI 0.92's 3.0.2 document with 3.1-style exclusive bounds: read as the 3.0 spelling, with a note", async () => {
    // Served by FastAPI 0.92 (pydantic 1.10) for Field(gt=0): "exclusiveMinimum": 0.0, invalid in 3.0.
    const loaded = await loadOpenApi(fixture('fastapi-0.92.json'));
    expect(loaded.warnings[0]).toMatch(
      /fastapi-0\.92\.json: 6 exclusiveMinimum\/exclusiveMaximum given as a number \(OpenAPI 3\.1's spelling, as FastAPI before 0\.99 writes them\) in an OpenAPI 3\.0\.2 document: read as the 3\.0 spelling/,
    );
    const schemas = (loaded.document.components as { schemas: Record<string, { properties: Json }> }).schemas;
    expect(schemas.WidgetCreate.properties.price).toMatchObject({ minimum: 0, exclusiveMinimum: true });
  });

  it('a 3.0 document invalid for more than that keeps every problem, the bounds among them', async () => {
    const dir = await write({
      'a.yaml': `${HEAD}paths:\n  /x:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { type: number, exclusiveMinimum: 0 }\n  /y:\n    get: { summery: x, responses: { '200': { description: ok } } }\n`,
    });
    const problems = await problemsOf(join(dir, 'a.yaml'));
    expect(problems.some((p) => /exclusiveMinimum/.test(p))).toBe(true);
    expect(problems.some((p) => /summery/.test(p))).toBe(true);
  });

  it('an exclusive bound respelled: a stricter inclusive one stays alone, examples are left as they are', () => {
    const files = new Map([
      [
        '/d.json',
        JSON.stringify({
          openapi: '3.0.3',
          a: { exclusiveMinimum: 5, minimum: 7 },
          b: { exclusiveMaximum: 9, maximum: 12 },
          c: { example: { exclusiveMinimum: 1 } },
        }),
      ],
    ]);
    const respelled = respellExclusiveBounds({ root: '/d.json', text: '', files });
    expect(respelled?.count).toBe(2);
    expect(JSON.parse(respelled!.sources.files.get('/d.json')!)).toEqual({
      openapi: '3.0.3',
      a: { minimum: 7 },
      b: { maximum: 9, exclusiveMaximum: true },
      c: { example: { exclusiveMinimum: 1 } },
    });
  });
  it('$refs across files are resolved', async () => {
    const loaded = await loadOpenApi(fixture('petstore-30-refs', 'openapi.yaml'));
    expect(loaded.version).toBe('3.0');
    const paths = loaded.document.paths as Record<string, Record<string, { parameters?: unknown[] }>>;
    expect(paths['/pets'].get.parameters).toEqual([
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    ]);
  });

  it('a fetched document brings its relative $refs (same origin), and an encoded path is only ever a URL', async () => {
    const files: Record<string, string> = {
      '/specs/api.yaml': `${HEAD}paths:\n  /x:\n    get:\n      responses:\n        '200': { $ref: '../shared/ok.yaml' }\n`,
      '/shared/ok.yaml': 'description: fine\n',
      '/specs/evil.yaml': `${HEAD}paths:\n  /x:\n    get:\n      responses:\n        '200': { $ref: 'a%2F..%2F..%2Fetc.yaml' }\n`,
    };
    const server = await startRawFixture((req, res) => {
      const text = files[req.url ?? ''];
      if (text === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/yaml' }).end(text);
    });
    try {
      const loaded = await loadOpenApi(`${server.origin}/specs/api.yaml`);
      expect(loaded.url).toBe(`${server.origin}/specs/api.yaml`);
      const paths = loaded.document.paths as Record<string, Record<string, { responses: unknown }>>;
      expect(paths['/x'].get.responses).toEqual({ '200': { description: 'fine' } });
      // Nothing is written to disk any more: an encoded "../" is a URL on the origin, asked of the server.
      expect(await problemsOf(`${server.origin}/specs/evil.yaml`)).toEqual([
        `cannot fetch ${server.origin}/specs/a%2F..%2F..%2Fetc.yaml: it answered 404, expected 200`,
      ]);
      expect(await problemsOf(`${server.origin}/specs/big.yaml`, { limits: { maxBytes: 10 } })).toEqual([
        `cannot fetch ${server.origin}/specs/big.yaml: it answered 404, expected 200`,
      ]);
    } finally {
      await server.close();
    }
  });

  it('a fetched document larger than the cap is refused', async () => {
    const server = await startRawFixture((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/yaml' })
        .end(`${HEAD}paths: {}\n#${'x'.repeat(5000)}\n`);
    });
    try {
      expect(await problemsOf(`${server.origin}/api.yaml`, { limits: { maxBytes: 1000 } })).toEqual([
        `cannot fetch ${server.origin}/api.yaml: larger than 1000 bytes`,
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('renderedLines (mapping the parser error frames back to paths)', () => {
  it('renders exactly JSON.stringify(value, null, 2)', () => {
    const values: unknown[] = [
      { a: 1, b: [1, { c: 'x', d: [] }, []], e: {}, f: null, g: 'q"uote', h: undefined, i: [undefined] },
      [],
      {},
      'text',
      { nested: { deeper: { list: [[1, 2], [3]] } } },
    ];
    for (const value of values) {
      expect(
        renderedLines(value)
          .map((l) => l.text)
          .join('\n'),
      ).toBe(JSON.stringify(value, null, 2));
    }
    const lines = renderedLines({ paths: { '/x': { get: { summery: 'x' } } } });
    expect(lines.find((l) => l.text.includes('summery'))?.path).toEqual(['paths', '/x', 'get', 'summery']);
  });
});
