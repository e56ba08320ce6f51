// Smoke test of the PostgREST harness: a private cluster, login, the collection with and without a token, a clean stop.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startPostgres, type PgCluster } from './harness/postgres.js';
import { POSTGREST_USERS, startPostgrest } from './harness/postgrest.js';
import type { RealService } from './harness/service.js';
import { ask, expectClusterGone, expectNothingLeft, withOutput } from './harness/smoke.js';
import { describeRealServer } from './harness/software.js';

describeRealServer('postgrest', 'PostgREST 12 on PostgreSQL (harness smoke test)', () => {
  let cluster: PgCluster;
  let server: RealService;
  const tokens: Record<'full' | 'limited', string> = { full: '', limited: '' };

  beforeAll(async () => {
    cluster = await startPostgres();
    server = await startPostgrest(cluster);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  it('logs each user in at POST /rpc/login: 200 and a JWT', async () => {
    for (const [who, email, password] of [
      ['full', POSTGREST_USERS.full, server.env.PGRST_PASSWORD],
      ['limited', POSTGREST_USERS.limited, server.env.PGRST_LIMITED_PASSWORD],
    ] as const) {
      const res = await ask(server, '/rpc/login', { method: 'POST', json: { email, pass: password } });
      await withOutput(server, () => expect(res.status).toBe(200));
      expect(res.body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      tokens[who] = res.body.token;
    }
    expect(server.env.PGRST_EMAIL).toBe(POSTGREST_USERS.full);
    expect(server.env.PGRST_URL).toBe(server.baseUrl);
  });

  it('refuses a wrong password: 403 (SQLSTATE 28P01)', async () => {
    const res = await ask(server, '/rpc/login', {
      method: 'POST',
      json: { email: POSTGREST_USERS.full, pass: 'wrong' },
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: '28P01' });
  });

  it('answers GET /widgets 200 with the two seeded rows to both users', async () => {
    for (const token of [tokens.full, tokens.limited]) {
      const res = await ask(server, '/widgets?order=id', { headers: { authorization: `Bearer ${token}` } });
      await withOutput(server, () => expect(res.status).toBe(200));
      expect(res.body).toEqual([
        { id: 1, name: 'seed-one', price: 1.5 },
        { id: 2, name: 'seed-two', price: 2 },
      ]);
    }
    expect(await server.records()).toEqual({
      widgets: [
        { id: 1, name: 'seed-one', price: 1.5 },
        { id: 2, name: 'seed-two', price: 2 },
      ],
    });
  });

  it('answers GET /widgets without a token 401 with WWW-Authenticate: Bearer', async () => {
    const res = await ask(server, '/widgets');
    expect({ status: res.status, challenge: res.headers.get('www-authenticate') }).toEqual({
      status: 401,
      challenge: 'Bearer',
    });
  });

  it('addresses an item by a query filter: GET /widgets?id=eq.1 is a one-element array, /widgets/1 is 404', async () => {
    const headers = { authorization: `Bearer ${tokens.full}` };
    const byFilter = await ask(server, '/widgets?id=eq.1', { headers });
    const byPath = await ask(server, '/widgets/1', { headers });
    expect([byFilter.status, byFilter.body, byPath.status]).toEqual([
      200,
      [{ id: 1, name: 'seed-one', price: 1.5 }],
      404,
    ]);
  });

  it('stops leaving no process, no folder and no listener; so does the cluster', async () => {
    await expectNothingLeft(server);
    await expectClusterGone(cluster);
  });
});
