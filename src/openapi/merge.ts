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
  if (out.resources !== undefined && !Array.isArray(out.resources)) return out;
  const own = (out.resources as unknown[] | undefined) ?? [];
  const trim = (path: unknown): unknown => (typeof path === 'string' ? path.replace(/(.)\/+$/, '$1') : path);
  const taken = new Set<DerivedResource>();
  const merged = own.map((resource) => {
    if (!isObject(resource)) return resource;
    const match =
      derived.resources.find((d) => !taken.has(d) && d.name === resource.name) ??
      derived.resources.find((d) => !taken.has(d) && d.path === trim(resource.path));
    if (!match) return resource;
    taken.add(match);
    return { ...resourceFields(match), ...resource };
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
