// Bad arguments and an unwritable --out fail before the first request: exit 2, one line, nothing sent.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, STACK_LINE, tempDir, writeConfig } from './helpers.js';
import { startCounter } from './hostile.js';

type Counter = Awaited<ReturnType<typeof startCounter>>;

let server: Counter;
let dir: string;
let config: string;
beforeAll(async () => {
  server = await startCounter();
  dir = await tempDir();
  config = await writeConfig(dir);
});
afterAll(async () => {
  await server.close();
});

/** `run` against the counting server with `extra` flags (a valid --out unless `extra` gives one). */
function run(extra: string[], out: string[] = ['--out', join(dir, 'reports')]) {
  return cli(['run', '--config', config, '--base-url', server.baseUrl, ...out, ...extra]);
}

/** Exit 2, exactly one line on stderr (no stack trace), and not one request sent. */
async function refused(result: Promise<{ code: number; stderr: string }>, line: string): Promise<void> {
  const before = server.requests;
  const r = await result;
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: `conformance: ${line}\n` });
  expect(r.stderr).not.toMatch(STACK_LINE);
  expect(server.requests).toBe(before);
}

describe('--out that cannot be written fails before the audit', () => {
  it('a file, /dev/null, a path under a file, /proc/self', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    await refused(
      run([], ['--out', file]),
      `--out ${file}: not a folder (reports are files written into it)`,
    );
    await refused(
      run([], ['--out', '/dev/null']),
      '--out /dev/null: not a folder (reports are files written into it)',
    );
    await refused(
      run([], ['--out', join(file, 'reports')]),
      `--out ${join(file, 'reports')}: cannot be made: ${file} is not a folder`,
    );
    await refused(
      run([], ['--out', '/proc/self']),
      '--out /proc/self: cannot write there (no file can be created there)',
    );
  });

  it('a report file that is a folder; the check leaves nothing behind', async () => {
    const out = join(dir, 'taken');
    await mkdir(join(out, 'junit.xml'), { recursive: true });
    await refused(run([], ['--out', out]), `--out ${out}: junit.xml is there and is not a file`);
    expect(await readdir(out)).toEqual(['junit.xml']);
  });

  it('the same check under demo and merge', async () => {
    const demo = await cli(['demo', '--out', '/dev/null']);
    expect({ code: demo.code, stderr: demo.stderr }).toEqual({
      code: 2,
      stderr: 'conformance: --out /dev/null: not a folder (reports are files written into it)\n',
    });
    const merge = await cli(['merge', join(dir, 'none.json'), '--out', '/dev/null']);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toBe(
      'conformance: --out /dev/null: not a folder (reports are files written into it)\n',
    );
  });

  it('a folder that does not exist yet is fine (it is made at the end), and the control run sends requests', async () => {
    const before = server.requests;
    const r = await run(
      ['--only', 'read-collection-and-item', '--quiet'],
      ['--out', join(dir, 'new', 'deeper')],
    );
    expect(r.stderr).toBe('');
    expect(server.requests).toBeGreaterThan(before);
    expect((await readdir(join(dir, 'new', 'deeper'))).sort()).toEqual(['conformance.json', 'junit.xml']);
  });
});

describe('flags given twice are refused by name, not a type error', () => {
  it('--out, --base-url, --config, --timeout', async () => {
    await refused(run(['--out', 'a', '--out', 'b'], []), '--out is given 2 times ("a", "b"): give it once');
    await refused(
      run(['--base-url', 'http://127.0.0.1:1/v1']),
      `--base-url is given 2 times ("${server.baseUrl}", "http://127.0.0.1:1/v1"): give it once`,
    );
    await refused(
      run(['--config', config]),
      `--config is given 2 times ("${config}", "${config}"): give it once`,
    );
    await refused(
      run(['--timeout', '100', '--timeout', '200']),
      '--timeout is given 2 times (100, 200): give it once',
    );
  });

  it('flags that take a list may repeat', async () => {
    const r = await run(['--only', 'read-collection-and-item', '--only', 'json-responses', '--quiet']);
    expect(r.stderr).toBe('');
  });
});

describe('numbers out of range are refused before anything is sent', () => {
  it('--timeout past what a timer can hold (it would become 1 ms), zero, negative, not a number', async () => {
    const range = 'a number of milliseconds from 1 to 2147483647';
    await refused(run(['--timeout', '2147483648']), `--timeout must be ${range} (got 2147483648)`);
    await refused(run(['--timeout', '0']), `--timeout must be ${range} (got 0)`);
    await refused(run(['--timeout', '-5']), `--timeout must be ${range} (got -5)`);
    await refused(run(['--timeout', 'soon']), `--timeout must be ${range} (got NaN)`);
  });

  it('--timeout 2147483647 is accepted as the long deadline it is: answers arrive, no 1 ms time-outs', async () => {
    const r = await run(['--timeout', '2147483647', '--only', 'read-collection-and-item', '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('no complete response');
  });

  it('--concurrency, --max-rps, --shard', async () => {
    await refused(run(['--concurrency', '0']), '--concurrency must be a whole number from 1 to 1000 (got 0)');
    await refused(
      run(['--concurrency', '2.5']),
      '--concurrency must be a whole number from 1 to 1000 (got 2.5)',
    );
    await refused(
      run(['--concurrency', '1e9']),
      '--concurrency must be a whole number from 1 to 1000 (got 1000000000)',
    );
    const rps = '--max-rps must be a number of requests per second from 0.01 to 100000';
    await refused(run(['--max-rps', '0']), `${rps} (got 0)`);
    // 1e-9 per second is one request every 31 years: its wait would overflow the timer too.
    await refused(run(['--max-rps', '1e-9']), `${rps} (got 1e-9)`);
    await refused(run(['--max-rps', 'Infinity']), `${rps} (got Infinity)`);
    await refused(run(['--shard', '3/2']), '--shard must look like i/n with 1 <= i <= n <= 9999 (got "3/2")');
  });

  it('init checks --timeout and --out before reading anything', async () => {
    const init = await cli(['init', '--openapi', 'http://127.0.0.1:1/doc.yaml', '--timeout', '2147483648']);
    expect(init.code).toBe(2);
    expect(init.stderr).toBe(
      'conformance: --timeout must be a number of milliseconds from 1 to 2147483647 (got 2147483648)\n',
    );
    const before = server.requests;
    const folder = await cli(['init', '--openapi', `${server.origin}/doc.yaml`, '--out', dir]);
    expect(folder.stderr).toBe(`conformance: --out ${dir}: is a folder, not a file\n`);
    expect(server.requests).toBe(before);
  });
});

describe('run and demo share one path: an unknown --only is the same error under both', () => {
  it('exit 2, E_ARGS wording, nothing sent', async () => {
    const line = '--only nope: no check, rule or suite of that name (conformance list shows them)';
    await refused(run(['--only', 'nope']), line);
    const demo = await cli(['demo', '--only', 'nope']);
    expect({ code: demo.code, stderr: demo.stderr }).toEqual({ code: 2, stderr: `conformance: ${line}\n` });
  });
});
