// What a failure's reproduction script tests: declared by the check with its failure (default: the statuses seen).

/**
 * What a reproduction script checks once it has replayed the failure's exchanges (its evidence, in
 * order, after creating the items they need). `at` indexes the failure's evidence (default: the
 * last exchange). The script prints `reproduced: <what it saw>` and exits 1 when the failure shows
 * again, `not reproduced: <what it saw>` and exits 0 otherwise.
 *
 * - `status` (the default): every replayed exchange answers the status the audit saw;
 * - `not-json`: the answer carries a body that is not JSON (media type, or it does not parse);
 * - `no-header`: the answer lacks a header (or, with `not`, its value does not match the pattern);
 * - `jq`: a jq filter over the answer's JSON body is true (`test`); `shows` prints what was seen;
 *   with `ok2xx`, only a 2xx answer counts (a schema finding is about 2xx bodies alone);
 * - `differ`: two answers' bodies differ, leaving out the members named in `ignore` (at any depth);
 * - `ids-differ`: two creates named different items;
 * - `in-list`: the item of exchange `item` (the one it created, else the one its URL names) is
 *   `absent` from every list answer at `lists` (or `present` in one) when the failure shows;
 * - `others-gone`: an item listed at `before` (besides the one `deleted` names) is gone at `after`;
 * - `shows`: no object in the answer at `at` shows the values of `sent` (members sent as null may
 *   be absent; arrays must match entry for entry);
 * - `new-items`: more than `expected` items are listed at `after` that were not at `before` (the
 *   new ones are deleted at the end through the resource named `delete`);
 * - `none`: the failure cannot be replayed by a script (`why` says so in the report);
 * - `burst`: at most `count` copies of the exchange at `at`, 50 at a time, judged as `judge` says;
 * - `base-url`: the base URL has no `/v<N>` segment (the failure is about the URL, not an answer);
 * - `error-body`: an error answer (4xx/5xx, not to HEAD) has an empty or non-JSON body, or the
 *   error answers share no top-level member of the same JSON type (observers: up to four of the
 *   result's exchanges are replayed, one per shape);
 * - `remembered`: the answer at `ok` is 2xx and the one at `refused` is not, where state stands in
 *   for credentials. `via: 'connection'`: exchange `ok` is sent right after exchange 0, by the same
 *   curl on its connection (every other exchange on a new one); `via: 'cookies'`: exchange 0 fills
 *   a cookie jar and exchange `ok` sends that jar in place of the cookies the audit sent (stale
 *   secrets: their values are neither replayed nor printed, only the cookies' names).
 * - `webhook`: a receiver (node) is subscribed as the audit subscribed its own (`receiverUrl`
 *   replaced), the exchange at `at` triggers the event, and `judge` says what shows the failure:
 *   `delivery`, no delivery of `event` within webhooks.timeoutMs; `signature`, the delivery (of
 *   `event`, else the first) carries no valid webhooks.signature.
 */
export type ReproCheck =
  | { kind: 'status' }
  | { kind: 'not-json'; at?: number }
  | { kind: 'no-header'; header: string; at?: number; not?: string }
  | { kind: 'jq'; test: string; shows: string; at?: number; ok2xx?: boolean }
  | { kind: 'differ'; at: [number, number]; ignore?: string[] }
  | { kind: 'ids-differ'; at: [number, number] }
  | { kind: 'in-list'; item: number; lists: number[]; fails: 'absent' | 'present' }
  | { kind: 'others-gone'; before: number; after: number; deleted: number; idField: string }
  | { kind: 'shows'; at: number; sent: unknown }
  | { kind: 'new-items'; before: number; after: number; expected: number; idField: string; delete: string }
  | { kind: 'none'; why: string }
  | { kind: 'burst'; at?: number; count: number; judge: BurstJudge; maxWaitMs?: number }
  | { kind: 'base-url' }
  | { kind: 'error-body' }
  | { kind: 'remembered'; via: 'connection' | 'cookies'; ok: number; refused: number }
  | { kind: 'webhook'; judge: 'delivery' | 'signature'; at: number; receiverUrl: string; event: string };

/**
 * What a burst shows: `other-refusal`: an answer other than the first one's status (2xx alike) or
 * 429; `no-429`: no 429 within the bound; `no-retry-header`: the first 429 carries no Retry-After
 * and no RateLimit header; `still-limited`: a retry after the wait the 429 advertised (bounded by
 * `maxWaitMs`) is still answered 429; `server-error`: an answer of the burst is 5xx (ERR-SERVER on
 * an answer the audit's burst met).
 */
export type BurstJudge = 'other-refusal' | 'no-429' | 'no-retry-header' | 'still-limited' | 'server-error';

/**
 * How the audit was started, so that a failure can say how to run its check again alone: the
 * command (`['conformance', 'demo']`) and the words of the options that shape the audit (config,
 * base URL, breaks, TLS, timeouts...), unquoted. Never a secret's value: credentials stay in the
 * environment variables the config reads, as in the curl lines.
 */
export interface Invocation {
  command: string[];
  options: string[];
  /**
   * Said in each script beside `BASE_URL`'s default when the audited API does not outlive the
   * audit (the demo's, without --serve): how to keep one answering for the script.
   */
  baseUrlNote?: string;
}

/** The invocation of an audit started by code rather than the CLI. */
export const DEFAULT_INVOCATION: Invocation = { command: ['conformance', 'run'], options: [] };

/** A jq path expression (`.["data"]["id"]`) for a JSON pointer's tokens. */
export function jqPath(tokens: ReadonlyArray<string | number>): string {
  if (tokens.length === 0) return '.';
  return tokens
    .map((t) => (typeof t === 'number' ? `[${t}]` : `[${JSON.stringify(t)}]`))
    .join('')
    .replace(/^/, '.');
}
