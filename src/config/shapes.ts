// Config checks of the resources' shapes: item templates, createdIdFrom, parents and their placeholders.
import type { ResourceConfig } from '../core/types.js';
import { ID, itemTemplate, placeholders } from '../core/addressing.js';
import { dotSegmentProblem } from '../core/dot-segments.js';
import type { Segment } from './problems.js';
import { didYouMean } from './suggest.js';

type Report = (path: Segment[], message: string) => void;

/** The parent chain of a resource, nearest first (stops at an unknown name or a cycle). */
export function ancestors(r: ResourceConfig, all: readonly ResourceConfig[]): ResourceConfig[] {
  const out: ResourceConfig[] = [];
  let at = r;
  while (at.parent !== undefined) {
    const parent = all.find((p) => p.name === at.parent);
    if (!parent || parent === r || out.includes(parent)) break;
    out.push(parent);
    at = parent;
  }
  return out;
}

/**
 * Checks the shape keys of every resource (already built): each problem names its path in the
 * file. `item` must hold `{id}` once, with no fragment, spaces or dot segments; `path` must not
 * hold `{id}`; a `parent` must exist and not lead back to the resource; the other placeholders of
 * `path` and `item` are the ancestors' ids, outermost first, as many as the parent chain is deep.
 */
export function checkShapes(resources: readonly ResourceConfig[], problem: Report): void {
  const names = resources.map((r) => r.name);
  resources.forEach((r, index) => {
    const at = (key: string): Segment[] => ['resources', index, key];
    if (r.item !== undefined) {
      const ids = placeholders(r.item).filter((p) => p === ID).length;
      if (ids !== 1) {
        problem(
          at('item'),
          `must hold {id} exactly once, where the item's id goes (got ${JSON.stringify(r.item)})`,
        );
      }
      if (/[#\s]/.test(r.item)) {
        problem(
          at('item'),
          `must be a path (and query), without fragment or spaces (got ${JSON.stringify(r.item)})`,
        );
      }
      const dots = dotSegmentProblem(r.item.split('?')[0]);
      if (dots !== undefined) problem(at('item'), dots);
    }
    if (placeholders(r.path).includes(ID)) {
      problem(at('path'), 'is the collection: {id} belongs in item, not in path');
    }
    if (r.parent !== undefined && !names.includes(r.parent)) {
      problem(at('parent'), `unknown resource "${r.parent}"${didYouMean(r.parent, names)}`);
      return;
    }
    if (r.parent !== undefined && cycles(r, resources)) {
      problem(
        at('parent'),
        `"${r.parent}" leads back to ${r.name}: a parent chain must end at a resource without parent`,
      );
      return;
    }
    if (r.parentId !== undefined && r.parent === undefined) {
      problem(at('parentId'), 'needs parent: it is the id of an item of the parent resource');
    }
    const depth = ancestors(r, resources).length;
    for (const [key, template] of [
      ['path', r.path],
      ['item', itemTemplate(r)],
    ] as const) {
      const named = placeholders(template).filter((p) => p !== ID);
      if (named.length !== depth) {
        const chain = ancestors(r, resources)
          .map((a) => a.name)
          .reverse()
          .join(' > ');
        problem(
          at(key),
          depth === 0
            ? `names ${named.map((n) => `{${n}}`).join(', ')} but ${r.name} has no parent: declare parent, or remove the placeholder`
            : `must name ${depth} ancestor id${depth > 1 ? 's' : ''} (${chain}), outermost first, besides {id}; it names ${named.length}`,
        );
      } else if (key === 'item' && named.join() !== placeholders(r.path).join()) {
        problem(
          at('item'),
          `must name the same ancestor ids as path, in the same order (${placeholders(r.path).join(', ')})`,
        );
      }
      if (new Set(named).size !== named.length) problem(at(key), 'names one placeholder twice');
    }
  });
}

/** True when following `parent` from r comes back to r. */
function cycles(r: ResourceConfig, all: readonly ResourceConfig[]): boolean {
  const seen = new Set<string>([r.name]);
  let at: ResourceConfig | undefined = r;
  while (at?.parent !== undefined) {
    if (seen.has(at.parent)) return true;
    seen.add(at.parent);
    at = all.find((p) => p.name === at!.parent);
  }
  return false;
}
