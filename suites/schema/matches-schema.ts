// DOC-SCHEMA: every item (and every element of a list) the audit receives matches the declared schema.
import { basePathOf, TargetIndex } from '../../src/core/addressing.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { defineCheck, NOT_JUDGED, type Exchange, type RunMemory } from '../../src/core/check.js';
import type { AuditConfig, Evidence, ResourceConfig } from '../../src/core/types.js';
import { compileItemSchema } from '../support/http.js';
import { idOf, isObject, unwrapItemLoose, unwrapList } from '../../src/core/shapes.js';
import { answered } from '../../src/core/verdicts.js';
import { pointerGet } from '../../src/core/pointer.js';
import type { ReproCheck } from '../../src/core/reproduce.js';
import { schemaRepro } from '../support/schema-repro.js';
import { TextMemo } from '../support/text-memo.js';

/** Errors quoted per response: enough to fix the first problems, short enough to read. */
const MAX_ERRORS = 3;

/** Compiled schemas, by schema object (a config is loaded once per run; compiling is the slow part). */
const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = compileItemSchema(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The index of a config's resources by URL, per resources list (a run's config is not changed in place). */
const indexes = new WeakMap<object, { baseUrl: string; length: number; index: TargetIndex }>();

/** The config's resources indexed by URL (every exchange is looked up); undefined for a base URL that does not parse. */
function indexOf(config: AuditConfig): TargetIndex | undefined {
  const known = indexes.get(config.resources);
  if (known?.baseUrl === config.baseUrl && known.length === config.resources.length) return known.index;
  let basePath: string;
  try {
    basePath = basePathOf(config.baseUrl);
  } catch {
    return undefined;
  }
  const index = new TargetIndex(config.resources, basePath);
  indexes.set(config.resources, { baseUrl: config.baseUrl, length: config.resources.length, index });
  return index;
}

/** What a response body holds for the resource it came from: one item, a list, or nothing to judge. */
type Representation = { resource: ResourceConfig; kind: 'item' | 'list' };

/**
 * Which resource's item or list an exchange's answer represents, from its URL and method:
 * GET collection (list); POST collection (the created item); GET, PUT, PATCH item.
 */
export function representationOf(x: Exchange, config: AuditConfig): Representation | undefined {
  const target = indexOf(config)?.find(x.url);
  if (!target) return undefined;
  const resource = target.r;
  if (target.id === undefined) {
    if (x.method === 'GET') return { resource, kind: 'list' };
    if (x.method === 'POST') return { resource, kind: 'item' };
    return undefined;
  }
  return ['GET', 'PUT', 'PATCH'].includes(x.method) ? { resource, kind: 'item' } : undefined;
}

