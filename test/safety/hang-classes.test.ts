// Hang classes: a service that never answers one kind of request (here: unparseable JSON) costs two
// time-outs per kind, not one per request; ERR-SERVER names every request left unsent, and the checks
// that needed them are not judged. A correct service is untouched.
import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import type { CheckResult, RunResult } from '../../src/core/types.js';
import type { ExampleApiOptions } from '../../src/example-api/index.js';
import { HANG_LIMIT, HangClasses, bodyKind } from '../../src/http/hang-classes.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { catalogue } from '../../suites/index.js';

/** Short deadline: long enough for loopback, short enough to keep the suite quick. */
const TIMEOUT_MS = 400;

function unparseable(body: Buffer): boolean {
  if (body.length === 0) return false;
  try {
    JSON.parse(body.toString('utf8'));
    return false;
  } catch {
    return true;
  }
}

/** "POST /v1/widgets/{id}": the kind of a request as the server saw it (ids folded). */
function shapeOf(req: IncomingMessage): string {
  const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
  const [, version, collection, id] = path.split('/');
  return `${req.method} /${version}/${collection}${id !== undefined ? '/{id}' : ''}`;
}

/**
 * The example API, except that a request with an unparseable JSON body is never answered: with or
 * without credentials (`withoutCredentials`), or only when it carries some (then an anonymous one
 * gets its 401 at once, as from a server that authenticates before it parses).
 */
function hangingService(withoutCredentials: boolean): {
  api: ExampleApiOptions;
  received: Map<string, number>;
} {
  const received = new Map<string, number>();
  const api: ExampleApiOptions = {
    middleware: (req, _res, body) => {
      if (!unparseable(body)) return false;
      const kind = shapeOf(req);
      received.set(kind, (received.get(kind) ?? 0) + 1);
      if (!withoutCredentials && req.headers.authorization === undefined) return false;
      return true; // answered by no one: the request hangs until the audit's deadline
    },
  };
  return { api, received };
}

/**
 * The whole catalogue but the rate-limit burst against the example API with these options. At the
 * engine's own concurrency (8, as the CLI runs), not auditFixture's 4: more requests of one kind
 * are in flight at once when the first of them hangs.
 */
async function audit(api: ExampleApiOptions, timeoutMs: number): Promise<RunResult> {
  const run = { skip: ['LIM-*'], timeoutMs, concurrency: 8 };
  return (await auditFixture(catalogue, { api, run })).result;
}

const find = (results: CheckResult[], rule: string, resource: string): CheckResult | undefined =>
  results.find((r) => r.rules.includes(rule) && r.resource === resource);

