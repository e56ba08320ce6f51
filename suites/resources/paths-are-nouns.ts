// RES-NOUN: declared paths name things, not actions (no verb as a segment or a segment's first word).
import { defineCheck, type Exchange } from '../../src/core/check.js';
import { basePathOf } from '../../src/core/addressing.js';
import type { Evidence } from '../../src/core/types.js';

/**
 * Words that are verbs wherever they start a path segment: flagged as the whole segment and as
 * the first word of a compound (`getWidgetById`, `create-order`, `send_email`).
 */
const VERBS = new Set([
  'get', 'create', 'fetch', 'retrieve', 'remove', 'modify', 'make', 'find', 'do', 'add', 'put', 'insert',
  'upsert', 'reset', 'show', 'compute', 'calculate', 'generate', 'execute', 'perform', 'invoke', 'submit',
  'send', 'resend', 'notify', 'validate', 'verify', 'enable', 'disable', 'activate', 'deactivate',
  'approve', 'accept', 'decline', 'reject', 'confirm', 'cancel', 'assign', 'unassign', 'destroy', 'erase',
  'purge', 'clear', 'flush', 'subscribe', 'unsubscribe', 'publish', 'unpublish', 'convert', 'transform',
  'translate', 'render', 'parse', 'install', 'uninstall', 'restore', 'unlock', 'unblock', 'increment',
  'decrement', 'apply', 'manage', 'buy', 'sell', 'rename', 'clone', 'retry', 'restart', 'rerun', 'suspend',
  'capture', 'finalize', 'finalise', 'authenticate', 'authorize', 'authorise', 'evaluate', 'predict',
  'classify', 'detect', 'analyze', 'analyse', 'summarize', 'summarise', 'extract', 'recognize', 'calc',
]); // prettier-ignore

/**
 * Words that are verbs but also common nouns (`update`, `search`, `list`, `export`...): flagged as
 * the whole segment and as the first word of a compound, unless the next word shows the compound
 * is a noun (`search-results`, `change-requests`, `check-runs`, `export-jobs`).
 */
const NOUN_VERBS = new Set([
  'update', 'delete', 'list', 'set', 'search', 'edit', 'change', 'save', 'load', 'read', 'write', 'query',
  'lookup', 'check', 'run', 'start', 'stop', 'export', 'import', 'upload', 'download', 'sync', 'view',
  'process', 'copy', 'move', 'display', 'print', 'build', 'deploy', 'refresh', 'register', 'login', 'logout',
  'signin', 'signout', 'signup', 'follow', 'invite', 'close', 'pay', 'mark', 'merge', 'split', 'upgrade',
  'downgrade', 'toggle', 'trigger', 'resume', 'pause', 'estimate', 'preview',
]); // prettier-ignore

/** Second words after which a noun-verb is a noun adjunct: the compound names a thing. */
const NOUN_HEADS = new Set([
  'request', 'requests', 'result', 'results', 'receipt', 'receipts', 'replica', 'replicas', 'history',
  'histories', 'log', 'logs', 'event', 'events', 'attempt', 'attempts', 'session', 'sessions', 'job', 'jobs',
  'task', 'tasks', 'policy', 'policies', 'window', 'windows', 'channel', 'channels', 'index', 'indexes',
  'indices', 'engine', 'engines', 'term', 'terms', 'query', 'queries', 'template', 'templates', 'format',
  'formats', 'limit', 'limits', 'url', 'urls', 'target', 'targets', 'config', 'configs', 'configuration',
  'configurations', 'rule', 'rules', 'summary', 'summaries', 'schedule', 'schedules', 'run', 'runs', 'suite',
  'suites', 'set', 'sets', 'definition', 'definitions', 'instance', 'instances', 'artifact', 'artifacts',
  'balancer', 'balancers', 'point', 'points', 'time', 'times', 'date', 'dates', 'period', 'periods', 'rate',
  'rates', 'stub', 'stubs', 'grade', 'grades', 'key', 'keys', 'token', 'tokens', 'link', 'links', 'code',
  'codes', 'reason', 'reasons', 'status', 'statuses',
]); // prettier-ignore

/** Plural particles: a verb followed by one names a thing (`add-ons`, `check-ins`, `sign-ups`, `write-offs`). */
const PLURAL_PARTICLES = new Set([
  'ons',
  'ins',
  'ups',
  'outs',
  'offs',
  'overs',
  'downs',
  'backs',
  'throughs',
]);

/** Singular noun compounds that start with a verb. */
const NOUN_COMPOUNDS = new Set(['add on', 'check in', 'follow up', 'get together', 'set up', 'make up']);

/** Segments that are not words: versions (v1, v2beta1), path parameters, numbers and ids. */
function isNotAWord(segment: string): boolean {
  return (
    /^v\d+([._-]?\d+)*([a-z]+\d*)?$/i.test(segment) ||
    /^[{<[].*[}\]>]$/.test(segment) ||
    segment.startsWith(':') ||
    /^\d+$/.test(segment) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment) ||
    (/^[0-9a-f]{16,}$/i.test(segment) && /\d/.test(segment))
  );
}

