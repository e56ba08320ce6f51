// `conformance demo`: start the bundled example API on a free loopback port and audit it.
import type { Check } from '../core/check.js';
import { packagePath } from '../core/paths.js';
import { loadConfig } from '../config/load.js';
import { createExampleApi } from '../example-api/index.js';
import { auditAndReport, type AuditFlags, type Io } from './audit.js';

/** Environment that config/example.yaml reads, filled with the example API's credentials. */
export function exampleEnv(api: {
  tokens: { full: string; limited: string };
  webhookSecret?: string;
}): NodeJS.ProcessEnv {
  return {
    CONFORMANCE_TOKEN: api.tokens.full,
    CONFORMANCE_LIMITED_TOKEN: api.tokens.limited,
    CONFORMANCE_WEBHOOK_SECRET: api.webhookSecret ?? 'no-webhook-secret',
  };
}

export async function runDemo(
  catalogue: Check[],
  flags: AuditFlags,
  io: Io,
  signal?: AbortSignal,
): Promise<number> {
  const api = createExampleApi();
  const { baseUrl } = await api.listen(0, '127.0.0.1');
  try {
    const config = await loadConfig({
      path: packagePath('config', 'example.yaml'),
      baseUrl,
      env: { ...io.env, ...exampleEnv(api) },
    });
    if (!flags.quiet)
      io.stdout.write(`Example API listening on ${baseUrl}; auditing it with config/example.yaml\n`);
    const { code } = await auditAndReport(config, catalogue, flags, io, signal);
    return code;
  } finally {
    await api.close();
  }
}
