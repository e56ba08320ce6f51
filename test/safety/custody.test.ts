// A service that lies about what a write did: the audit never touches a record it did not create, says
// so in MTH-CREATE and the cleanup report, and leaves nothing it created behind unreported.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from '@jest/globals';
import { auditWidgets, STACK_LINE, type ReportJson } from './helpers.js';
import { startCounter } from './hostile.js';
import { othersBefore, startLiar, type Lie, type LiarServer } from './liar.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

interface CleanupJson extends Record<string, unknown> {
  created: number;
  deleted: number;
  leftovers: Array<{ resource: string; url: string; reason: string }>;
  recovered?: Array<{ resource: string; url: string; reason: string }>;
}

async function liar(lie: Lie, other?: string): Promise<LiarServer> {
  const server = await startLiar(lie, other);
  closers.push(() => server.close());
  return server;
}

/** The whole catalogue (the rate-limit burst aside: it only repeats reads) against the lying service. */
async function audit(
  server: LiarServer,
  options: { timeoutMs?: number; config?: Record<string, unknown> } = {},
): Promise<{ code: number; stdout: string; out: string; report: ReportJson; cleanup: CleanupJson }> {
  const run = await auditWidgets(
    server.baseUrl,
    [
      '--timeout',
      String(options.timeoutMs ?? 2000),
      '--skip',
      'LIM-*',
      '--reporter',
      'console,json,junit,markdown',
      '--no-color',
    ],
    options.config,
  );
  expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
  expect(run.report.results.filter((r) => r.status === 'errored')).toEqual([]);
  return { ...run, cleanup: run.report.cleanup as unknown as CleanupJson };
}

/** Records 1-3 (someone else's) are byte for byte what they were, and no write ever reached them. */
function expectOthersUntouched(server: LiarServer): void {
  const ids = new Set(othersBefore().map((r) => r.id));
  const now = server.records().filter((r) => ids.has(r.id));
  expect(JSON.stringify(now)).toBe(JSON.stringify(othersBefore()));
  expect(server.writesToOthers).toEqual([]);
}

/** Every record the audit's creates stored is gone, or named in the cleanup report. */
function expectNothingLeftSilently(server: LiarServer, cleanup: CleanupJson): void {
  const ids = new Set(othersBefore().map((r) => r.id));
  const extra = server.records().filter((r) => !ids.has(r.id));
  expect({ extra: extra.length }).toEqual({ extra: cleanup.leftovers.length });
}

function createResult(report: ReportJson): ReportJson['results'][number] {
  return report.results.find((r) => r.checkId === 'create-answers-201')!;
}

