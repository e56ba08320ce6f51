// Looking a resource up by name in time that does not grow with the number of resources.

/** Per list: its length when indexed, and the first entry of each name (what a scan in order finds). */
const indexes = new WeakMap<readonly object[], { length: number; byName: Map<string, unknown> }>();

/**
 * The first entry of `list` with the name, as `list.find((x) => x.name === name)` would return it,
 * from an index built once per list: lookups run per task, per exchange and per ledger entry, so a
 * scan would make an API of thousands of resources quadratic. A list is indexed as it is when first
 * asked (and again if its length changes): lists are replaced, not changed in place, during a run.
 */
export function named<T extends { name: string }>(
  list: readonly T[],
  name: string | undefined,
): T | undefined {
  if (name === undefined) return undefined;
  let index = indexes.get(list);
  if (index?.length !== list.length) {
    const byName = new Map<string, unknown>();
    for (const x of list) if (!byName.has(x.name)) byName.set(x.name, x);
    index = { length: list.length, byName };
    indexes.set(list, index);
  }
  return index.byName.get(name) as T | undefined;
}
