// The script of a HOOK-SIGNATURE failure: its own receiver, subscribed as the audit's, judges the signature as the check does.
import { describe, expect, it } from '@jest/globals';
import { auditFixture } from '../../src/testing/check-tester.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { catalogue } from '../../suites/index.js';
import { replayFailures } from '../independent/reproduce.js';

describe('the reproduction script of a webhook signature failure', () => {
  it('reproduces against a service that signs with another secret, not against a correct one, and leaves nothing behind', async () => {
    // The service signs with a secret the audit does not know: every signature is wrong.
    const broken = await startExampleFixture({ webhookSecret: 'service-only-secret-1234' });
    const correct = await startExampleFixture({});
    try {
      const { result } = await auditFixture(
        catalogue.filter((c) => c.id === 'webhook-signature'),
        // The audit is configured with the correct service's secret.
        {
          server: async () => ({
            ...broken,
            webhookSecret: correct.webhookSecret,
            close: async () => undefined,
          }),
        },
      );
      const failed = result.results.filter((r) => r.status === 'failed');
      expect(failed.map((r) => r.checkId)).toEqual(['webhook-signature']);
      expect(failed[0].reproduce).toContain('# Needs: bash, curl, jq, node;');
      const replay = await replayFailures(result, broken, correct, () => exampleEnv(correct));
      expect(replay).toEqual({ misses: [], skipped: [], unscripted: [], scripts: 1 });
    } finally {
      await broken.close();
      await correct.close();
    }
  });
});
