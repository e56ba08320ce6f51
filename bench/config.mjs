// The bench's audit config: config/example.yaml's shape, widened to N resources (things1..thingsK).
import { loadConfig } from '../dist/src/config/load.js';
import { packagePath } from '../dist/src/core/paths.js';
import { exampleEnv } from '../dist/src/cli/demo.js';

/** The two collections config/example.yaml declares; every further resource is a things<i>. */
export const DEFAULT_RESOURCES = 2;

/**
 * Loads config/example.yaml for the API at `baseUrl` and adds `things1..things<resources - 2>`
 * with the widgets declaration (the example API's `extraResources` gives them the widgets shape).
 * `burst` replaces the rate-limit section (the bench API runs without a limit, see index.mjs).
 *
 * @param {{ baseUrl: string, tokens: { full: string, limited: string }, webhookSecret: string,
 *           resources: number, burst?: { maxRequests: number, expected: boolean } }} input
 */
export async function benchConfig(input) {
  const config = await loadConfig({
    path: packagePath('config', 'example.yaml'),
    baseUrl: input.baseUrl,
    env: exampleEnv({ tokens: input.tokens, webhookSecret: input.webhookSecret }),
  });
  const widgets = config.resources.find((r) => r.name === 'widgets');
  if (!widgets) throw new Error('config/example.yaml no longer declares widgets: the bench needs its shape');
  for (let i = 1; i <= input.resources - DEFAULT_RESOURCES; i++) {
    config.resources.push({ ...structuredClone(widgets), name: `things${i}`, path: `/things${i}` });
  }
  if (input.burst) config.rateLimit = { ...config.rateLimit, ...input.burst };
  return config;
}
