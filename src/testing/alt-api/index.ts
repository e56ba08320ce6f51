// The alternative API: a second, independently written correct API (with switches and breaks) to audit in tests.
import type { AuditConfig } from '../../core/types.js';
import type { FixtureServer } from '../fixture-server.js';
import { altConfig } from './config.js';
import type { AltApiOptions } from './options.js';
import { startAltApi, type AltServer } from './server.js';

export { startAltApi, type AltServer } from './server.js';
export { altConfig, altConfigText, altEnv } from './config.js';
export { ALT_DEFAULTS, resolveAlt, type AltApiOptions, type AltBreak, type AltChoices } from './options.js';

/**
 * The `server` and `config` of a CheckTester case (or `auditFixture`) that audits the alternative
 * API with these switches and its hand-written config; `adjust` may change the config further.
 */
export function altFixture(
  options: AltApiOptions = {},
  adjust?: (config: AuditConfig) => AuditConfig,
): {
  server: () => Promise<FixtureServer>;
  config: (config: AuditConfig, server: FixtureServer) => AuditConfig;
} {
  return {
    server: () => startAltApi(options),
    config: (_example, server) => {
      const config = altConfig(server as AltServer);
      return adjust ? adjust(config) : config;
    },
  };
}