describe('a create answered with an item that existed before', () => {
  const cases: Array<[Lie, RegExp]> = [
    [
      'existing-id',
      /POST \/v1\/widgets answered 201 naming widgets 1 in its body, an item that existed before this create \(an earlier answer showed it\): the service answered an existing item; the audit neither changes nor deletes it/,
    ],
    [
      'existing-location',
      /POST \/v1\/widgets answered 201 naming widgets 1 in its Location, an item that existed before this create .*: the service answered an existing item/,
    ],
    [
      'dot-id',
      /POST \/v1\/widgets answered 201 naming id "x\/\.\.\/1", which no URL can address as one item/,
    ],
  ];
  it.each(cases)(
    '%s: MTH-CREATE fails, the record is never written, what the POST stored is found and deleted',
    async (lie, message) => {
      const server = await liar(lie);
      const { code, report, cleanup } = await audit(server);
      expect(code).toBe(1);
      const create = createResult(report);
      expect(create.status).toBe('failed');
      expect(create.message).toMatch(message);
      expectOthersUntouched(server);
      // Each create stored a record under a new id; none was named, all were found (they appeared
      // after the audit read the collection, and hold the values it sent) and deleted.
      expect(server.stored).toBeGreaterThan(0);
      expect(cleanup.recovered?.length).toBe(server.stored);
      expect(cleanup.recovered?.[0].reason).toMatch(/^found after POST \/v1\/widgets answered 201 naming /);
      expect(cleanup.leftovers).toEqual([]);
      expect(server.records().length).toBe(othersBefore().length);
    },
  );

  it('without a list operation: the named item is read first, and one holding none of the values sent is refused', async () => {
    const server = await liar('existing-id');
    const { report, cleanup } = await audit(server, {
      config: {
        resources: [
          {
            name: 'widgets',
            path: '/widgets',
            operations: ['read', 'create', 'replace', 'update', 'delete'],
            sample: { name: 'bolt', price: 3 },
            update: { price: 5 },
          },
        ],
      },
    });
    // The first create that named record 1 read it; later ones know it from that read.
    expect(createResult(report).message).toMatch(/naming widgets 1.*: the service answered an existing item/);
    expect(report.results.map((r) => r.message ?? '')).toContainEqual(
      expect.stringMatching(
        /naming widgets 1, an item that holds none of the values sent \(GET \/widgets\/1: \/name: "main valve" \(written: "bolt"\)/,
      ),
    );
    expectOthersUntouched(server);
    // Without a list the audit cannot look for what the creates stored: each is reported.
    expect(cleanup.leftovers.length).toBe(server.stored);
    expect(cleanup.leftovers[0].reason).toMatch(/declares no list operation, so the audit cannot look/);
    expectNothingLeftSilently(server, cleanup);
  });
});

describe('a create whose Location is on another origin', () => {
  it('yields no id: nothing is sent there, and the item it stored is found and deleted', async () => {
    const other = await startCounter();
    closers.push(() => other.close());
    const server = await liar('other-origin-location', other.origin);
    const { report, cleanup } = await audit(server);
    expect(other.requests).toBe(0);
    expect(createResult(report).message).toMatch(
      /answered 201 but named no new item: no "id" in the body and a Location header that names no widgets item on the audit's origin/,
    );
    expectOthersUntouched(server);
    expect(cleanup.recovered?.length).toBe(server.stored);
    expect(cleanup.leftovers).toEqual([]);
  });
});

describe('redirected writes', () => {
  it('PUT, PATCH and DELETE answered 307 to another item: not followed, reported with the Location', async () => {
    const server = await liar('redirect-writes');
    const { code, report, cleanup } = await audit(server);
    expect(code).toBe(1);
    expectOthersUntouched(server);
    const notes = report.results.flatMap((r) => r.evidence).flatMap((e) => e.notes ?? []);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect(notes).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^redirect \\(307\\) to ${server.origin}/v1/widgets/1 not followed: the audit never follows a redirect for a ${method}$`,
          ),
        ),
      );
    }
    // Cleanup's DELETEs were redirected too: the items stay, and the report names each one.
    expect(cleanup.leftovers.length).toBeGreaterThan(0);
    expect(cleanup.leftovers.every((l) => l.reason === 'DELETE answered 307')).toBe(true);
    expectNothingLeftSilently(server, cleanup);
  });

  it('a POST answered 301 is reported as a 301 to the POST, never followed as a GET', async () => {
    const server = await liar('redirect-create');
    const { report } = await audit(server);
    expectOthersUntouched(server);
    const create = createResult(report);
    expect(create.message).toMatch(/^POST \/v1\/widgets answered 301, expected 201/);
    const evidence = create.evidence[0];
    expect(evidence.request.method).toBe('POST');
    expect(evidence.response?.status).toBe(301);
    expect(evidence.notes).toEqual([
      `redirect (301) to ${server.origin}/v1/widgets/1 not followed: the audit never follows a redirect for a POST`,
    ]);
  });
});

describe('a create whose answer is lost', () => {
  const cases: Array<[Lie, number, RegExp]> = [
    ['lost-create', 2000, /connection reset|socket/i],
    ['lost-create-silent', 400, /no complete response within 400 ms/],
  ];
  it.each(cases)(
    '%s: what it stored is found in the collection and deleted',
    async (lie, timeoutMs, error) => {
      const server = await liar(lie);
      const { stdout, out, cleanup } = await audit(server, { timeoutMs });
      expectOthersUntouched(server);
      expect(server.stored).toBeGreaterThan(0);
      expect(cleanup.recovered?.length).toBe(server.stored);
      for (const found of cleanup.recovered ?? []) {
        expect(found.reason).toMatch(/^found after POST \/v1\/widgets answered nothing \(/);
        expect(found.reason).toMatch(error);
        expect(found.reason).toMatch(
          /it appeared in the collection, no earlier answer showed it, and it holds the values sent$/,
        );
      }
      expect(cleanup.leftovers).toEqual([]);
      expect(server.records().length).toBe(othersBefore().length);
      // Every report says so.
      const said = new RegExp(
        `Cleanup: found and deleted ${server.stored} items? a create stored without naming`,
      );
      expect(stdout).toMatch(said);
      expect(await readFile(`${out}/summary.md`, 'utf8')).toMatch(said);
      expect(await readFile(`${out}/junit.xml`, 'utf8')).toMatch(
        /Cleanup found and deleted: widgets http:\/\/127\.0\.0\.1:\d+\/v1\/widgets\/\d+: found after POST/,
      );
    },
    60_000,
  );
});
