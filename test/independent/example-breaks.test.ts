// A full audit of each broken example API: messages read as prose, and every failure's script reproduces it.
import { describe, expect, it } from '@jest/globals';
import { BREAK_NAMES } from '../../src/example-api/index.js';
import { diffPaths } from '../../src/core/shapes.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { catalogue } from '../../suites/index.js';
import { JumpingClock, unreadableMessages } from './helpers.js';
import { expectReproduced, replayFailures } from './reproduce.js';

/** Failures of the example API's breaks whose script does not yet reproduce them (`checkId resource`): known gaps. */
const MISSES: Partial<Record<string, string[]>> = {};

/**
 * How long the audit, and so each HOOK-DELIVERY script, waits for a delivery: the example API
 * delivers within milliseconds on loopback, and a break that never delivers (createNotReadable)
 * need not cost 5 s (config/example.yaml) for each of its two events, in the audit and the scripts.
 */
const HOOK_WAIT_MS = 1000;

describe('a full audit of each broken example API', () => {
  // The alternative API's broken variants assert the same in broken-cases.ts.
  it.each(BREAK_NAMES)(
    "%s: every message reads as prose, every failure's script reproduces it and nothing else",
    async (name) => {
      // The audit and the broken API share a clock that jumps over waits (LIM-RETRY's included).
      const clock = new JumpingClock();
      const broken = await startExampleFixture({ breaks: { [name]: true }, now: clock.now });
      const correct = await startExampleFixture({});
      try {
        const { result } = await auditFixture(catalogue, {
          server: async () => ({ ...broken, close: async () => undefined }),
          config: (config) => ({ ...config, webhooks: { ...config.webhooks!, timeoutMs: HOOK_WAIT_MS } }),
          clock,
        });
        // The scripts run a second later on the broken API's clock: the burst's window is over.
        await clock.sleep(1000);
        expect(result.results.some((r) => r.status === 'failed')).toBe(true);
        expect(unreadableMessages(result)).toEqual([]);
        // A DELETE that deletes nothing leaves the script's item behind, as it left the audit's.
        const replay = await replayFailures(result, broken, correct, exampleEnv, {
          keeps: name === 'deleteNoop',
          misses: MISSES[name],
        });
        expectReproduced(replay);
      } finally {
        await broken.close();
        await correct.close();
      }
    },
    120_000,
  );
});

describe('differences between two bodies', () => {
  it('say "gone" and "absent" in words, never "undefined"', () => {
    expect(diffPaths({ name: 'bolt', price: 3 }, { price: 3 })).toEqual(['/name: "bolt", then gone']);
    expect(diffPaths({ price: 3 }, { price: 3, views: 1 })).toEqual(['/views: absent, then 1']);
    expect(diffPaths({ a: { b: 1 } }, { a: { b: 2 } })).toEqual(['/a/b: 1 → 2']);
    expect(diffPaths(undefined, { id: 1 })).toEqual(['/: nothing → {"id":1}']);
  });

  it('finds every leak in a message, and lets JSON null through', () => {
    const run = (message: string) =>
      unreadableMessages({
        results: [
          {
            checkId: 'c',
            rules: ['R'],
            suite: 's',
            title: 't',
            status: 'failed',
            severity: 'error',
            message,
            evidence: [],
            durationMs: 0,
          },
        ],
      } as never);
    expect(run('/views: undefined → 1')).toHaveLength(1);
    expect(run('price NaN')).toHaveLength(1);
    expect(run('got [object Object]')).toHaveLength(1);
    expect(run('the id is null')).toHaveLength(1);
    expect(run('PATCH answered 200 to JSON null; {"a": null} and [null, 1]')).toEqual([]);
  });
});