/** The lower-case words of a segment: camelCase, PascalCase, kebab-case and snake_case are split. */
export function wordsOf(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * The verb a path segment starts with, or undefined when it names a thing. A segment is
 * verb-shaped when an action verb is the whole segment or its first word (`search`,
 * `getWidgetById`, `create-order`, `_search`, `{id}:cancel`); nouns that merely begin with the
 * same letters (`addresses`, `settings`, `updates`, `listings`) and versions or ids are not.
 */
export function verbInSegment(segment: string): string | undefined {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // keep it as sent
  }
  // Custom methods (`widgets:batchGet`, `{id}:cancel`) are judged part by part.
  const parts = text.split(/(?<=.):/);
  for (const part of parts) {
    if (part === '' || isNotAWord(part)) continue;
    const words = wordsOf(part);
    if (words.length === 0) continue;
    const [first, second] = words;
    if (second !== undefined && (PLURAL_PARTICLES.has(second) || NOUN_COMPOUNDS.has(`${first} ${second}`))) {
      continue;
    }
    if (VERBS.has(first)) return first;
    if (NOUN_VERBS.has(first) && (second === undefined || !NOUN_HEADS.has(second))) return first;
  }
  return undefined;
}

/** Every verb-shaped segment of a path (query string ignored), with the verb it starts with. */
export function verbShapedSegments(path: string): Array<{ segment: string; verb: string }> {
  const out: Array<{ segment: string; verb: string }> = [];
  for (const segment of path.split(/[?#]/)[0].split('/')) {
    if (segment === '') continue;
    const verb = verbInSegment(segment);
    if (verb !== undefined) out.push({ segment, verb });
  }
  return out;
}

/** A path without its query string and trailing slashes. */
function trimmed(path: string): string {
  return path.split(/[?#]/)[0].replace(/\/+$/, '');
}

/** A login path (relative to the base URL, or an absolute URL) relative to the base URL. */
function relativePath(path: string, baseUrl: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(path)) return trimmed(path);
  const base = basePathOf(baseUrl);
  const full = new URL(path).pathname;
  return trimmed(full.startsWith(`${base}/`) ? full.slice(base.length) : full);
}

export default defineCheck({
  kind: 'active',
  id: 'paths-are-nouns',
  rules: ['RES-NOUN'],
  suite: 'resources',
  title: 'Paths name things, not actions',
  severity: 'error',
  schedule: 'api-read',
  writes: 'none',
  messages: {
    verbPath: 'a path segment is verb-shaped',
  },
  description: {
    sends:
      "Nothing to judge: it reads every declared path (the base URL, each resource path, the webhook subscription path, and the paths of an OpenAPI document that are not probed, but for the login endpoints auth.login names: how a token is obtained is the service's own). For each verb-shaped path found it sends one GET, so the failure carries a request that shows the path (a templated one is shown, not requested).",
    passes:
      'No segment is an action verb (get, create, update, delete, fetch, list, add, remove, set, do, make, find, search, send, cancel, export...) as the whole segment or as its first word in camelCase, kebab-case or snake_case. Nouns that begin with the same letters (addresses, settings, documents, updates, listings, findings) pass, as do versions (v1, v2beta1), ids and path parameters, and compounds that name a thing (search-results, change-requests, check-runs, add-ons).',
    why: 'A collection that is a noun works with every method (GET lists it, POST adds to it); a verb in the path hides an operation the method should carry, so clients cannot guess the next URL and caches and proxies misjudge what is safe to repeat.',
  },
  async run(ctx) {
    const base = new URL(ctx.config.baseUrl).pathname.replace(/\/+$/, '');
    const paths: Array<{ path: string; label: string; shown: string }> = [
      { path: '', label: 'the base URL', shown: base || '/' },
      ...ctx.config.resources.map((r) => ({
        path: r.path,
        label: `resource ${r.name}`,
        shown: base + r.path,
      })),
    ];
    const hook = ctx.config.webhooks?.subscribe.path;
    if (hook) paths.push({ path: hook, label: 'the webhook subscription', shown: base + hook });
    // Paths of an OpenAPI document that are not probed are still linted, but for the login
    // endpoints the config names: how a token is obtained is the service's own (the conventions
    // show none), and the same path declared in auth.login is not judged either.
    const logins = [ctx.config.auth.login, ctx.config.auth.limitedLogin].flatMap((login) =>
      login ? [relativePath(login.path, ctx.config.baseUrl)] : [],
    );
    for (const extra of ctx.config.extraPaths ?? []) {
      if (logins.includes(trimmed(extra))) continue;
      paths.push({ path: extra, label: 'a path of the OpenAPI document', shown: base + extra });
    }
    for (const { path, label, shown } of paths) {
      // Resource and webhook paths are relative to the base URL, whose own segments are judged once.
      const found = verbShapedSegments(path === '' ? base : path);
      if (found.length === 0) continue;
      // A templated path ({id}) is not requested: the path itself is the evidence.
      const probe: Exchange | Evidence = path.includes('{')
        ? ctx.notSent({ path }, 'the declared path itself is verb-shaped')
        : await ctx.send({ method: 'GET', path });
      const what = found
        .map(({ segment, verb }) =>
          wordsOf(segment).length === 1
            ? `"${segment}" is the verb "${verb}"`
            : `"${segment}" begins with the verb "${verb}"`,
        )
        .join(', ');
      ctx.fail({
        messageId: 'verbPath',
        message: `${shown} (${label}) is verb-shaped: ${what}; name the thing instead (a plural noun such as /widgets, with the action carried by the method)`,
        evidence: [probe],
      });
    }
  },
});