/** JSON pointer of `target` inside `root` (found by identity), '' for the root itself. */
function pointerTo(root: unknown, target: unknown, at = ''): string | undefined {
  if (root === target) return at;
  if (Array.isArray(root) || isObject(root)) {
    for (const [key, value] of Object.entries(root)) {
      if (value === null || typeof value !== 'object') continue;
      const found = pointerTo(value, target, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** "a string", "an array", "null": how a value's JSON type is named in a sentence. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'undefined') return 'nothing';
  return `a ${typeof value}`;
}

/**
 * One ajv error in plain words first ("/createdAt is missing: the schema requires it"), then, as
 * CONVENTIONS asks, the keyword and where the schema says it; pointers are relative to the body.
 */
function describeError(error: ErrorObject, prefix: string, value: unknown): string {
  const pointer = `${prefix}${error.instancePath}` || '/';
  const field = (name: string) =>
    `${prefix}${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const params = error.params as Record<string, unknown>;
  const where = `(keyword "${error.keyword}" at ${error.schemaPath})`;
  const actual = pointerGet(value, error.instancePath);
  switch (error.keyword) {
    case 'required':
      return `${field(String(params.missingProperty))} is missing: the schema requires it ${where}`;
    case 'additionalProperties':
      return `${field(String(params.additionalProperty))} is a field the schema does not declare, and it allows no others ${where}`;
    case 'type':
      return `${pointer} is ${kindOf(actual)}, the schema wants ${String(params.type).replace(/,/g, ' or ')} ${where}`;
    case 'enum':
      return `${pointer} is ${JSON.stringify(actual)}, the schema allows only ${JSON.stringify(params.allowedValues)} ${where}`;
    default:
      return `${pointer}: ${error.message ?? 'is invalid'} ${where}`;
  }
}

/** Characters of body text remembered in a run, at most, and the longest body remembered. */
const MEMO_BODY_BUDGET = 4 * 1024 * 1024;
const MEMO_BODY_CHARS = 16 * 1024;
/** Characters of items (as JSON) remembered in a run, at most. */
const MEMO_ITEM_BUDGET = 2 * 1024 * 1024;
/** Failing item reads remembered in a run, each counted as this many characters (a small read is kept whole). */
const LAZY_READ_CHARS = 8192;
const MEMO_READ_BUDGET = 1024 * LAZY_READ_CHARS;
const VERDICTS = 'verdicts already reached';

/**
 * Verdicts already reached in a run: by body text, and by item (as JSON), each key prefixed with
 * its resource's (the schema differs). The audit reads the same collection and items again and
 * again (every state comparison does), and validating each element each time was a large part of
 * its CPU. A body is judged from its text alone, so the same text gets the same problems. The
 * bound is the run's, least recently used first out: per resource, an API of 1,000 resources
 * kept 1,000 times as much (30 MB of bodies after a run of the bench's 1,000 resources).
 */
interface Memo {
  bodies: TextMemo<Verdict | typeof NOT_JUDGED>;
  items: TextMemo<ErrorObject[] | null>;
  /** Item reads that broke the schema, for the list findings' scripts (see readsBefore). */
  reads: TextMemo<() => Evidence>;
  prefixes: Map<ResourceConfig, string>;
}

function memoOf(memory: RunMemory): Memo {
  return memory.remember<Memo>(VERDICTS, () => ({
    bodies: new TextMemo(MEMO_BODY_BUDGET),
    items: new TextMemo(MEMO_ITEM_BUDGET),
    reads: new TextMemo(MEMO_READ_BUDGET, LAZY_READ_CHARS),
    prefixes: new Map(),
  }));
}

/** The start of a key of the resource's verdicts. */
function prefixOf(memo: Memo, resource: ResourceConfig): string {
  let prefix = memo.prefixes.get(resource);
  if (prefix === undefined) memo.prefixes.set(resource, (prefix = `${memo.prefixes.size}:`));
  return prefix;
}

/** An answer's problems, and what the script of its finding tests (the first problem). */
interface Verdict {
  problems: string[];
  reproduce?: ReproCheck;
  /** The ids of the items that break the schema (the item read; a list's elements). */
  ids?: string[];
}

/**
 * What a list finding needed before it: the audit's read of an element that broke the schema the
 * same way (what a list shows of an item may be what reading it changed, e.g. a view counter).
 * Such reads are remembered by resource and id for the run, the most recent first kept.
 */
function readsBefore(x: Exchange, what: Representation, verdict: Verdict, memo: Memo): Evidence[] {
  const prefix = prefixOf(memo, what.resource);
  if (what.kind === 'item') {
    const id = verdict.ids?.[0];
    if (x.method !== 'GET' || id === undefined || verdict.problems.length === 0) return [];
    // Evidence is built (and redacted) only when a script reads it; a large body's now, so that
    // the memo does not hold the whole body (its closure keeps the evidence, not the exchange).
    const now = x.text.length > LAZY_READ_CHARS ? x.evidence : undefined;
    memo.reads.set(`${prefix}${id}`, now ? () => now : () => x.evidence);
    return [];
  }
  const read = verdict.ids?.map((id) => memo.reads.get(`${prefix}${id}`)).find((e) => e !== undefined);
  return read ? [read()] : [];
}

/** The problems of an answer (NOT_JUDGED: nothing in it to judge), from the memo when its body was seen. */
function memoised(x: Exchange, what: Representation, memo: Memo): Verdict | typeof NOT_JUDGED {
  // Only whole bodies (a large one keeps an excerpt as text); a write and a read of the same body
  // differ (an acknowledgement carrying only the id is judged on reads alone).
  if (x.truncated || x.text.length > MEMO_BODY_CHARS) return judge(x, what, memo);
  const key = `${prefixOf(memo, what.resource)}${what.kind}${x.method === 'GET' ? 'r' : 'w'}${x.text}`;
  const known = memo.bodies.get(key);
  if (known !== undefined) return known;
  const verdict = judge(x, what, memo);
  memo.bodies.set(key, verdict);
  return verdict;
}

/** The schema errors of one item (null: it matches), from the memo when an equal item was judged. */
function itemErrors(
  validate: ValidateFunction,
  item: unknown,
  memo: Memo,
  prefix: string,
): ErrorObject[] | null {
  const key = `${prefix}${JSON.stringify(item) ?? ''}`;
  const known = memo.items.get(key);
  if (known !== undefined) return known;
  const errors = validate(item) ? null : (validate.errors ?? []);
  memo.items.set(key, errors);
  return errors;
}

/** The problems of an answer: each error in words, pointers relative to the body; NOT_JUDGED: nothing to judge. */
function judge(x: Exchange, what: Representation, memo: Memo): Verdict | typeof NOT_JUDGED {
  const validate = validatorFor(what.resource.schema as Record<string, unknown>);
  const own = prefixOf(memo, what.resource);
  const problems: string[] = [];
  let reproduce: ReproCheck | undefined;
  const ids: string[] = [];
  let judged = 0;
  if (what.kind === 'list') {
    const list = unwrapList(x.json, what.resource.name);
    if (!list) return NOT_JUDGED; // not a list at all: MTH-READ's business, not the schema's
    const prefix = pointerTo(x.json, list) ?? '';
    list.forEach((element, i) => {
      judged++;
      const errors = itemErrors(validate, element, memo, own) ?? [];
      const id = errors.length > 0 ? idOf(element, what.resource.idField) : undefined;
      if (id !== undefined) ids.push(id);
      for (const e of errors) {
        reproduce ??= schemaRepro(e, { kind: 'list', pointer: prefix });
        problems.push(describeError(e, `${prefix}/${i}`, element));
      }
    });
  } else {
    // An item read through a query filter that matched nothing is an empty list: no item to judge.
    if (Array.isArray(x.json) && x.json.length === 0) return NOT_JUDGED;
    const item = unwrapItemLoose(x.json, what.resource.idField) ?? x.json;
    // A create/change answer may be an acknowledgement carrying just the id: not a representation.
    const keys = isObject(item) ? Object.keys(item) : undefined;
    if (x.method !== 'GET' && keys && keys.every((k) => k === what.resource.idField)) return NOT_JUDGED;
    judged++;
    const errors = itemErrors(validate, item, memo, own);
    if (errors) {
      const prefix = pointerTo(x.json, item) ?? '';
      reproduce = errors[0] && schemaRepro(errors[0], { kind: 'item', pointer: prefix });
      const id = idOf(item, what.resource.idField);
      if (id !== undefined) ids.push(id);
      for (const e of errors) problems.push(describeError(e, prefix, item));
    }
  }
  if (judged === 0) return NOT_JUDGED; // an empty list holds nothing to validate
  return { problems, ids, ...(reproduce ? { reproduce } : {}) };
}

export default defineCheck({
  kind: 'observer',
  id: 'matches-schema',
  rules: ['DOC-SCHEMA'],
  suite: 'schema',
  title: 'Items and lists match the declared schema',
  severity: 'error',
  messages: {
    schemaMismatch: 'a representation or list does not match the resource schema',
  },
  description: {
    sends:
      'Nothing of its own: it validates every 2xx body the audit receives that represents an item (GET, PUT, PATCH of an item; the answer to a POST on the collection) or a list (GET of the collection, each element), for resources with a `schema`.',
    passes:
      'ajv finds no error. Items and lists are unwrapped from the usual envelopes ({"data": ...}, {"items": [...]}, paging fields) first. A create or change answer that carries only the id (or nothing) is not a representation and is not judged. Skipped on a resource with no schema, or where no 2xx answer carried an item or a non-empty list.',
    why: 'Clients generate code and write parsers from the declared schema; a field of the wrong type, a missing required field or an undeclared one breaks them at run time.',
  },
  skipReason(resource, config) {
    if (resource) return resource.schema ? undefined : `${resource.name} declares no schema`;
    return config.resources.some((r) => r.schema) ? undefined : 'no resource declares a schema';
  },
  nothingToJudge: 'no 2xx answer carried an item or a list of this resource to validate',
  inspect(x, config, memory) {
    if (x.status === undefined || x.status < 200 || x.status > 299 || !x.isJson) return NOT_JUDGED;
    const what = representationOf(x, config);
    if (!what?.resource.schema) return NOT_JUDGED;
    const memo = memoOf(memory);
    const verdict = memoised(x, what, memo);
    if (verdict === NOT_JUDGED) return NOT_JUDGED;
    const { problems } = verdict;
    const before = readsBefore(x, what, verdict, memo);
    if (problems.length === 0) return undefined;
    // A list's script replays the read it needed first; its test looks at the last exchange, the list.
    const { reproduce } = verdict;
    const shown = problems.slice(0, MAX_ERRORS);
    const more = problems.length > MAX_ERRORS ? `, and ${problems.length - MAX_ERRORS} more` : '';
    return {
      messageId: 'schemaMismatch',
      message: `${answered(x)} with a ${what.kind === 'list' ? 'list' : 'representation'} that does not match the ${what.resource.name} schema: ${shown.join('; ')}${more}`,
      // Its script fetches the same URL and tests the first violation with jq, on a 2xx answer.
      ...(reproduce ? { reproduce } : {}),
      ...(before.length > 0 ? { before } : {}),
    };
  },
});
