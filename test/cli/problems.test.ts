// Every problem reachable, as a user of the CLI sees it: the console points at a report that really lists them all.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

/** `conformance run --only json-responses` on an API whose every 4xx is an HTML page: dozens of problems per resource. */
async function htmlErrorsRun(extra: string[]) {
  // On a fake clock shared with the API: pacing and Retry-After waits take no real time.
  const clock = new FakeClock();
  const server = await startExampleFixture({ breaks: { htmlErrors: true }, now: clock.now });
  const out = await mkdtemp(join(tmpdir(), 'conf-problems-'));
  try {
    const args = ['run', '--base-url', server.baseUrl, '--config', packagePath('config', 'example.yaml')];
    const r = await runCli([...args, '--only', 'json-responses', '--out', out, '--no-color', ...extra], {
      env: exampleEnv(server),
      clock,
    });
    const file = (name: string) => readFile(join(out, name), 'utf8').catch(() => '');
    const json = JSON.parse((await file('conformance.json')) || '{"results":[]}');
    const widgets = json.results.find(
      (x: { checkId: string; resource?: string }) =>
        x.checkId === 'json-responses' && x.resource === 'widgets',
    );
    return { ...r, out, widgets, junit: await file('junit.xml'), html: await file('report.html') };
  } finally {
    await server.close();
  }
}

describe('every problem is reachable', () => {
  it('the JSON, JUnit and HTML reports list every problem, and the console says where', async () => {
    const r = await htmlErrorsRun(['--reporter', 'console,json,junit,html']);
    expect(r.code).toBe(1);
    const problems: string[] = r.widgets.problems;
    expect(problems.length).toBeGreaterThan(10);
    expect(problems.every((p) => !p.includes('\n') && / answered 4\d\d with Content-Type /.test(p))).toBe(
      true,
    );
    // `message` is still the one string it always was; it numbers the first five.
    expect(r.widgets.message).toMatch(
      new RegExp(`${problems.length} problems: \\(1\\) .* … and ${problems.length - 5} more$`),
    );
    const json = join(r.out, 'conformance.json');
    expect(r.stdout).toContain(`[${problems.length} problems: every one in ${json}, or with --verbose]`);
    expect(r.junit).toContain(`Every problem (${problems.length}):\n(1) `);
    expect(r.junit).toContain(`(${problems.length}) ${problems.at(-1)!.replace(/"/g, '&quot;')}`);
    // The failure's text says each problem once: the message up to its numbered list, then the list.
    const failure =
      /classname="general\.widgets"[^>]*>\s*<failure message="([^"]*)"[^>]*>([^<]*)<\/failure>/.exec(r.junit);
    const [, attribute, text] = failure ?? ['', '', ''];
    const first = `(1) ${problems[0]}`.replace(/"/g, '&quot;');
    expect(attribute).toContain(first);
    expect(
      text.startsWith(
        `${r.widgets.message.split(' (1) ')[0]}\n\nEvery problem (${problems.length}):\n${first}\n`,
      ),
    ).toBe(true);
    expect(text.split(first)).toHaveLength(2);
    const article = /<article[^>]*data-resource="r:widgets"[^>]*>[\s\S]*?<\/article>/.exec(r.html)?.[0] ?? '';
    expect(article.match(/<li>/g)).toHaveLength(problems.length);
  });

  it('--verbose prints every problem on the console, numbered, one per line', async () => {
    const r = await htmlErrorsRun(['--reporter', 'console,json', '--verbose']);
    const problems: string[] = r.widgets.problems;
    const lines = r.stdout.split('\n');
    const head = lines.findIndex(
      (l) => l.startsWith('    widgets: ') && l.endsWith(`${problems.length} problems:`),
    );
    expect(head).toBeGreaterThan(0);
    expect(lines.slice(head + 1, head + 1 + problems.length)).toEqual(
      problems.map((p, i) => `      (${i + 1}) ${p}`),
    );
  });
});
