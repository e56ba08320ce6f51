// The HTML report's view of a failure's details: every problem, and each exchange (request, response, curl line).
import type { CheckResult, Evidence } from '../core/types.js';
import { bodyText, messageHead, plural, truncate, visible } from './format.js';
import { h, type Html } from './html-build.js';

/** Longest body shown per exchange (characters): enough to see the problem; the JSON report keeps the evidence whole. */
const HTML_BODY_LIMIT = 4000;

/** Text from the service: controls shown as \xNN, line breaks kept. */
function shown(text: string): string {
  return visible(text, true);
}

function headersText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

/** The one line that names an exchange while it is folded: `Exchange 2 of 3: DELETE https://… → 204`. */
function exchangeSummary(evidence: Evidence, index: number, count: number): string {
  const { request, response } = evidence;
  const outcome = response
    ? String(response.status)
    : evidence.error
      ? 'no response (transport error)'
      : 'no response';
  const label = count > 1 ? `Exchange ${index + 1} of ${count}` : 'Exchange';
  return `${label}: ${request.method} ${request.url} → ${outcome}`;
}

/**
 * One exchange, folded in a <details> (a report with many failures stays short; the native
 * element opens without JavaScript): request, response, transport error, notes and the curl line.
 */
export function evidenceBlock(evidence: Evidence, index: number, count: number): Html {
  const { request, response } = evidence;
  const requestBody = bodyText(request.body);
  const requestText = [
    `${request.method} ${request.url}`,
    headersText(request.headers),
    requestBody !== undefined ? `\n${truncate(requestBody, HTML_BODY_LIMIT)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  let responseText = 'No response';
  if (response) {
    const body = bodyText(response.body);
    responseText = [
      `${response.status} (${Math.round(response.durationMs)} ms)${response.truncated ? ' — body cut at the size cap' : ''}`,
      headersText(response.headers),
      body !== undefined ? `\n${truncate(body, HTML_BODY_LIMIT)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
  return h(
    'details',
    { class: 'exchange' },
    h('summary', {}, shown(exchangeSummary(evidence, index, count))),
    h('h4', {}, 'Request'),
    h('pre', { class: 'request' }, shown(requestText)),
    h('h4', {}, 'Response'),
    h('pre', { class: 'response' }, shown(responseText)),
    evidence.error !== undefined && h('p', { class: 'error' }, `Transport error: ${shown(evidence.error)}`),
    (evidence.notes ?? []).map((n) => h('p', { class: 'note' }, `Note: ${shown(n)}`)),
    h('h4', {}, 'Reproduce'),
    h('pre', { class: 'curl' }, h('code', {}, shown(evidence.curl))),
  );
}

/** Problems listed open in an article; the rest fold into a <details> (it opens without JavaScript). */
const PROBLEMS_OPEN = 10;

/** Every problem of a result that found several (the message numbers only the first few). */
export function problemList(r: CheckResult): Html | false {
  const problems = r.problems ?? [];
  if (problems.length < 2) return false;
  const item = (p: string) => h('li', {}, shown(p));
  const rest = problems.slice(PROBLEMS_OPEN);
  const dropped = r.problemsDropped ?? 0;
  return h(
    'div',
    { class: 'problems' },
    // The message head above already says "N problems:" when it could be cut there.
    messageHead(r) === undefined && h('h4', {}, `Every problem (${problems.length + dropped})`),
    h('ol', {}, problems.slice(0, PROBLEMS_OPEN).map(item)),
    rest.length > 0 &&
      h(
        'details',
        {},
        h('summary', {}, `${plural(rest.length, 'more problem')}`),
        h('ol', { start: PROBLEMS_OPEN + 1 }, rest.map(item)),
      ),
    dropped > 0 &&
      h(
        'p',
        { class: 'muted' },
        `… and ${dropped} more, not kept (a result keeps the first ${problems.length}).`,
      ),
  );
}
