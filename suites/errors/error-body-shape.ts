// ERR-BODY (warning): every 4xx/5xx carries a JSON body, and error bodies share one shape across the API.
import {
  defineCheck,
  NOT_JUDGED,
  type Exchange,
  type ExchangeGroup,
  type SummaryFinding,
} from '../../src/core/check.js';
import { isObject } from '../../src/core/shapes.js';
import { answered } from '../../src/core/verdicts.js';

/** Shapes named in a failure message before "and N more". */
const SHOWN_SHAPES = 4;

export default defineCheck({
  kind: 'observer',
  id: 'error-body-shape',
  reproduce: { kind: 'error-body' },
  rules: ['ERR-BODY'],
  suite: 'errors',
  title: 'Error answers carry a JSON body, in one shape across the API',
  severity: 'warning',
  messages: {
    emptyErrorBody: 'an error answer has an empty body',
    errorBodyNotJson: 'an error answer has a body that is not JSON',
    errorShapesDiffer: 'error bodies come in shapes with no top-level member in common',
  },
  description: {
    sends:
      'Nothing of its own: it judges every 4xx and 5xx answer the other checks provoke, on every resource and outside them (unknown collections and versions, missing credentials, malformed bodies...).',
    passes:
      'Every error answer (HEAD excepted) has a non-empty JSON body (application/json or any +json type, so application/problem+json passes), and all error bodies share at least one top-level member, whatever it holds, e.g. every body has an "error" member (an object in some, a string in others), every problem+json body has "type", "title" and "status", or FastAPI\'s "detail" is a string on a 404 and a list on a 422. Members beyond that common core are treated as optional: "detail" present in some problem+json bodies and absent in others, or an "errors" list only on validation failures, pass. A map of field names to lists of messages (Rails\' and Django REST framework\'s validation answers, {"price": ["must be a number"]}) is one shape whichever fields it names. Error bodies with no member in common (a gateway\'s {"message"} beside the application\'s {"error": {...}}) fail. Skipped on a resource that got no error answer.',
    why: 'Clients parse error bodies with one piece of code; an empty body, an HTML page or a second, unrelated shape (typically from a gateway or framework default in front of the application) leaves them with nothing to show or log.',
  },
  nothingToJudge: 'no 4xx or 5xx answer (with a body that could be read) was received',
  inspect(x) {
    if (!isErrorAnswer(x)) return NOT_JUDGED;
    if (x.text.trim() === '')
      return { messageId: 'emptyErrorBody', message: `${answered(x)} with an empty body` };
    if (!isJsonType(x.mediaType) || !x.isJson) {
      const type = x.headers['content-type'] ? `a ${x.mediaType} body` : 'a body without Content-Type';
      return { messageId: 'errorBodyNotJson', message: `${answered(x)} with ${type}, not JSON` };
    }
    return undefined;
  },
  group(x) {
    if (!isErrorAnswer(x) || !isJsonType(x.mediaType) || !x.isJson) return undefined;
    return shapeKey(x.json);
  },
  summarise(groups) {
    if (groups.length < 2) return [];
    const members = groups.map((g) => memberNames(g.key));
    const common = [...members[0]].filter((m) => members.every((set) => set.has(m)));
    if (common.length > 0) return [];
    const sorted = proofFirst([...groups].sort((a, b) => b.count - a.count));
    const shown = sorted.slice(0, SHOWN_SHAPES).map(describeGroup);
    if (sorted.length > SHOWN_SHAPES) shown.push(`and ${sorted.length - SHOWN_SHAPES} more shapes`);
    const finding: SummaryFinding<'errorShapesDiffer'> = {
      messageId: 'errorShapesDiffer',
      message: `error bodies come in ${groups.length} shapes with no top-level member in common: ${shown.join('; ')}`,
      evidence: sorted.slice(0, SHOWN_SHAPES).flatMap((g) => g.evidence.slice(0, 1)),
    };
    return [finding];
  },
});

/**
 * The groups (most common first) with, in front, the few that already share no member: the most
 * common shape and each next one that narrows what they share, until nothing is. Those are shown
 * first and are the evidence, so the exchanges named prove the finding on their own.
 */
function proofFirst(sorted: ExchangeGroup[]): ExchangeGroup[] {
  const proof: ExchangeGroup[] = [];
  let common: Set<string> | undefined;
  for (const g of sorted) {
    const members = memberNames(g.key);
    const next = common === undefined ? members : new Set([...common].filter((m) => members.has(m)));
    if (common === undefined || next.size < common.size) {
      proof.push(g);
      common = next;
    }
    if (common.size === 0) break;
  }
  return [...proof, ...sorted.filter((g) => !proof.includes(g))];
}

/**
 * The top-level member names of a shape key, without their JSON types: the rule asks error bodies
 * for the same top-level keys, whatever each holds (FastAPI's "detail" is a string on a 404 and a
 * list of problems on a 422).
 */
function memberNames(key: string): Set<string> {
  return new Set(
    key
      .split(',')
      .filter(Boolean)
      .map((m) => (m.startsWith('(') ? m : m.slice(0, m.lastIndexOf(':')))),
  );
}

/** A 4xx or 5xx answer whose body can be judged (HEAD carries none; a body cut at the cap cannot be parsed). */
function isErrorAnswer(x: Exchange): boolean {
  return x.status !== undefined && x.status >= 400 && x.status <= 599 && x.method !== 'HEAD' && !x.truncated;
}

function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** JSON type names as the message shows them. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The shape of a map of field names to their messages, whichever fields it names. */
const FIELD_MESSAGES = '(field messages)';

/** Members that make a body an error envelope, never a field of the resource. */
const ENVELOPE_MEMBERS = new Set(['error', 'errors', 'message', 'messages', 'detail', 'details']);

/**
 * A map of field names to lists of messages, the validation answer of Rails ({"price": ["must be
 * greater than or equal to 0"]}) and Django REST framework: one shape, whatever fields it names.
 */
function isFieldMessages(body: Record<string, unknown>): boolean {
  const entries = Object.entries(body);
  return (
    entries.length > 0 &&
    entries.every(
      ([k, v]) =>
        !ENVELOPE_MEMBERS.has(k.toLowerCase()) &&
        Array.isArray(v) &&
        v.length > 0 &&
        v.every((m) => typeof m === 'string'),
    )
  );
}

/**
 * The shape of an error body: its top-level members with their JSON types ("error:object,status:number"),
 * sorted; a body that is not an object is one pseudo-member ("(string)"), and so is a map of field
 * names to messages ("(field messages)").
 */
export function shapeKey(body: unknown): string {
  if (!isObject(body)) return `(${typeOf(body)})`;
  if (isFieldMessages(body)) return FIELD_MESSAGES;
  return Object.entries(body)
    .map(([k, v]) => `${k.replace(/[,:]/g, '_')}:${typeOf(v)}`)
    .sort()
    .join(',');
}

/** `{error: object} in 40 responses (400, 404 on widgets, orders)` */
function describeGroup(g: ExchangeGroup): string {
  const members =
    g.key === FIELD_MESSAGES
      ? 'a map of field names to messages ({"<field>": ["<message>"]})'
      : g.key.startsWith('(')
        ? `a bare JSON ${g.key.slice(1, -1)}`
        : `{${g.key
            .split(',')
            .filter(Boolean)
            .map((m) => m.replace(':', ': '))
            .join(', ')}}`;
  const where = g.resources.map((r) => (r === '' ? 'outside the declared resources' : r)).join(', ');
  const count = g.count === 1 ? '1 response' : `${g.count} responses`;
  return `${members} in ${count} (${g.statuses.join(', ')} on ${where})`;
}
