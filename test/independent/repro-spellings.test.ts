// A reproduction script judges by meaning, as the audit does: a correct service that spells values otherwise does not reproduce.
import { describe, expect, it } from '@jest/globals';
import { altEnv, startAltApi, type AltServer } from '../../src/testing/alt-api/index.js';
import { auditAlt } from './helpers.js';
import { expectReproduced, replayFailures } from './reproduce.js';

describe('a change the service ignores, replayed on a correct service that spells values otherwise', () => {
  it('reproduces on the broken service, and not where "2.00", +02:00 and midnight UTC show the values sent', async () => {
    const audit = await auditAlt(
      { breaks: ['patch-ignored'] },
      { keep: true, run: { only: ['change-visible'] } },
    );
    const broken = audit.server!;
    // The audit passes this service (test/suites/methods.test.ts): its script must not fail it either.
    const spelled = await startAltApi({ values: 'decimal-strings' });
    try {
      const failed = audit.result.results.filter((r) => r.status === 'failed');
      // The updates resource sends a number and date-times: the spellings are what is tested.
      expect(failed.map((r) => r.resource)).toContain('updates');
      const replay = await replayFailures(audit.result, broken, spelled, (s) => altEnv(s as AltServer));
      expect(replay.scripts).toBe(failed.length);
      expectReproduced(replay);
    } finally {
      await broken.close();
      await spelled.close();
    }
  }, 120_000);
});
