// The pieces that keep the client bounded: the circuit breaker and body reading (cap, budget, reduced cap).
import { describe, expect, it } from '@jest/globals';
import { Breaker, type Outcome } from '../../src/http/breaker.js';
import {
  BodyLimits,
  KEPT_WHEN_TRUNCATED,
  OVER_CAP_BEFORE_REDUCING,
  readBody,
  REDUCED_CAP,
} from '../../src/http/body.js';

const timeout: Outcome = { error: { code: 'E_TIMEOUT', message: 'no complete response within 400 ms' } };
const answer: Outcome = { status: 200 };

describe('Breaker', () => {
  function breaker(probeAnswers: boolean) {
    const calls = { probes: 0 };
    const b = new Breaker(3, async () => {
      calls.probes++;
      return { outcome: probeAnswers ? answer : timeout, what: 'GET /v1/widgets' };
    });
    return { b, calls };
  }

  it('stops after 3 failures in a row when the probe gets no answer either, and says why', async () => {
    const { b, calls } = breaker(false);
    b.record(timeout);
    b.record(timeout);
    expect(calls.probes).toBe(0);
    b.record(timeout);
    await b.ready();
    expect(calls.probes).toBe(1);
    expect(b.stopped).toBe(
      'the service stopped answering: 3 requests in a row got no complete answer (the last: no complete response within 400 ms), and neither did GET /v1/widgets sent to check (no complete response within 400 ms)',
    );
  });

  it('goes on when the probe is answered: the failures were particular to those requests', async () => {
    const { b, calls } = breaker(true);
    for (let i = 0; i < 3; i++) b.record(timeout);
    await b.ready();
    expect(calls.probes).toBe(1);
    expect(b.stopped).toBeUndefined();
    // The count starts again: two more failures do not probe.
    b.record(timeout);
    b.record(timeout);
    await b.ready();
    expect(calls.probes).toBe(1);
  });

  it('an answer in between resets the count; the audit’s own refusals never count', async () => {
    const { b, calls } = breaker(false);
    b.record(timeout);
    b.record(timeout);
    b.record(answer);
    b.record(timeout);
    b.record({ error: { code: 'E_INTERRUPTED', message: 'stopped' } });
    b.record({ error: { code: 'E_OTHER_ORIGIN', message: 'not sent', notSent: true } });
    b.record(timeout);
    await b.ready();
    expect(calls.probes).toBe(0);
    expect(b.stopped).toBeUndefined();
  });

  it('recheck before cleanup: a service that answers again is used again', async () => {
    let answers = false;
    const b = new Breaker(1, async () => ({ outcome: answers ? answer : timeout, what: 'GET /v1' }));
    b.record(timeout);
    await b.ready();
    expect(b.stopped).toBeDefined();
    answers = true;
    await b.recheck();
    expect(b.stopped).toBeUndefined();
  });
});

/** A body stream of `total` bytes in `chunk`-byte pieces, counting what was pulled from it. */
function stream(total: number, chunk = 64 * 1024) {
  const state = { pulled: 0, destroyed: false };
  const body = {
    async *[Symbol.asyncIterator]() {
      while (state.pulled < total && !state.destroyed) {
        const n = Math.min(chunk, total - state.pulled);
        state.pulled += n;
        yield Buffer.alloc(n, 0x20);
      }
    },
    destroy() {
      state.destroyed = true;
    },
  };
  return { body, state };
}

describe('readBody', () => {
  it('reads a body under the cap whole', async () => {
    const { body } = stream(300_000);
    const read = await readBody(body, new BodyLimits(1_000_000, 4_000_000));
    expect(read).toMatchObject({ truncated: false });
    expect(read.bytes.length).toBe(300_000);
  });

  it('stops at the cap, destroys the stream, keeps only an excerpt', async () => {
    const { body, state } = stream(50_000_000);
    const read = await readBody(body, new BodyLimits(1_000_000, 4_000_000));
    expect(read.truncated).toBe(true);
    expect(read.stopped?.message).toBe('response body larger than 1000000 bytes: stopped reading at the cap');
    expect(state.destroyed).toBe(true);
    expect(state.pulled).toBeLessThan(1_000_000 + 64 * 1024 + 1);
    expect(read.bytes.length).toBe(KEPT_WHEN_TRUNCATED);
  });

  it('a Content-Length over the cap stops after the excerpt', async () => {
    const { body, state } = stream(50_000_000);
    const read = await readBody(body, new BodyLimits(1_000_000, 4_000_000), 50_000_000);
    expect(read.stopped?.message).toMatch(
      /^response body of 50000000 bytes \(Content-Length\), larger than the cap/,
    );
    expect(state.pulled).toBeLessThanOrEqual(KEPT_WHEN_TRUNCATED + 64 * 1024);
  });

  it('the shared budget cuts a body when others hold the memory', async () => {
    const limits = new BodyLimits(10_000_000, 2_000_000);
    expect(limits.take(1_500_000)).toBe(true);
    const { body } = stream(1_000_000);
    const read = await readBody(body, limits);
    expect(read.truncated).toBe(true);
    expect(read.stopped?.message).toMatch(
      /held the rest of the 2000000 bytes the audit keeps in memory at once/,
    );
    limits.give(1_500_000);
    // Everything was given back: a body of the whole budget fits again.
    expect((await readBody(stream(1_900_000).body, limits)).truncated).toBe(false);
  });

  it(`after ${OVER_CAP_BEFORE_REDUCING} bodies over the cap, later ones are read only to ${REDUCED_CAP} bytes`, async () => {
    const limits = new BodyLimits(4_000_000, 16_000_000);
    for (let i = 0; i < OVER_CAP_BEFORE_REDUCING; i++) await readBody(stream(10_000_000).body, limits);
    expect(limits.cap).toBe(REDUCED_CAP);
    const { body, state } = stream(10_000_000);
    const read = await readBody(body, limits);
    expect(read.stopped?.message).toBe(
      `response body larger than ${REDUCED_CAP} bytes: stopped reading at the cap (lowered from 4000000 after 3 bodies over it)`,
    );
    expect(state.pulled).toBeLessThan(REDUCED_CAP + 64 * 1024 + 1);
  });

  it('a stream that fails midway returns what came and the failure', async () => {
    const body = {
      async *[Symbol.asyncIterator]() {
        yield Buffer.from('{"id": 1, ');
        throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
      },
      destroy() {},
    };
    const read = await readBody(body, new BodyLimits(1_000_000, 4_000_000));
    expect(read.bytes.toString()).toBe('{"id": 1, ');
    expect((read.failure as { code: string }).code).toBe('UND_ERR_SOCKET');
  });
});

