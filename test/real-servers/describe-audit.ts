// The four tests every real server gets: exact deviations, what it does right, evidence, cleanup.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunResult } from '../../src/core/types.js';
import { readState, startRealServer, type RealServer, type RealServerKind } from './servers.js';
import { auditRealServer, rulesWith } from './audit.js';
import {
  expectCleanAfterAudit,
  expectDeviations,
  expectEvidenceOnEveryFailure,
  expectPasses,
} from './expect.js';

export interface RealServerAudit {
  kind: RealServerKind;
  /** How the tests name the server ("json-server 0.17"). */
  label: string;
  /** The collections the config declares, read before and after the audit. */
  collections: string[];
  /** `rule resource severity` lines that must fail, and nothing else. */
  deviations: string[];
  /** `rule resource` lines that must pass. */
  right: string[];
  /** `rule resource` lines the audit had nothing to judge on: skipped, never passed. */
  unjudged?: string[];
  /** Path prefix the records are read under ('/v1'). */
  prefix?: string;
  /** Prepares the server (users, tokens) and returns the audit's environment and the reading token. */
  setup(server: RealServer): Promise<{ env: NodeJS.ProcessEnv; token?: string; secrets?: string[] }>;
}

export function describeRealServerAudit(spec: RealServerAudit): void {
  describe(`${spec.label} under audit`, () => {
    let server: RealServer;
    let seed: Awaited<ReturnType<typeof readState>>;
    let result: RunResult;
    let secrets: string[] = [];
    let read: () => ReturnType<typeof readState>;

    beforeAll(async () => {
      server = await startRealServer(spec.kind);
      const prepared = await spec.setup(server);
      secrets = prepared.secrets ?? [];
      read = () =>
        readState(server, spec.collections, {
          ...(spec.prefix ? { prefix: spec.prefix } : {}),
          ...(prepared.token ? { token: prepared.token } : {}),
        });
      seed = await read();
      result = await auditRealServer(server, prepared.env);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it(`reports exactly the deviations ${spec.label} has, under the right rules`, () => {
      expectDeviations(result, spec.deviations);
    });

    it(`passes what ${spec.label} does right`, () => {
      expectPasses(result, spec.right);
    });

    it(`skips, and does not pass, what ${spec.label} gave nothing to judge`, () => {
      const skipped = rulesWith(result, 'skipped');
      const passed = rulesWith(result, 'passed');
      const wrong = (spec.unjudged ?? []).filter((line) => !skipped.has(line) || passed.has(line));
      expect(wrong).toEqual([]);
    });

    it('proves every failure with evidence and a curl line, and never shows a secret', () => {
      expectEvidenceOnEveryFailure(result);
      const report = JSON.stringify(result);
      for (const secret of secrets) expect(report).not.toContain(secret);
    });

    it('leaves the seeded records as they were and deletes what it created', async () => {
      expectCleanAfterAudit(result, seed, await read());
    });
  });
}
