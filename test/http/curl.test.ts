// curl lines: secrets become their variable, other spellings [redacted]; a token full of shell metacharacters injects nothing.
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { curlLine } from '../../src/http/curl.js';
import { Redactor } from '../../src/http/redact.js';
import { HttpClient } from '../../src/http/client.js';
import { startRawFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { HOSTILE_TOKEN } from '../safety/spellings.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** Where `!` stands outside single quotes (history expansion in an interactive shell), by a quote-state scan. */
function bangsOutsideSingleQuotes(line: string): number {
  let state: 'none' | 'single' | 'double' | 'ansi' = 'none';
  let bangs = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (state === 'single') {
      if (c === "'") state = 'none';
    } else if (state === 'ansi') {
      if (c === '\\') i++;
      else if (c === "'") state = 'none';
    } else if (state === 'double') {
      if (c === '\\') i++;
      else if (c === '"') state = 'none';
      else if (c === '!') bangs++;
    } else if (c === '\\') i++;
    else if (c === "'") state = 'single';
    else if (c === '$' && line[i + 1] === "'") {
      state = 'ansi';
      i++;
    } else if (c === '"') state = 'double';
    else if (c === '!') bangs++;
  }
  return bangs;
}

describe('curlLine', () => {
  it('a token with shell metacharacters: the line runs in bash, sends it byte for byte, and runs nothing else', async () => {
    const seen: Array<{ authorization?: string; echo?: string; body: string }> = [];
    const server: FixtureServer = await startRawFixture((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({
          authorization: req.headers.authorization,
          echo: req.headers['x-note'] as string | undefined,
          body,
        });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('{}');
      });
    });
    closers.push(() => server.close());
    const redactor = new Redactor([{ value: HOSTILE_TOKEN, envVar: 'HOSTILE_TOKEN' }]);
    const body = `note: it's $(not) a \`command\`! key=${HOSTILE_TOKEN} \u0001 end`;
    const line = curlLine(
      {
        method: 'POST',
        url: `${server.baseUrl}/widgets`,
        headers: {
          authorization: `Bearer ${HOSTILE_TOKEN}`,
          'x-note': 'wow! $(x) `y`',
          'content-type': 'text/plain',
        },
        body,
      },
      redactor,
    );
    expect(line).not.toContain(HOSTILE_TOKEN);
    expect(line).toContain('"authorization: Bearer ${HOSTILE_TOKEN}"');
    expect(bangsOutsideSingleQuotes(line)).toBe(0);

    const cwd = await mkdtemp(join(tmpdir(), 'conf-curl-'));
    const { stdout } = await promisify(execFile)('bash', ['-c', line], {
      cwd,
      env: { PATH: process.env.PATH, HOSTILE_TOKEN },
    });
    expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(await readdir(cwd)).toEqual([]);
    expect(seen).toEqual([{ authorization: `Bearer ${HOSTILE_TOKEN}`, echo: 'wow! $(x) `y`', body }]);
  });

  it('a secret with no variable, or spelled otherwise than registered, is [redacted], never shown', () => {
    const redactor = new Redactor([
      { value: 'literal-secret-42' },
      { value: 'env-secret-0042', envVar: 'ENV_SECRET' },
    ]);
    const line = curlLine(
      {
        method: 'GET',
        url: 'http://127.0.0.1:1/v1/things?k=LITERAL-SECRET-42',
        headers: {
          authorization: 'Bearer literal-secret-42',
          'x-a': 'ENV-SECRET-0042',
          'x-b': 'env-secret-0042',
        },
      },
      redactor,
    );
    expect(line).toBe(
      `curl -i 'http://127.0.0.1:1/v1/things?k=[redacted]' -H 'authorization: Bearer [redacted]' -H 'x-a: [redacted]' -H "x-b: \${ENV_SECRET}"`,
    );
  });

  it('control characters and `!` beside a variable are quoted apart from the double quotes', () => {
    const redactor = new Redactor([{ value: 'env-secret-0042', envVar: 'ENV_SECRET' }]);
    const line = curlLine(
      { method: 'POST', url: 'http://127.0.0.1:1/v1/x', headers: {}, body: 'a!\u0001env-secret-0042"$' },
      redactor,
    );
    expect(line).toBe(
      `curl -i -X POST http://127.0.0.1:1/v1/x --data-binary "a"$'!\\x01'"\${ENV_SECRET}\\"\\$"`,
    );
  });

  it('an empty header value is sent empty (curl drops `name: ` but sends `name;`)', async () => {
    const seen: Array<string | undefined> = [];
    const server = await startRawFixture((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      res.writeHead(204);
      res.end();
    });
    closers.push(() => server.close());
    const line = curlLine({ method: 'GET', url: `${server.baseUrl}/x`, headers: { 'x-api-key': '' } }, []);
    expect(line).toBe(`curl -i ${server.baseUrl}/x -H 'x-api-key;'`);
    await promisify(execFile)('bash', ['-c', line], { env: { PATH: process.env.PATH } });
    expect(seen).toEqual(['']);
  });

  it('connects as the audit did: -k, --cacert, --cert and --key from the TLS settings', () => {
    const tls = {
      insecure: true,
      files: { ca: '/etc/ca dir/ca.pem', cert: '/c/client.pem', key: '/c/client.key' },
    };
    expect(curlLine({ method: 'GET', url: 'https://api.test/v1/x', headers: {} }, [], { tls })).toBe(
      `curl -i -k --cacert '/etc/ca dir/ca.pem' --cert /c/client.pem --key /c/client.key https://api.test/v1/x`,
    );
  });

  it('an exchange that timed out gets --max-time (its deadline, whole seconds up); others none', async () => {
    const server = await startRawFixture((req, res) => {
      if (req.url === '/v1/slow') return; // never answers: the client's deadline ends it
      res.writeHead(204);
      res.end();
    });
    closers.push(() => server.close());
    const client = new HttpClient({ baseUrl: server.baseUrl, tokens: {}, timeoutMs: 300 });
    closers.push(() => client.close());
    const slow = await client.send({ method: 'GET', path: '/slow' });
    expect(slow.error?.code).toBe('E_TIMEOUT');
    expect(slow.evidence.curl).toBe(
      `curl -i --max-time 1 ${server.baseUrl}/slow -H 'accept: application/json'`,
    );
    const quick = await client.send({ method: 'GET', path: '/quick' });
    expect(quick.evidence.curl).not.toContain('--max-time');
  });
});
