// Merging derived resources into the config data: the config wins field by field, resource by resource.
import { isObject } from '../core/shapes.js';
import type { DerivedConfig, DerivedResource } from './import.js';

/** The config-file fields of a derived resource (without the import's bookkeeping). */
export function resourceFields(resource: DerivedResource): Record<string, unknown> {
  const { origin: _origin, notes: _notes, itemPath: _itemPath, ...fields } = resource;
  return fields;
}

/**
 * The config data (already interpolated, not yet validated) with the document's findings filled
 * in where the config is silent: `baseUrl`, the idempotency header, and every resource. A config
 * resource matches a derived one by name, else by path; its fields win. Derived resources no
 * config resource matches are added after the config's own. Data of the wrong shape is left as
 * it is, for validation to report.
 */
export function mergeDerived(data: Record<string, unknown>, derived: DerivedConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  if (out.baseUrl === undefined && 'baseUrl' in derived.baseUrl) out.baseUrl = derived.baseUrl.baseUrl;
  if (derived.idempotencyHeader !== undefined) {
    const idempotency = out.idempotency;
    if (idempotency === undefined) out.idempotency = { header: derived.idempotencyHeader };
    else if (isObject(idempotency) && idempotency.header === undefined)
      out.idempotency = { ...idempotency, header: derived.idempotencyHeader };
  }
  for (const map of ['headers', 'query'] as const) {
    const mine = out[map];
    if (derived[map] === undefined || (mine !== undefined && !isObject(mine))) continue;
    out[map] = mergeMap(derived[map], mine as Record<string, unknown> | undefined, map === 'headers');
  }
  if (out.resources !== undefined && !Array.isArray(out.resources)) return out;
  const own = (out.resources as unknown[] | undefined) ?? [];
  const trim = (path: unknown): unknown => (typeof path === 'string' ? path.replace(/(.)\/+$/, '$1') : path);
  const taken = new Set<DerivedResource>();
  const merged = own.map((resource) => {
    if (!isObject(resource)) return resource;
    const match =
      derived.resources.find((d) => !taken.has(d) && d.name === resource.name) ??
      derived.resources.find((d) => !taken.has(d) && trim(d.path) === trim(resource.path));
    if (!match) return resource;
    taken.add(match);
    return withRequests({ ...resourceFields(match), ...resource }, match, resource);
  });
  const names = new Set(merged.map((r) => (isObject(r) ? r.name : undefined)));
  for (const resource of derived.resources) {
    if (taken.has(resource)) continue;
    // A config resource already has this name (for another path): the config's stays alone.
    if (names.has(resource.name)) continue;
    merged.push(resourceFields(resource));
  }
  out.resources = merged;
  return out;
}

/** The derived map with the config's entries winning (header names compared case-insensitively). */
function mergeMap(
  derived: Record<string, string>,
  mine: Record<string, unknown> | undefined,
  caseless: boolean,
): Record<string, unknown> {
  const norm = (k: string): string => (caseless ? k.toLowerCase() : k);
  const own = new Set(Object.keys(mine ?? {}).map(norm));
  const kept = Object.entries(derived).filter(([k]) => !own.has(norm(k)));
  return { ...Object.fromEntries(kept), ...(mine ?? {}) };
}

/** A config resource's headers, query and requests merged entry by entry with the derived ones (the config's win). */
function withRequests(
  merged: Record<string, unknown>,
  derived: DerivedResource,
  mine: Record<string, unknown>,
): Record<string, unknown> {
  for (const map of ['headers', 'query'] as const)
    if (derived[map] !== undefined && isObject(mine[map]))
      merged[map] = mergeMap(derived[map], mine[map], map === 'headers');
  if (derived.requests !== undefined && isObject(mine.requests)) {
    const requests: Record<string, unknown> = { ...derived.requests, ...mine.requests };
    for (const [group, settings] of Object.entries(derived.requests)) {
      const own = mine.requests[group];
      if (!settings || !isObject(own)) continue;
      const entry: Record<string, unknown> = { ...settings, ...own };
      for (const map of ['headers', 'query'] as const)
        if (settings[map] !== undefined && isObject(own[map]))
          entry[map] = mergeMap(settings[map], own[map], map === 'headers');
      requests[group] = entry;
    }
    merged.requests = requests;
  }
  return merged;
}
