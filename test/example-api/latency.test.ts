// Example API: the latency switch (`latencyMs`) holds every answer until its delay is over, and is off by default.
import { describe, it, expect } from '@jest/globals';
import { createExampleApi } from '../../src/example-api/index.js';
import { call, start } from './helpers.js';

/** A delay the test releases itself: records each wait, and what happened in which order. */
function gate() {
  const events: string[] = [];
  const waiting: Array<() => void> = [];
  let arrived: () => void = () => undefined;
  const next = () => new Promise<void>((resolve) => (arrived = resolve));
  let nextWait = next();
  const delay = (ms: number): Promise<void> => {
    events.push(`delay ${ms}`);
    const done = new Promise<void>((resolve) => waiting.push(resolve));
    arrived();
    return done;
  };
  return {
    events,
    delay,
    /** Resolves once the server is waiting out a delay. */
    async waited(): Promise<void> {
      await nextWait;
      nextWait = next();
    },
    release(): void {
      events.push('released');
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

describe('latency switch', () => {
  it('holds the answer until the delay is over, after handling the request', async () => {
    const g = gate();
    const s = await start({ latencyMs: 30, delay: g.delay });
    try {
      const answer = call(s.baseUrl, 'POST', '/widgets', { json: { name: 'slow', price: 1 } }).then(
        (seen) => {
          g.events.push(`answered ${seen.status}`);
          return seen;
        },
      );
      await g.waited();
      // Handled at once: the item exists while its answer is still held.
      expect(s.api.snapshot().widgets.some((w: any) => w.name === 'slow')).toBe(true);
      expect(g.events).toEqual(['delay 30']);
      g.release();
      const seen = await answer;
      expect(seen.status).toBe(201);
      expect(g.events).toEqual(['delay 30', 'released', 'answered 201']);
    } finally {
      g.release();
      await s.api.close();
    }
  });

  it('delays refusals too (a 401 comes as late as a 200)', async () => {
    const g = gate();
    const s = await start({ latencyMs: 100, delay: g.delay });
    try {
      const answer = call(s.baseUrl, 'GET', '/widgets', { token: null }).then((seen) => {
        g.events.push(`answered ${seen.status}`);
      });
      await g.waited();
      g.release();
      await answer;
      expect(g.events).toEqual(['delay 100', 'released', 'answered 401']);
    } finally {
      await s.api.close();
    }
  });

  it('is off by default: no answer waits', async () => {
    const g = gate();
    const s = await start({ delay: g.delay });
    try {
      const seen = await call(s.baseUrl, 'GET', '/widgets');
      expect(seen.status).toBe(200);
      expect(g.events).toEqual([]);
    } finally {
      await s.api.close();
    }
  });

  it('refuses a latency that is not a number of ms >= 0', () => {
    expect(() => createExampleApi({ latencyMs: -1 })).toThrow(/latencyMs/);
    expect(() => createExampleApi({ latencyMs: Number.NaN })).toThrow(/latencyMs/);
  });
});