describe('readBody: bodies under the cap share the budget without cutting each other', () => {
  it('a body sent one byte per chunk is read whole, into a buffer of its own', async () => {
    const big = Buffer.alloc(64 * 1024, 0x61); // one "socket buffer" the 1-byte chunks are views of
    const body = {
      async *[Symbol.asyncIterator]() {
        for (let i = 0; i < 20_000; i++) yield big.subarray(i % big.length, (i % big.length) + 1);
      },
      destroy() {},
    };
    const read = await readBody(body, new BodyLimits(1_000_000, 4_000_000));
    expect(read.bytes.length).toBe(20_000);
    // Not a view of the chunks' buffer: keeping the body does not keep the socket's buffers.
    expect(read.bytes.buffer).not.toBe(big.buffer);
  });

  it('a reader waits for another to give its bytes back instead of being cut', async () => {
    const limits = new BodyLimits(1_000_000, 1_500_000);
    // Two bodies of 900 KB declared at once: they do not both fit, the second waits for the first.
    const first = readBody(stream(900_000).body, limits, 900_000, { waitUntil: Date.now() + 60_000 });
    const second = readBody(stream(900_000).body, limits, 900_000, { waitUntil: Date.now() + 60_000 });
    const [a, b] = await Promise.all([first, second]);
    expect([a.truncated, b.truncated]).toEqual([false, false]);
    expect([a.bytes.length, b.bytes.length]).toEqual([900_000, 900_000]);
    expect(limits.inUse.reading).toBe(0);
  });

  it('two chunked bodies each half read never wait on each other: the oldest may finish', async () => {
    const limits = new BodyLimits(1_000_000, 1_500_000);
    const reads = [0, 1, 2].map(() =>
      readBody(stream(900_000, 16 * 1024).body, limits, undefined, { waitUntil: Date.now() + 60_000 }),
    );
    const done = await Promise.all(reads);
    expect(done.map((r) => [r.truncated, r.bytes.length])).toEqual([
      [false, 900_000],
      [false, 900_000],
      [false, 900_000],
    ]);
  });

  it('with no time to wait, a body over the budget is cut, saying it was cut for memory, not size', async () => {
    const limits = new BodyLimits(1_000_000, 1_500_000);
    expect(limits.take(1_000_000)).toBe(true);
    const read = await readBody(stream(900_000).body, limits, 900_000);
    expect(read.stopped?.code).toBe('E_BODY_BUDGET');
    expect(read.stopped?.message).toMatch(/under the cap of 1000000 bytes; it was cut to bound memory/);
    limits.give(1_000_000);
  });

  it('what exchanges hold counts until they are collected; past the budget new bodies are cut', async () => {
    let collections = 0;
    const limits = new BodyLimits(1_000_000, 1_000_000, () => collections++);
    const holder = { body: 'x' };
    limits.hold(holder, 1_200_000);
    const read = await readBody(stream(10_000).body, limits);
    expect(collections).toBe(1); // it tried to free what nobody holds first
    expect(read.stopped?.code).toBe('E_BODY_BUDGET');
    // A write's 2xx answer may still be read (it may name what the write created), up to twice the budget.
    const write = await readBody(stream(10_000).body, limits, undefined, { essential: true });
    expect(write.truncated).toBe(false);
    expect(holder.body).toBe('x');
  });

  it('a reader that waited checks again what exchanges hold: readers ahead of it may have filled it', async () => {
    const limits = new BodyLimits(1_000_000, 1_500_000, () => undefined);
    // The reading budget is taken: the next reader waits (past the held check, which passes now).
    expect(limits.take(1_000_000)).toBe(true);
    const waiting = readBody(stream(900_000).body, limits, 900_000, { waitUntil: Date.now() + 60_000 });
    await new Promise((resolve) => setImmediate(resolve));
    // Meanwhile the reader ahead finishes and its exchange holds what it read.
    const holder = {};
    limits.hold(holder, 1_600_000);
    limits.give(1_000_000);
    const read = await waiting;
    expect(read.stopped?.code).toBe('E_BODY_BUDGET');
    expect(read.bytes.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('a parsed value is admitted only while what is held stays within the budget (twice it for a write)', async () => {
    const limits = new BodyLimits(1_000_000, 1_000_000, () => undefined);
    const first = {};
    expect(await limits.admit(first, 700_000)).toBe(true);
    expect(limits.inUse.held).toBe(700_000);
    expect(await limits.admit({}, 400_000)).toBe(false);
    expect(await limits.admit({}, 400_000, true)).toBe(true);
    expect(limits.inUse.held).toBe(1_100_000);
  });
});
