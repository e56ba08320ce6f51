// A hostile OpenAPI document cannot make the audit read a local file (or another origin) and send it to the target.
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadOpenApi } from '../../src/openapi/load.js';
import { openApiProblems } from '../openapi/helpers.js';
import {
  startExampleFixture,
  startRawFixture,
  type FixtureServer,
} from '../../src/testing/fixture-server.js';
import { cli, STACK_LINE, tempDir } from './helpers.js';

/** What the local file holds: if it were read, the audit would POST it as the sample. */
const MARKER = 'LOCAL-FILE-SECRET-5d1e0a';
const SECRET_SCHEMA = `type: object
required: [name, price]
properties: { name: { type: string }, price: { type: number } }
example: { name: ${MARKER}, price: 3 }
`;

/** A document whose POST body schema is `ref`. */
function documentWith(ref: string): string {
  return `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /widgets:
    get: { responses: { '200': { description: ok } } }
    post:
      requestBody:
        content:
          application/json:
            schema: { $ref: '${ref}' }
      responses: { '201': { description: created } }
  /widgets/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get: { responses: { '200': { description: ok } } }
    delete: { responses: { '204': { description: gone } } }
`;
}

const RULE_PATH = 'paths["/widgets"].post.requestBody.content["application/json"].schema.$ref';

interface Target extends FixtureServer {
  /** Every request as `METHOD url body`. */
  seen: string[];
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** The example API (widgets), also serving `docs` at their paths, recording every request it gets. */
async function startTarget(docs: Record<string, string> = {}): Promise<Target> {
  const seen: string[] = [];
  const server = await startExampleFixture({
    middleware: (req, res, body) => {
      seen.push(`${req.method} ${req.url} ${body.toString('utf8')}`);
      const doc = docs[req.url ?? ''];
      if (doc === undefined) return false;
      res.writeHead(200, { 'content-type': 'application/yaml' }).end(doc);
      return true;
    },
  });
  closers.push(() => server.close());
  return Object.assign(server, { seen });
}

/** A server that must never be asked for anything. */
async function startBystander(): Promise<FixtureServer & { requests: string[] }> {
  const requests: string[] = [];
  const server = await startRawFixture((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/yaml' }).end(SECRET_SCHEMA);
  });
  closers.push(() => server.close());
  return Object.assign(server, { requests });
}

async function run(target: Target, openapi: string, extra: string[] = []) {
  const out = join(await tempDir(), 'reports');
  const args = ['run', '--openapi', openapi, '--base-url', target.baseUrl, '--out', out, '--no-color'];
  return cli([...args, '--quiet', '--only', 'create-answers-201', ...extra], {
    env: { CONFORMANCE_TOKEN: target.tokens.full },
  });
}

const problemsOf = openApiProblems;

describe('a fetched document refers only to its own origin', () => {
  it('a file:// $ref: exit 2 naming it, and the file never reaches the target', async () => {
    const dir = await tempDir();
    const secret = join(dir, 'secret.yaml');
    await writeFile(secret, SECRET_SCHEMA);
    const ref = pathToFileURL(secret).href;
    const target = await startTarget({ '/specs/doc.yaml': documentWith(ref) });
    const r = await run(target, `${target.origin}/specs/doc.yaml`);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `conformance: ${target.origin}/specs/doc.yaml: ${RULE_PATH}: "${ref}" is not allowed: a fetched document may refer only to http(s) URLs on its own origin (${target.origin})\n`,
    );
    expect(r.stderr).not.toMatch(STACK_LINE);
    // The document was fetched, and nothing else was sent: no write, no trace of the file.
    expect(target.seen).toEqual(['GET /specs/doc.yaml ']);
    expect(r.stdout + r.stderr).not.toContain(MARKER);
  });

  it('a $ref to another origin, or to a path that redirects there: exit 2, the other origin is never asked', async () => {
    const other = await startBystander();
    const target = await startTarget({
      '/specs/other.yaml': documentWith(`${other.origin}/secret.yaml`),
      // A scheme change is another origin too.
      '/specs/scheme.yaml': documentWith('https://127.0.0.1/secret.yaml'),
    });
    const direct = await run(target, `${target.origin}/specs/other.yaml`);
    expect(direct.code).toBe(2);
    expect(direct.stderr).toContain(
      `${RULE_PATH}: "${other.origin}/secret.yaml" is not allowed: a fetched document may refer only to http(s) URLs on its own origin (${target.origin})`,
    );
    const scheme = await run(target, `${target.origin}/specs/scheme.yaml`);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toContain('"https://127.0.0.1/secret.yaml" is not allowed');

    // A same-origin $ref whose URL redirects to the other origin: the redirect is not followed.
    const redirecting = await startRawFixture((req, res) => {
      if (req.url === '/specs/doc.yaml')
        res.writeHead(200, { 'content-type': 'application/yaml' }).end(documentWith('/moved.yaml'));
      else res.writeHead(302, { location: `${other.origin}/secret.yaml` }).end();
    });
    closers.push(() => redirecting.close());
    const viaRedirect = await cli(
      ['run', '--openapi', `${redirecting.origin}/specs/doc.yaml`, '--base-url', target.baseUrl],
      { env: {} },
    );
    expect(viaRedirect.code).toBe(2);
    expect(viaRedirect.stderr).toContain(`cannot fetch ${redirecting.origin}/moved.yaml: it answered 302`);
    expect(viaRedirect.stderr).toContain('not followed');

    expect(other.requests).toEqual([]);
    expect(target.seen).toEqual(['GET /specs/other.yaml ', 'GET /specs/scheme.yaml ']);
  });

  it('same-origin $refs are fetched through the client, with its deadline and size cap', async () => {
    const target = await startTarget({
      '/specs/doc.yaml': documentWith('../shared/widget.yaml'),
      '/shared/widget.yaml': SECRET_SCHEMA.replace(MARKER, 'served-by-the-origin'),
      '/specs/big.yaml': documentWith('../shared/big.yaml'),
      '/shared/big.yaml': `${SECRET_SCHEMA}#${'x'.repeat(5000)}\n`,
    });
    const loaded = await loadOpenApi(`${target.origin}/specs/doc.yaml`);
    expect(JSON.stringify(loaded.document)).toContain('served-by-the-origin');
    expect(await problemsOf(`${target.origin}/specs/big.yaml`, { limits: { maxBytes: 2000 } })).toEqual([
      `cannot fetch ${target.origin}/shared/big.yaml: larger than 2000 bytes`,
    ]);
  });
});

