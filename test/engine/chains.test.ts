// The chain of request rounds: rounds per task, summed the way the locks serialize tasks.
import { describe, it, expect } from '@jest/globals';
import { Chains, strand, type ChainStats } from '../../src/engine/chains.js';
import { together as batch } from '../../src/engine/schedule.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { catalogue } from '../../suites/index.js';

/** A request of the current strand, answered when the returned function is called. */
const send = (chains: Chains) => chains.request();

/** `n` requests one after another. */
function sequential(chains: Chains, n: number): Promise<void> {
  return (async () => {
    for (let i = 0; i < n; i++) {
      const answered = send(chains);
      await Promise.resolve();
      answered();
    }
  })();
}

/** `n` requests sent together, then answered. */
async function together(chains: Chains, n: number): Promise<void> {
  const answers = Array.from({ length: n }, () => send(chains));
  await Promise.resolve();
  for (const answered of answers) answered();
}

const exclusive = (...names: string[]) => ({ names, mode: 'exclusive' as const });
const shared = (...names: string[]) => ({ names, mode: 'shared' as const });

describe('chains', () => {
  it('counts requests sent together as one round, and each later one as one more', async () => {
    const chains = new Chains();
    await chains.run(exclusive('widgets'), async () => {
      await together(chains, 8);
      await sequential(chains, 2);
    });
    expect(chains.stats()).toMatchObject({ rounds: 3, tasks: 3, resource: 'widgets' });
  });

  it('adds up tasks holding a resource alone, and counts the longest of those sharing it', async () => {
    const chains = new Chains();
    await Promise.all([
      chains.run(exclusive('widgets'), () => sequential(chains, 2)),
      chains.run(exclusive('widgets'), () => sequential(chains, 3)),
      chains.run(shared('widgets'), () => sequential(chains, 4)),
      chains.run(shared('widgets'), () => sequential(chains, 1)),
      chains.run(exclusive('orders'), () => sequential(chains, 6)),
    ]);
    // widgets: 2 + 3 alone, then the longest shared task (4) = 9 rounds; orders: 6.
    expect(chains.stats()).toMatchObject({ tasks: 9, resource: 'widgets' });
  });

  it('puts a task that writes across the API on every resource, and an unlocked one beside all', async () => {
    const chains = new Chains();
    await chains.run(exclusive('widgets', 'orders'), () => sequential(chains, 2));
    await chains.run(exclusive('orders'), () => sequential(chains, 3));
    await chains.run({ names: [], mode: 'shared' }, () => sequential(chains, 4));
    expect(chains.stats()).toMatchObject({ tasks: 5, resource: 'orders' });
    await chains.run({ names: [], mode: 'shared' }, () => sequential(chains, 7));
    expect(chains.stats().tasks).toBe(7);
    expect(chains.stats().resource).toBeUndefined();
  });

  it('adds the setup before the tasks, and the tasks run last and the cleanup after them', async () => {
    const chains = new Chains();
    await sequential(chains, 3); // no task yet: the setup
    await chains.run(exclusive('widgets'), () => sequential(chains, 2));
    await chains.run('last', () => sequential(chains, 4));
    await chains.run('last', () => sequential(chains, 1));
    await chains.run('cleanup', () => together(chains, 5));
    expect(chains.stats()).toEqual({
      rounds: 3 + 2 + 5 + 1,
      setup: 3,
      tasks: 2,
      resource: 'widgets',
      last: 5,
      cleanup: 1,
    });
  });

  it('follows a task through its awaits: requests of tasks running at once are counted apart', async () => {
    const chains = new Chains();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = chains.run(exclusive('a'), async () => {
      const answered = send(chains);
      await held;
      answered();
      await sequential(chains, 1);
    });
    const fast = chains.run(exclusive('b'), () => sequential(chains, 3));
    await fast;
    release();
    await slow;
    expect(chains.stats()).toMatchObject({ tasks: 3, resource: 'b' });
  });
});

describe('the chain of a full audit', () => {
  it('is reported once the run is over, from setup to cleanup, and no longer than the requests sent', async () => {
    const seen: ChainStats[] = [];
    // On a fake clock shared with the API: pacing and the 429 burst's Retry-After take no real time.
    const { result } = await auditFixture(catalogue, {
      run: { onChains: (c) => seen.push(c) },
      clock: new FakeClock(),
    });
    expect(seen).toHaveLength(1);
    const [chain] = seen;
    expect(chain.setup).toBeGreaterThan(0);
    expect(chain.tasks).toBeGreaterThan(0);
    expect(chain.cleanup).toBeGreaterThan(0);
    expect(chain.rounds).toBe(chain.setup + chain.tasks + chain.last + chain.cleanup);
    expect(chain.rounds).toBeLessThan(result.summary.requests);
  });
});

describe('strands', () => {
  it('counts requests sent side by side a few at a time as one round each, not as a chain', async () => {
    const chains = new Chains();
    await chains.run('cleanup', async () => {
      await sequential(chains, 1);
      // Four strands of two requests each, run one at a time: they wait for each other, but need not.
      let turn = Promise.resolve();
      await Promise.all(
        Array.from({ length: 4 }, () =>
          strand(() => {
            const mine = turn.then(() => sequential(chains, 2));
            turn = mine;
            return mine;
          }),
        ),
      );
      await sequential(chains, 1);
    });
    expect(chains.stats().cleanup).toBe(1 + 2 + 1);
  });

  it('counts the items of a batch started as slots free up as strands from where the batch began', async () => {
    const chains = new Chains();
    await chains.run('cleanup', async () => {
      await sequential(chains, 1);
      // Six items of two requests each, one at a time: each starts only when the one before ends.
      await batch([...Array(6).keys()], 1, () => sequential(chains, 2));
      await sequential(chains, 1);
    });
    expect(chains.stats().cleanup).toBe(1 + 2 + 1);
  });

  it('outside any counted work, runs the work as it is', async () => {
    await expect(strand(async () => 7)).resolves.toBe(7);
  });
});
