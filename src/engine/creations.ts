// The items the audit created, with the request that made each and where its answer named it: reproduction scripts create them again.
import type { Exchange } from '../core/check.js';
import type { Evidence } from '../core/types.js';
import { evidenceLater } from '../http/exchange.js';

/** Where a create's answer named the new item: a path into its JSON body, or its Location header. */
export type NamedAt = { body: Array<string | number> } | 'location';

/** One item the audit created (adopted as new). */
export interface Creation {
  resource: string;
  /** Item path relative to the base URL. */
  path: string;
  id: string;
  /** Order of creation in the run (a script creates its items in the same order). */
  seq: number;
  /** The create's evidence (the request a script sends again). */
  evidence: Evidence;
  namedAt: NamedAt;
}

/** Answers up to this many characters keep their exchange and make their evidence only when asked. */
const LAZY_UP_TO = 8 * 1024;

/** How deep the search for the id in a create's answer goes. */
const DEPTH = 6;

/** Every item the audit created, by item path and by the evidence of its create. */
export class Creations {
  private readonly byPath = new Map<string, Creation>();
  private readonly byEvidence = new WeakMap<Evidence, Creation>();
  /** Creations not yet in `byEvidence`: their evidence is made only when a reproduction asks. */
  private unindexed: Creation[] = [];
  /** Per resource: where the first adopted create named its item (POSTs the audit did not adopt). */
  private readonly firstNamedAt = new Map<string, NamedAt>();
  private seq = 0;

  /** Records an adopted create; `fromBody`: the id came from the body (else from Location). */
  note(resource: string, path: string, id: string, x: Exchange, fromBody: boolean, idField: string): void {
    const found = fromBody ? pathTo(x.json, id, idField) : undefined;
    const namedAt: NamedAt = found ? { body: found } : 'location';
    // The evidence is the exchange's, made when first read: building (and redacting) it for every
    // create was a part of each run's CPU, and only a failure's reproduction reads it. What it is
    // made from is kept, not the exchange (its parsed body: 19,000 creates of an API of 1,000
    // resources held 100 MB). A large answer gets its evidence now, so that its body is not kept.
    const evidence = x.text.length > LAZY_UP_TO ? x.evidence : undefined;
    const later = evidence ? () => evidence : evidenceLater(x);
    const creation: Creation = {
      resource,
      path,
      id,
      seq: this.seq++,
      get evidence() {
        return later();
      },
      namedAt,
    };
    this.byPath.set(path, creation);
    this.unindexed.push(creation);
    if (!this.firstNamedAt.has(resource)) this.firstNamedAt.set(resource, namedAt);
  }

  /** The creation of the item at this path, if the audit created it. */
  of(path: string): Creation | undefined {
    return this.byPath.get(path);
  }

  /** The creation this evidence is the create of, if it is one. */
  made(evidence: Evidence): Creation | undefined {
    for (const creation of this.unindexed) this.byEvidence.set(creation.evidence, creation);
    this.unindexed = [];
    return this.byEvidence.get(evidence);
  }

  /** Where creates in the resource name their item (from the first adopted one), if any was. */
  namedAt(resource: string): NamedAt | undefined {
    return this.firstNamedAt.get(resource);
  }
}

/** The path to the id in a JSON value: the shallowest member holding it, `idField` members first. */
function pathTo(json: unknown, id: string, idField: string): Array<string | number> | undefined {
  let level: Array<{ node: unknown; path: Array<string | number> }> = [{ node: json, path: [] }];
  for (let depth = 0; depth < DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    const hits: Array<Array<string | number>> = [];
    for (const { node, path } of level) {
      if (Array.isArray(node)) node.slice(0, 3).forEach((v, i) => next.push({ node: v, path: [...path, i] }));
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if ((typeof v === 'string' || typeof v === 'number') && String(v) === id) hits.push([...path, k]);
          else next.push({ node: v, path: [...path, k] });
        }
      }
    }
    if (hits.length > 0) return hits.find((p) => p[p.length - 1] === idField) ?? hits[0];
    level = next;
  }
  return undefined;
}