describe('a service that hangs on unparseable JSON', () => {
  it('with or without credentials: two requests of each kind are sent, ERR-SERVER names the rest, nothing that needed them passes', async () => {
    const { api, received } = hangingService(true);
    const result = await audit(api, TIMEOUT_MS);
    // Every kind of request with unparseable JSON reached the service exactly twice.
    expect(received.size).toBeGreaterThanOrEqual(3);
    for (const [kind, count] of received) expect([kind, count]).toEqual([kind, HANG_LIMIT]);

    const server5xx = find(result.results, 'ERR-SERVER', 'widgets');
    expect(server5xx?.status).toBe('failed');
    // One finding per kind left unsent, naming every request of it (ids differ, the kind does not).
    // It names method, URL shape, kind of body and the credential(s) the time-outs carried; each
    // request left unsent is named with its own credential.
    const credential = '(no credential|an invalid credential|the full credential|the limited credential)';
    const finding = server5xx?.problems?.find((p) =>
      p.startsWith('PUT /v1/widgets/{id} with unparseable JSON and '),
    );
    expect(finding).toMatch(
      new RegExp(
        `^PUT /v1/widgets/\\{id\\} with unparseable JSON and ${credential}( or ${credential})*: 2 requests in a row got no answer within the deadline, so the (1 other request of that kind was|\\d+ others of that kind were) not sent \\(PUT /v1/widgets/[^,)\\s]+ with ${credential}(, PUT /v1/widgets/[^,)\\s]+ with ${credential})*\\); the evidence is the first time-out$`,
      ),
    );
    // Each time-out is a problem naming its body kind and credential, not a "response".
    const noAnswer = server5xx?.problems?.filter((p) => / got no complete answer: /.test(p)) ?? [];
    expect(noAnswer.length).toBeGreaterThan(0);
    for (const p of noAnswer) expect(p).toMatch(new RegExp(`^[A-Z]+ \\S+ with [^:]+ and ${credential} got `));
    expect(server5xx?.message).not.toMatch(/responses broke the rule/);
    // The head counts exactly what is listed: each request without an answer (a repeat says how many
    // times) and each kind that hung.
    const head =
      /^(\d+) of \d+ requests got no complete answer and (\d+) kinds? of request hung: (\d+) problems: \(1\) /.exec(
        server5xx?.message ?? '',
      );
    expect(head).not.toBeNull();
    const [, unanswered, kinds, listed] = head!.map(Number);
    const repeats = (p: string): number => Number(/ \((\d+) times\)$/.exec(p)?.[1] ?? 1);
    expect(noAnswer.reduce((n, p) => n + repeats(p), 0)).toBe(unanswered);
    expect(server5xx?.problems?.filter((p) => / requests in a row got no answer /.test(p))).toHaveLength(
      kinds,
    );
    expect(server5xx?.problems).toHaveLength(listed);
    expect(noAnswer.length + kinds).toBe(listed);
    // Every exchange is in the evidence once.
    const evidence = server5xx?.evidence ?? [];
    expect(new Set(evidence).size).toBe(evidence.length);
    expect(new Set(evidence.map((e) => JSON.stringify(e))).size).toBe(evidence.length);
    // Its evidence: the first PUT of that kind, sent with the body, without a response.
    const timedOut =
      server5xx?.evidence?.filter((e) => e.request.method === 'PUT' && e.response === null) ?? [];
    expect(timedOut.length).toBeGreaterThan(0);
    expect(timedOut[0].error).toMatch(/within 400 ms/);

    // The checks that needed those requests say so; none of them passed on requests never sent.
    const notJudged = result.results.filter((r) =>
      /^not judged: .* was not sent: 2 requests of its kind/.test(r.message ?? ''),
    );
    expect(notJudged.length).toBeGreaterThan(0);
    for (const r of notJudged) expect(r.status).toBe('skipped');
    for (const resource of ['widgets', 'orders']) {
      expect(find(result.results, 'ERR-MALFORMED', resource)?.status).not.toBe('passed');
      expect(find(result.results, 'AUTH-MISSING', resource)?.status).not.toBe('passed');
    }
    expect(result.cleanup.leftovers).toEqual([]);
  });

  it('only with credentials: anonymous requests of the kind are still answered 401 and judged', async () => {
    const { api, received } = hangingService(false);
    const result = await audit(api, TIMEOUT_MS);
    expect(received.size).toBeGreaterThan(0);
    // The time-outs are proven by ERR-SERVER; no check passed on a request that was never answered.
    expect(find(result.results, 'ERR-SERVER', 'widgets')?.status).toBe('failed');
    expect(find(result.results, 'ERR-MALFORMED', 'widgets')?.status).not.toBe('passed');
  });

  it('a correct service (400 on unparseable JSON) is audited untouched: every such request is sent, nothing skipped', async () => {
    const received = new Map<string, number>();
    const result = await audit(
      {
        middleware: (req, _res, body) => {
          if (unparseable(body)) received.set(shapeOf(req), (received.get(shapeOf(req)) ?? 0) + 1);
          return false;
        },
      },
      5000,
    );
    const bad = result.results.filter((r) => r.status !== 'passed' && r.status !== 'skipped');
    expect(bad.map((r) => `${r.checkId} ${r.resource}: ${r.message}`)).toEqual([]);
    expect(result.results.filter((r) => /not judged/.test(r.message ?? ''))).toEqual([]);
    expect(Math.max(...received.values())).toBeGreaterThan(HANG_LIMIT);
  });
});

describe('HangClasses', () => {
  const out = (method: string, url: string, body?: string, type = 'application/json') => ({
    method,
    url,
    headers: (body === undefined ? {} : { 'content-type': type }) as Record<string, string>,
    body,
  });

  it('tells kinds by method, URL shape and kind of body (not by id or credentials)', () => {
    const shapes = new HangClasses((url) => (/\/widgets\/[^/]+$/.test(url) ? '/v1/widgets/{id}' : undefined));
    expect(shapes.kindOf(out('PUT', 'http://h/v1/widgets/7', '{"a":'))).toBe(
      'PUT /v1/widgets/{id} with unparseable JSON',
    );
    expect(shapes.kindOf(out('PUT', 'http://h/v1/widgets/8', '{"b":'))).toBe(
      shapes.kindOf(out('PUT', 'http://h/v1/widgets/7', '{"a":')),
    );
    expect(shapes.kindOf(out('GET', 'http://h/v1/widgets?page=2'))).toBe('GET /v1/widgets with no body');
    expect(bodyKind(out('POST', 'x', '[1]'))).toBe('a JSON array');
    expect(bodyKind(out('POST', 'x', 'null'))).toBe('a JSON null');
    expect(bodyKind(out('POST', 'x', '{"a":1}', 'text/plain'))).toBe('a JSON object sent as text/plain');
    expect(bodyKind({ headers: {}, body: '' })).toBe('an empty body sent without Content-Type');
  });
});
