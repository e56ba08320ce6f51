// Per-resource readers-writer locks (shared holders overlap, an exclusive one runs alone, in arrival order), and the task window.
import { describe, expect, it } from '@jest/globals';
import { Locks } from '../../src/engine/locks.js';
import { startInOrder } from '../../src/engine/schedule.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Locks', () => {
  it('lets shared holders overlap and keeps an exclusive one alone, serving waiters in order', async () => {
    const locks = new Locks(['widgets']);
    const log: string[] = [];
    const gates = { a: deferred(), b: deferred(), x: deferred(), c: deferred() };
    const task = (name: keyof typeof gates, mode: 'shared' | 'exclusive') =>
      locks.with(
        ['widgets'],
        async () => {
          log.push(`start ${name}`);
          await gates[name].promise;
          log.push(`end ${name}`);
        },
        mode,
      );
    const a = task('a', 'shared');
    const b = task('b', 'shared');
    const x = task('x', 'exclusive');
    const c = task('c', 'shared'); // arrives after x: waits for it (x is not starved)
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['start a', 'start b']);
    gates.a.resolve();
    gates.b.resolve();
    await Promise.all([a, b]);
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['start a', 'start b', 'end a', 'end b', 'start x']);
    gates.x.resolve();
    await x;
    await new Promise((r) => setImmediate(r));
    expect(log.slice(-2)).toEqual(['end x', 'start c']);
    gates.c.resolve();
    await c;
  });

  it('releases the lock when the holder throws', async () => {
    const locks = new Locks(['a']);
    await expect(locks.with(['a'], async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await locks.with(['a'], async () => 'ran')).toBe('ran');
  });
});

describe('startInOrder (the window of tasks under way)', () => {
  it('starts items in order, never more than the window at once, each as soon as one ends', async () => {
    const gates = Array.from({ length: 10 }, deferred);
    const started: number[] = [];
    const done = startInOrder([...gates.keys()], 3, async (i) => {
      started.push(i);
      await gates[i].promise;
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    gates[1].resolve();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2, 3]);
    for (const gate of gates) gate.resolve();
    await done;
    expect(started).toEqual([...gates.keys()]);
  });

  it('starts nothing more once an item failed, and rejects with its error', async () => {
    const started: number[] = [];
    const done = startInOrder([0, 1, 2, 3, 4], 1, async (i) => {
      started.push(i);
      if (i === 1) throw new Error('broke');
    });
    await expect(done).rejects.toThrow('broke');
    expect(started).toEqual([0, 1]);
  });
});
