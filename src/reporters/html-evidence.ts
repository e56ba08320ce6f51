// The HTML report's view of one exchange of evidence: request, response and the curl line that reproduces it.
import type { Evidence } from '../core/types.js';
import { bodyText, truncate, visible } from './format.js';
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
