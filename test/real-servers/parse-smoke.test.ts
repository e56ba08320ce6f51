// Smoke test of the Parse Server harness: a private cluster, login, the collection with and without a session, a clean stop.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { PARSE_USERS, startParse } from './harness/parse.js';
import { startPostgres, type PgCluster } from './harness/postgres.js';
import type { RealService } from './harness/service.js';
import { ask, expectClusterGone, expectNothingLeft, withOutput } from './harness/smoke.js';
import { describeRealServer } from './harness/software.js';

describeRealServer('parse', 'Parse Server 9 on PostgreSQL (harness smoke test)', () => {
  let cluster: PgCluster;
  let server: RealService;
  let app: Record<string, string>;
  const sessions: Record<'full' | 'limited', string> = { full: '', limited: '' };

  beforeAll(async () => {
    cluster = await startPostgres();
    server = await startParse(cluster);
    // Required on every request; the REST key is a secret like the session token.
    app = {
      'x-parse-application-id': server.env.PARSE_APP_ID,
      'x-parse-rest-api-key': server.env.PARSE_REST_API_KEY,
    };
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  it('logs each user in at POST /parse/login: 200 and a session token', async () => {
    for (const [who, username, password] of [
      ['full', PARSE_USERS.full, server.env.PARSE_PASSWORD],
      ['limited', PARSE_USERS.limited, server.env.PARSE_LIMITED_PASSWORD],
    ] as const) {
      const res = await ask(server, '/parse/login', {
        method: 'POST',
        headers: app,
        json: { username, password },
      });
      await withOutput(server, () => expect(res.status).toBe(200));
      expect(res.body.sessionToken).toMatch(/^r:[0-9a-f]{32}$/);
      sessions[who] = res.body.sessionToken;
    }
    expect(server.env.PARSE_URL).toBe(`${server.origin}/parse`);
  });

  it('answers GET /parse/classes/Widget 200 with the two seeded widgets to both sessions', async () => {
    for (const session of [sessions.full, sessions.limited]) {
      const res = await ask(server, '/parse/classes/Widget?order=createdAt', {
        headers: { ...app, 'x-parse-session-token': session },
      });
      await withOutput(server, () => expect(res.status).toBe(200));
      const widgets = (res.body.results as Array<{ name: string; price: number }>).map(({ name, price }) => ({
        name,
        price,
      }));
      expect(widgets).toEqual([
        { name: 'seed-one', price: 1.5 },
        { name: 'seed-two', price: 2 },
      ]);
    }
    const records = await server.records();
    expect(records.widgets.map((w) => w.objectId)).toEqual([
      expect.stringMatching(/^\w{10}$/),
      expect.stringMatching(/^\w{10}$/),
    ]);
  });

  it('answers GET /parse/classes/Widget without a session 404 {"code":101,"error":"Permission denied"}', async () => {
    const res = await ask(server, '/parse/classes/Widget', { headers: app });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 404,
      body: { code: 101, error: 'Permission denied' },
    });
  });

  it('answers 403 {"error":"unauthorized"} to a request without the application headers', async () => {
    const res = await ask(server, '/parse/classes/Widget', {
      headers: { 'x-parse-session-token': sessions.full },
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: 'unauthorized' } });
  });

  it('stops leaving no process, no folder and no listener; so does the cluster', async () => {
    await expectNothingLeft(server);
    await expectClusterGone(cluster);
  });
});