describe('a local document refers only to files under its folder (unless --openapi-allow-ref)', () => {
  /** dir/api/doc-*.yaml beside dir/secret.yaml, one document per way out of the folder. */
  async function layout(): Promise<{ dir: string; api: string; secret: string }> {
    const dir = await tempDir();
    const api = join(dir, 'api');
    await mkdir(join(api, 'schemas'), { recursive: true });
    const secret = join(dir, 'secret.yaml');
    await writeFile(secret, SECRET_SCHEMA);
    await writeFile(join(api, 'schemas', 'widget.yaml'), SECRET_SCHEMA.replace(MARKER, 'inside-the-folder'));
    await symlink(secret, join(api, 'schemas', 'link.yaml'));
    const refs: Record<string, string> = {
      'doc-up.yaml': '../secret.yaml',
      'doc-encoded.yaml': '%2e%2E/secret.yaml',
      'doc-deep.yaml': './schemas/../../secret.yaml',
      'doc-absolute.yaml': secret,
      'doc-file-url.yaml': pathToFileURL(secret).href,
      'doc-link.yaml': './schemas/link.yaml',
      'doc-http.yaml': 'http://127.0.0.1:9/secret.yaml',
      'doc-inside.yaml': './schemas/widget.yaml',
    };
    for (const [name, ref] of Object.entries(refs)) await writeFile(join(api, name), documentWith(ref));
    return { dir, api, secret };
  }

  it('every way out of the folder is refused, naming the $ref; a file inside loads', async () => {
    const { api } = await layout();
    const rule =
      'is not allowed: a local document may refer only to files under its own folder (--openapi-allow-ref <dir> allows more)';
    for (const name of ['up', 'encoded', 'deep', 'absolute', 'file-url', 'link', 'http']) {
      const file = join(api, `doc-${name}.yaml`);
      const problems = await problemsOf(file, { cwd: '/' });
      expect(problems).toHaveLength(1);
      const [before, after] = [`${file}: ${RULE_PATH}: "`, `" ${rule}`];
      expect(problems[0].startsWith(before) && problems[0].endsWith(after)).toBe(true);
    }
    const inside = await loadOpenApi(join(api, 'doc-inside.yaml'));
    expect(JSON.stringify(inside.document)).toContain('inside-the-folder');
  });

  it('through `run`: exit 2 and nothing sent; with --openapi-allow-ref the file is used (so the test can see it)', async () => {
    const { dir, api } = await layout();
    const target = await startTarget();
    const refused = await run(target, join(api, 'doc-up.yaml'));
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(`${RULE_PATH}: "../secret.yaml" is not allowed`);
    expect(target.seen).toEqual([]);

    // A folder that does not exist is named as such.
    const missing = await run(target, join(api, 'doc-up.yaml'), ['--openapi-allow-ref', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`conformance: --openapi-allow-ref ${join(dir, 'nope')}: no such folder\n`);
    expect(target.seen).toEqual([]);

    // The control: allowed, the file's contents are what the audit sends.
    const allowed = await run(target, join(api, 'doc-up.yaml'), ['--openapi-allow-ref', dir]);
    expect(allowed.stderr).toBe('');
    expect(target.seen.some((s) => s.startsWith('POST /v1/widgets ') && s.includes(MARKER))).toBe(true);
  });
});
