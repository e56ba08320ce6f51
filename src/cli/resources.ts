// `--resource`: audit only the named resources of the config (and the parents nested ones need).
import { ConformanceError } from '../core/errors.js';
import type { AuditConfig, ResourceConfig } from '../core/types.js';
import { didYouMean } from '../config/suggest.js';

/**
 * The config with only the resources named (each nested one keeps its ancestors, which it is
 * audited under). No names: the config as it is. An unknown name is an E_ARGS error (exit 2).
 */
export function onlyResources(config: AuditConfig, names: readonly string[]): AuditConfig {
  if (names.length === 0) return config;
  const known = config.resources.map((r) => r.name);
  for (const name of names) {
    if (!known.includes(name)) {
      throw new ConformanceError(
        'E_ARGS',
        `--resource ${name}: no such resource in the config${didYouMean(name, known)} (resources: ${known.join(', ')})`,
      );
    }
  }
  const keep = new Set<string>();
  const add = (r: ResourceConfig | undefined): void => {
    if (!r || keep.has(r.name)) return;
    keep.add(r.name);
    if (r.parent !== undefined) add(config.resources.find((p) => p.name === r.parent));
  };
  for (const name of names) add(config.resources.find((r) => r.name === name));
  return { ...config, resources: config.resources.filter((r) => keep.has(r.name)) };
}
