// Secrets: a service that echoes the credentials everywhere it can (headers, header names, cookies, bodies, in every
// spelling, error pages, a cross-origin redirect) never gets one into any output byte of the audit.
import { afterEach, describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { exampleEnv, writeExampleConfig } from '../../src/testing/example-config.js';
import { LIMITED_TOKEN, readReport, TOKEN, WEBHOOK_SECRET } from './helpers.js';
import { auditAllOutputs, echoingEverySpelling, noEchoes, startEchoingApi } from './echoing.js';
import { echoSpellings, findLeaks } from './spellings.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** A secret from a variable whose name says it is one, used inside a longer config string; header-name safe. */
const API_KEY = 'EchoKey-5e2b7c91d4f0a3.Q_x~';

/** config/example.yaml with the orders sample quoting ${ECHO_API_KEY} inside a longer string. */
function configWithApiKey(): Promise<string> {
  return writeExampleConfig((text) =>
    text.replace("note: 'leave at the door'", "note: 'leave at the door, key ${ECHO_API_KEY} under the mat'"),
  );
}

describe('secrets never reach an output', () => {
  it('token, limited token and webhook secret: not in console, reports, HAR, step summary or curl lines', async () => {
    // On a fake clock shared by the audit and the API: the rate limit's waits take no real time.
    const clock = new FakeClock();
    const { server, other, echoes, close } = await startEchoingApi(TOKEN, clock);
    closers.push(close);
    const run = await auditAllOutputs(server, exampleEnv(server), undefined, clock);
    expect(run.code).toBe(1);

    // The echoes happened, and the redirect to the other origin was not followed.
    expect(echoes.headers).toBeGreaterThan(10);
    expect(echoes.errorBodies).toBeGreaterThan(0);
    expect(echoes.textBodies).toBeGreaterThan(0);
    expect(echoes.redirects).toBeGreaterThan(0);
    expect(other.requests).toBe(0);
    expect(findLeaks(run.outputs, [TOKEN, LIMITED_TOKEN, WEBHOOK_SECRET])).toEqual([]);

    // What the user sees instead: [redacted] in evidence, $VAR in curl lines, where the redirect pointed.
    const report = await readReport(run.out);
    const evidence = report.results.flatMap((r) => r.evidence);
    expect(JSON.stringify(evidence)).toContain('[redacted]');
    expect(evidence.some((e) => e.curl.includes('"authorization: Bearer ${CONFORMANCE_TOKEN}"'))).toBe(true);
    const notes = evidence.flatMap((e) => e.notes ?? []);
    expect(notes.some((n) => n.includes(`${other.origin}/steal`) && n.includes('not followed'))).toBe(true);
  });

  it('every spelling (case, HTML references, base64, hex, user:secret, reversed, split, pieces, header names): in no output byte', async () => {
    const echoes = noEchoes();
    const clock = new FakeClock();
    const server = await startExampleFixture({
      tokens: { full: TOKEN, limited: LIMITED_TOKEN },
      webhookSecret: WEBHOOK_SECRET,
      middleware: echoingEverySpelling(echoes, [WEBHOOK_SECRET, API_KEY], API_KEY),
      now: clock.now,
    });
    closers.push(() => server.close());
    const run = await auditAllOutputs(
      server,
      { ...exampleEnv(server), ECHO_API_KEY: API_KEY },
      await configWithApiKey(),
      clock,
    );
    expect(run.code).toBe(1);
    expect(echoes.headers).toBeGreaterThan(10);
    expect(echoes.textBodies).toBeGreaterThan(0);
    expect(echoes.errorBodies).toBeGreaterThan(0);

    // Read through every escaping of every format, in any case, whitespace ignored (see spellings.ts).
    expect(findLeaks(run.outputs, [TOKEN, LIMITED_TOKEN, WEBHOOK_SECRET, API_KEY])).toEqual([]);
    // And each spelling as the service wrote it, byte for byte.
    const verbatim = [TOKEN, LIMITED_TOKEN, WEBHOOK_SECRET, API_KEY].flatMap((s) => echoSpellings(s));
    const found = verbatim.flatMap(([how, text]) =>
      run.outputs.filter(([, output]) => output.includes(text)).map(([name]) => `${how} in ${name}`),
    );
    expect(found).toEqual([]);

    // The evidence still shows the shape of what came back, and curl lines rebuild the secrets.
    const report = await readReport(run.out);
    const evidence = report.results.flatMap((r) => r.evidence);
    const responseHeaders = evidence.flatMap((e) =>
      Object.keys((e.response as { headers?: Record<string, string> } | null)?.headers ?? {}),
    );
    expect(responseHeaders).toEqual(
      expect.arrayContaining(['x-[redacted]', 'x-[redacted] (2)', 'x-[redacted] (3)']),
    );
    const pages = evidence
      .map((e) => e.response?.body)
      .filter((b) => typeof b === 'string' && b.includes('<table>'));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]).toContain('<tr><th>base64 of ab:secret</th><td>YWI6[redacted]');
    const curls = evidence.map((e) => e.curl);
    expect(curls.some((c) => c.includes('"authorization: Bearer ${CONFORMANCE_TOKEN}"'))).toBe(true);
    expect(curls.some((c) => c.includes('key ${ECHO_API_KEY} under the mat'))).toBe(true);
    // Every secret here is long enough: no warning.
    expect(run.stderr).not.toContain('warning');
  });
});
