// Secrets at the edges: a token too short to find its echoes, a token full of shell metacharacters, credentials in the base URL.
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packagePath } from '../../src/core/paths.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { cli, LIMITED_TOKEN, readReport, tempDir, WEBHOOK_SECRET } from './helpers.js';
import { startCounter } from './hostile.js';
import { auditAllOutputs, echoing, noEchoes, startEchoingApi } from './echoing.js';
import { findLeaks, HOSTILE_TOKEN } from './spellings.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

describe('a token shorter than 8 characters', () => {
  it('is redacted exactly in every output, and the run warns once, on stderr and in every report', async () => {
    const SHORT = 'Q~Z';
    // On a fake clock shared by the audit and the API: the rate limit's waits take no real time.
    const clock = new FakeClock();
    const { server, echoes, close } = await startEchoingApi(SHORT, clock);
    closers.push(close);
    const run = await auditAllOutputs(server, exampleEnv(server), undefined, clock);
    expect(run.code).toBe(1);
    expect(echoes.headers).toBeGreaterThan(10);
    expect(echoes.textBodies).toBeGreaterThan(0);
    expect(findLeaks(run.outputs, [SHORT], { exact: true })).toEqual([]);
    expect(findLeaks(run.outputs, [LIMITED_TOKEN, WEBHOOK_SECRET])).toEqual([]);

    const warning =
      /conformance: warning: the secret from CONFORMANCE_TOKEN is only 3 characters long: .*unreliable/g;
    expect(run.stderr.match(warning)).toHaveLength(1);
    const note = 'the secret from CONFORMANCE_TOKEN is only 3 characters long';
    const report = await readReport(run.out);
    expect((report as { notes?: string[] }).notes).toEqual([expect.stringContaining(note)]);
    for (const [name, text] of run.outputs) {
      // (markdown escapes the "_" of the variable's name)
      const plain = text.replace(/\\(.)/g, '$1');
      if (/\.(xml|html|md|har)$/.test(name)) expect([name, plain.includes(note)]).toEqual([name, true]);
    }
    // curl lines still rebuild it from its variable.
    const curls = report.results.flatMap((r) => r.evidence.map((e) => e.curl));
    expect(curls.some((c) => c.includes('"authorization: Bearer ${CONFORMANCE_TOKEN}"'))).toBe(true);
  });
});

describe('a token full of shell metacharacters', () => {
  it('yields curl lines that run in bash as shown: the token is sent byte for byte and nothing else runs', async () => {
    const other = await startCounter();
    closers.push(() => other.close());
    /** Each request a curl line sent: the line it came from (a header the run below adds) and its Authorization. */
    const fromCurl: Array<{ line: string; authorization: string }> = [];
    const echo = echoing(noEchoes(), other.origin);
    const clock = new FakeClock();
    const server = await startExampleFixture({
      tokens: { full: HOSTILE_TOKEN, limited: LIMITED_TOKEN },
      webhookSecret: WEBHOOK_SECRET,
      middleware: (req, res) => {
        if (String(req.headers['user-agent']).startsWith('curl/'))
          fromCurl.push({
            line: String(req.headers['x-curl-line']),
            authorization: req.headers.authorization ?? '',
          });
        return echo(req, res);
      },
      now: clock.now,
    });
    closers.push(() => server.close());
    const env = exampleEnv(server);
    const run = await auditAllOutputs(server, env, undefined, clock);
    expect(run.code).toBe(1);
    expect(findLeaks(run.outputs, [HOSTILE_TOKEN, LIMITED_TOKEN, WEBHOOK_SECRET])).toEqual([]);

    const report = await readReport(run.out);
    const curls = [...new Set(report.results.flatMap((r) => r.evidence.map((e) => e.curl)))];
    /** What each way a curl line names the token must put in the Authorization header. */
    const expected: Array<[string, string]> = [
      ['"authorization: Bearer ${CONFORMANCE_TOKEN}"', `Bearer ${HOSTILE_TOKEN}`],
      ['"authorization: Bearer ${CONFORMANCE_TOKEN%?}x"', `Bearer ${HOSTILE_TOKEN.slice(0, -1)}x`],
      ['"authorization: Basic ${CONFORMANCE_TOKEN}"', `Basic ${HOSTILE_TOKEN}`],
      [
        `"authorization: Basic $(printf '%s:' "\${CONFORMANCE_TOKEN}" | base64 | tr -d '\\n')"`,
        `Basic ${Buffer.from(`${HOSTILE_TOKEN}:`).toString('base64')}`,
      ],
    ];
    // One bash runs every line as shown, one after another (a process per line cost seconds); each
    // line gains a header naming it, so its requests are told apart from the others'.
    const script = curls
      .map((curl, i) => `${curl} --max-time 10 --silent --output /dev/null --header 'x-curl-line: ${i}'`)
      .join('\n');
    const scriptFile = join(await tempDir(), 'curls.sh');
    await writeFile(scriptFile, `${script}\n`);
    const cwd = await mkdtemp(join(tmpdir(), 'conf-curl-'));
    await promisify(execFile)('bash', [scriptFile], { cwd, env: { PATH: process.env.PATH, ...env } });
    const checked = new Set<string>();
    for (const [i, curl] of curls.entries()) {
      // Each line sent exactly one request: no line broke another's quoting or ran twice.
      const sent = fromCurl.filter((r) => r.line === String(i));
      expect({ curl, requests: sent.length }).toEqual({ curl, requests: 1 });
      for (const [written, authorization] of expected) {
        if (!curl.includes(written)) continue;
        expect({ curl, authorization: sent[0].authorization }).toEqual({ curl, authorization });
        checked.add(written);
      }
    }
    // Every request came from a line, each way of naming the token was run, and nothing but curl
    // ran (no file appeared).
    expect(fromCurl.length).toBe(curls.length);
    expect([...checked].sort()).toEqual(expected.map(([written]) => written).sort());
    expect(await readdir(cwd)).toEqual([]);
  });
});

describe('credentials in the base URL', () => {
  const PASSWORD = 'hunter2-s3cr3t-Pw';

  it('--base-url with user:password@ is refused (exit 2), without repeating them and before any request', async () => {
    const counter = await startCounter();
    closers.push(() => counter.close());
    const url = counter.baseUrl.replace('http://', `http://auditor:${PASSWORD}@`);
    const run = await cli(['run', '--config', packagePath('config', 'example.yaml'), '--base-url', url], {
      env: {
        CONFORMANCE_TOKEN: 'tok-0123456789',
        CONFORMANCE_LIMITED_TOKEN: 'lim-0123456789',
        CONFORMANCE_WEBHOOK_SECRET: 'x',
      },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--base-url: must not hold credentials (got "http://[redacted]@127.0.0.1:');
    expect(run.stderr).toContain("give the credential in the config's auth section");
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    expect(run.stdout + run.stderr).not.toContain('auditor');
    expect(counter.requests).toBe(0);
  });

  it('a baseUrl in the config (from a variable) with credentials is refused the same way', async () => {
    const counter = await startCounter();
    closers.push(() => counter.close());
    const dir = await tempDir();
    const file = join(dir, 'conformance.json');
    await writeFile(
      file,
      JSON.stringify({
        baseUrl: '${BASE_URL}',
        auth: { token: '${TOKEN}' },
        resources: [{ name: 'widgets', path: '/widgets' }],
      }),
    );
    const run = await cli(['run', '--config', file], {
      env: { BASE_URL: counter.baseUrl.replace('http://', `http://:${PASSWORD}@`), TOKEN: 'tok-0123456789' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/baseUrl: must not hold credentials/);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    expect(counter.requests).toBe(0);
  });
});
