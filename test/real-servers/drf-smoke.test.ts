// Smoke test of the Django REST framework harness, in token mode and API-key mode: login, reads, a clean stop.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { DRF_USERS, seedDrf, startDrf, type DrfSeed } from './harness/drf.js';
import type { RealService } from './harness/service.js';
import { ask, expectNothingLeft, withOutput } from './harness/smoke.js';
import { describeRealServer } from './harness/software.js';

const SEEDED_WIDGETS = [
  { id: 1, name: 'seed-one', price: '1.50' },
  { id: 2, name: 'seed-two', price: '2.00' },
];

describeRealServer('drf', 'Django REST framework (harness smoke test)', () => {
  let seed: DrfSeed;
  let token: RealService;
  let apikey: RealService;

  beforeAll(async () => {
    seed = await seedDrf();
    [token, apikey] = await Promise.all([startDrf(seed, 'token'), startDrf(seed, 'apikey')]);
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled([token?.stop(), apikey?.stop()]);
    await seed?.stop();
  });

  describe('token mode', () => {
    it('logs each user in at POST /api/v1/auth-token/: 200 and the seeded token', async () => {
      for (const [user, password, expected] of [
        [DRF_USERS.full, token.env.DRF_PASSWORD, token.env.DRF_TOKEN],
        [DRF_USERS.limited, token.env.DRF_LIMITED_PASSWORD, token.env.DRF_LIMITED_TOKEN],
      ]) {
        const res = await ask(token, '/api/v1/auth-token/', {
          method: 'POST',
          json: { username: user, password },
        });
        await withOutput(token, () =>
          expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { token: expected } }),
        );
      }
    });

    it('answers GET /api/v1/widgets/ 200 to both tokens, the seeded rows with decimals as strings', async () => {
      for (const t of [token.env.DRF_TOKEN, token.env.DRF_LIMITED_TOKEN]) {
        const res = await ask(token, '/api/v1/widgets/', { headers: { authorization: `Token ${t}` } });
        await withOutput(token, () =>
          expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: SEEDED_WIDGETS }),
        );
      }
      const records = await token.records();
      expect(records.widgets).toEqual(SEEDED_WIDGETS);
      expect(records.orders).toEqual([{ id: 1, customer: 1, item: 'seed-item', quantity: 1 }]);
    });

    it('answers GET /api/v1/widgets/ without a token 401 with WWW-Authenticate: Token', async () => {
      const res = await ask(token, '/api/v1/widgets/');
      expect({ status: res.status, challenge: res.headers.get('www-authenticate'), body: res.body }).toEqual({
        status: 401,
        challenge: 'Token',
        body: { detail: 'Authentication credentials were not provided.' },
      });
    });

    it('redirects a URL without its trailing slash: 301 to the slashed one', async () => {
      const res = await ask(token, '/api/v1/widgets', {
        headers: { authorization: `Token ${token.env.DRF_TOKEN}` },
      });
      expect([res.status, res.headers.get('location')]).toEqual([301, '/api/v1/widgets/']);
    });
  });

  describe('API-key mode', () => {
    it('answers GET /api/v1/widgets/ 200 with X-API-Key', async () => {
      const res = await ask(apikey, '/api/v1/widgets/', { headers: { 'x-api-key': apikey.env.DRF_API_KEY } });
      await withOutput(apikey, () =>
        expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: SEEDED_WIDGETS }),
      );
    });

    it('answers GET /api/v1/widgets/ without a key, or with the token, 403', async () => {
      const none = await ask(apikey, '/api/v1/widgets/');
      const token = await ask(apikey, '/api/v1/widgets/', {
        headers: { authorization: `Token ${apikey.env.DRF_TOKEN}` },
      });
      expect([none.status, token.status]).toEqual([403, 403]);
    });
  });

  it('stops each server leaving no process, no folder and no listener; the seed folder goes too', async () => {
    await expectNothingLeft(token);
    await expectNothingLeft(apikey);
    await seed.stop();
    expect(existsSync(seed.database)).toBe(false);
  });
});
