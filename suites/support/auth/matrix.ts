// Runs the auth matrix: harmless probes together, then the writes together with the state read around them (ctx.state.batch).
import { SkipSignal, type Exchange, type ResourceCheckContext } from '../../../src/core/check.js';
import type { Snapshot } from '../../../src/core/state.js';
import { existence } from '../../../src/core/error-body.js';
import { is2xx } from '../../../src/core/verdicts.js';
import type { Credential } from './credentials.js';
import { allowedReadOnly, mayAct, requestOf, type Probe } from './probes.js';
import { describeChange, pathOf, readCreated, readExisting } from './state.js';

/** One request of the matrix and what came of it. */
export interface Outcome {
  probe: Probe;
  credential: Credential;
  exchange: Exchange;
  /** Proof that the request acted: what changed, and the reads (full token) that show it. */
  acted?: { changes: string[]; evidence: Exchange[] };
}

export interface MatrixResult {
  outcomes: Outcome[];
  /** A change found at the end that no unrefused answer explains (a refusal that still acted). */
  unexplained?: { changes: string[]; evidence: Exchange[] };
  /** Why the state around some write could not be compared (a read cut short), if it could not. */
  incomparable?: string;
  /** Why the unknown-id probes were left out (the item URL shape is not served), if they were. */
  notJudged?: string;
}

export interface MatrixOptions {
  credentials: Credential[];
  probes: Probe[];
  /** The status that refuses correctly (401, or 403 for the limited token). */
  expected: number;
  /**
   * Read the state back after every write, even a correctly refused one (AUTH-FORBIDDEN: a 403
   * that still acted). Otherwise only after an answer that is not the expected refusal, plus
   * once at the end.
   */
  verifyRefused: boolean;
}

/** Writes run in this order per credential, DELETE last so the item is there for the others. */
const WRITE_ORDER = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Sends every probe with every credential (as --read-only allows) and proves which writes acted. */
export async function runMatrix(ctx: ResourceCheckContext, options: MatrixOptions): Promise<MatrixResult> {
  const r = ctx.resource;
  const all = options.credentials.flatMap((credential) =>
    options.probes.map((probe) => ({ probe, credential })),
  );
  let pairs = ctx.readOnly ? all.filter((p) => allowedReadOnly(p.probe, p.credential.carriesToken)) : all;
  const result: MatrixResult = { outcomes: [] };
  const paths: { known?: string; unknown?: string } = {};
  if (pairs.some((p) => p.probe.target === 'known') && !ctx.canCreate()) {
    // No item of the audit's own: reads may go to an existing item, writes never do.
    paths.known = (await ctx.items(1, { atLeast: 0 }))[0]?.path;
    pairs = pairs.filter((p) => p.probe.target !== 'known' || (p.probe.method === 'GET' && paths.known));
  }
  if (pairs.some((p) => p.probe.target === 'unknown')) {
    // Item probes only where the item URL shape is served: elsewhere any answer proves nothing.
    const unserved = await ctx.itemUrlServed();
    if (unserved !== undefined) {
      pairs = pairs.filter((p) => p.probe.target === 'collection');
      result.notJudged = unserved;
    }
  }
  if (pairs.length === 0) return result;
  if (pairs.some((p) => p.probe.target === 'unknown')) paths.unknown = ctx.itemPath(await ctx.unknownId());
  const send = (pair: Pair): Promise<Exchange> =>
    ctx.send({ ...requestOf(pair.probe, r, paths), auth: pair.credential.auth });

  // 1. Probes that cannot change data the audit watches: reads, and writes to an id never issued.
  const early = pairs.filter((p) => !mayAct(p.probe) && p.probe.target !== 'known');
  result.outcomes.push(
    ...(await ctx.together(early, async (pair) => {
      const outcome: Outcome = { ...pair, exchange: await send(pair) };
      const { method } = pair.probe;
      if (is2xx(outcome.exchange) && paths.unknown && (method === 'PUT' || method === 'PATCH')) {
        // Accepted on an id never issued: did it create the item (an upsert)? Then cleanup must
        // remove it. Only a read that shows an item proves it: a 200 {"error": "not found"} does not.
        const read = await readExisting(ctx, paths.unknown);
        if (read) {
          ctx.track(paths.unknown, r.name);
          outcome.acted = {
            changes: [`it created ${pathOf(read)} (readable with the full token)`],
            evidence: [read],
          };
        }
      }
      return outcome;
    })),
  );

  // 2. An item of the audit's own for the known-id probes (ctx.create skips the check if the service fails it).
  if (paths.known === undefined && pairs.some((p) => p.probe.target === 'known')) {
    try {
      paths.known = (await ctx.create()).path;
    } catch (err) {
      if (!(err instanceof SkipSignal) || !ctx.unnamedCreate()) throw err;
      // Creates there name no id (the audit makes no more): reads go to a listed item, writes to none.
      paths.known = (await ctx.items(1, { atLeast: 0 }))[0]?.path;
      pairs = pairs.filter((p) => p.probe.target !== 'known' || (p.probe.method === 'GET' && paths.known));
    }
  }
  const reads = pairs.filter((p) => p.probe.target === 'known' && !mayAct(p.probe));
  result.outcomes.push(
    ...(await ctx.together(reads, async (pair) => ({ ...pair, exchange: await send(pair) }))),
  );

  // 3. Writes that could act, together, the state read before and after: when it changed, they
  // run again one at a time on a fresh item so each change is pinned on the request that made it.
  const writes = options.credentials.flatMap((credential) =>
    pairs
      .filter((p) => p.credential === credential && mayAct(p.probe))
      .sort((a, b) => WRITE_ORDER.indexOf(a.probe.method) - WRITE_ORDER.indexOf(b.probe.method)),
  );
  if (writes.length === 0) return result;
  const watch = (): Snapshot['watch'] => ({ items: paths.known ? [paths.known] : [] });
  const knownWrites = (rest: readonly Pair[]): boolean => rest.some((p) => p.probe.target === 'known');
  const batch = await ctx.state.batch(writes, {
    watch,
    send,
    // A correct refusal is compared only where it could hide an effect (403); the rest at the end.
    compares: (_pair, x) => x.status !== options.expected || options.verifyRefused,
    fresh: async () => {
      if (paths.known !== undefined && knownWrites(writes)) paths.known = (await ctx.create()).path;
    },
    renew: async (after, rest) => {
      // The known item is gone: the remaining known-id probes need another one.
      const item = after.items[0]?.read;
      if (!knownWrites(rest) || !paths.known || !item || existence(item, r) === 'exists') return false;
      paths.known = (await ctx.create()).path;
      return true;
    },
  });
  for (const { step, result: exchange, diff } of batch.steps) {
    const outcome: Outcome = { ...step, exchange };
    result.outcomes.push(outcome);
    if (diff === undefined) continue;
    const change = describeChange(r, diff);
    let { changes, evidence } = change;
    result.incomparable ??= change.incomparable;
    if (step.probe.method === 'POST' && is2xx(exchange)) {
      const created = await readCreated(ctx, exchange);
      if (created) {
        changes = [`it created ${pathOf(created)} (readable with the full token)`, ...changes];
        evidence = [created];
      }
    }
    if (changes.length > 0) outcome.acted = { changes, evidence };
  }
  const baseline = batch.last;
  if (!options.verifyRefused) {
    const final = await ctx.state.read(baseline.watch);
    const change = describeChange(r, await ctx.state.compare(baseline, final));
    if (change.changes.length > 0) result.unexplained = change;
    result.incomparable ??= change.incomparable;
  }
  return result;
}

type Pair = { probe: Probe; credential: Credential };
