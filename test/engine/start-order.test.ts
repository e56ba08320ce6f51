// The order tasks start in (startOrder) and how a batch's width is kept (together).
import { describe, expect, it } from '@jest/globals';
import type { Schedule } from '../../src/core/check.js';
import { startOrder, together } from '../../src/engine/schedule.js';

/** A task of `check` (its schedule) on `resource` (with that many operations), named for the assertions. */
function task(check: string, schedule: Schedule, resource?: string, operations = 6) {
  return {
    name: `${check}${resource ? ` ${resource}` : ''}`,
    check: { schedule },
    ...(resource
      ? { resource: { name: resource, operations: Array.from({ length: operations }, String) } }
      : {}),
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('startOrder (the longest chains start first)', () => {
  it('starts the resource with the longest chain first, its chain before its shared tasks, resources in turn', () => {
    // Plan order: check by check, resources in config order; `orders` has the longer chain.
    const plan = [
      task('matrix', 'compares-collection', 'widgets'),
      task('matrix', 'compares-collection', 'orders'),
      task('create', 'own-items', 'widgets'),
      task('create', 'own-items', 'orders'),
      task('malformed', 'compares-collection', 'orders'),
      task('read', 'own-items', 'widgets'),
      task('read', 'own-items', 'orders'),
      task('hooks', 'api-writes'),
      task('nouns', 'api-read'),
    ];
    expect(startOrder(plan).map((t) => t.name)).toEqual([
      'nouns', // no lock: under way at once
      'matrix orders', // the longest chain (two tasks that hold orders alone)
      'matrix widgets',
      'malformed orders',
      'create widgets', // widgets' shared tasks next to each other, after its chain
      'create orders',
      'read widgets',
      'read orders',
      'hooks', // holds every resource: after them all
    ]);
  });

  it('puts the resource with more operations first among equal chains, and keeps the config order on a tie', () => {
    const plan = [
      task('matrix', 'compares-collection', 'a', 2),
      task('matrix', 'compares-collection', 'b', 6),
      task('matrix', 'compares-collection', 'c', 2),
    ];
    expect(startOrder(plan).map((t) => t.name)).toEqual(['matrix b', 'matrix a', 'matrix c']);
  });
});

describe('together (a batch of independent requests)', () => {
  it('has at most the width under way, starts the next as one ends, answers in order', async () => {
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const done = together([...gates.keys()], 2, async (i) => {
      started.push(i);
      await gates[i].promise;
      return i * 10;
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    gates[1].resolve();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await done).toEqual([0, 10, 20, 30, 40]);
  });

  it('starts nothing after an item fails, and rejects with that failure', async () => {
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const done = together([...gates.keys()], 2, async (i) => {
      started.push(i);
      await gates[i].promise;
      if (i === 1) throw new Error('item 1 broke');
    });
    const failed = expect(done).rejects.toThrow('item 1 broke');
    gates[1].resolve();
    await failed;
    gates[0].resolve();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
  });

  it('answers an empty batch at once', async () => {
    await expect(together([], 2, async () => 1)).resolves.toEqual([]);
  });

  it('narrows to one at a time when the width drops (a service answering 429)', async () => {
    let width = 3;
    const gates = Array.from({ length: 6 }, deferred);
    const started: number[] = [];
    /** How many were under way when each started. */
    const alongside: number[] = [];
    let now = 0;
    const done = together(
      [...gates.keys()],
      () => width,
      async (i) => {
        started.push(i);
        alongside[i] = ++now;
        await gates[i].promise;
        now--;
      },
    );
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    await tick();
    expect(started).toEqual([0, 1, 2]);
    width = 1;
    gates[1].resolve();
    gates[2].resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]); // their lanes end: one is left
    gates[0].resolve();
    for (const i of [3, 4, 5]) {
      await tick();
      expect(started).toEqual([...Array(i + 1).keys()]);
      gates[i].resolve();
    }
    await done;
    expect(alongside.slice(3)).toEqual([1, 1, 1]);
  });
});
