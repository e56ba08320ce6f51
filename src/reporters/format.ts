// Text helpers shared by the reporters: one-line reasons, truncation, durations, evidence as text.
import type { CheckResult, Evidence } from '../core/types.js';

// Text from the audited service must not drive a terminal or hide in a report: C0/C1 controls
// (ESC, BEL, NUL...) are shown as \xNN. Tabs and, when asked, line breaks are kept.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS_AND_BREAKS = /[\u0000-\u0008\n\u000b-\u001f\u007f-\u009f]/g;

/** The text with control characters written as `\xNN` (line breaks too unless `keepBreaks`). */
export function visible(text: string, keepBreaks = false): string {
  return text.replace(keepBreaks ? CONTROLS : CONTROLS_AND_BREAKS, (c) => {
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}

/** Default cap on a body shown in text reports (characters). */
export const BODY_LIMIT = 2000;

/** The first non-blank line of a message, trimmed ('' when there is none). */
export function firstLine(text: string | undefined): string {
  if (!text) return '';
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() !== '') return line.trim();
  }
  return '';
}

/** Characters of an id, a UUID or a word: a cut inside a run of them is moved to its start. */
const TOKEN_CHAR = /[\p{L}\p{N}_-]/u;
/** Longest run a cut backs off over (a UUID is 36, a hex digest 64); a longer run is cut where it falls. */
const TOKEN_BACKOFF = 64;

/**
 * Where to cut `text` to keep at most `max` UTF-16 units: never inside a surrogate pair, and not
 * inside an id, UUID or word of up to 64 characters when the cut can move to its start.
 */
export function cutPoint(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  if (end > 0 && TOKEN_CHAR.test(text[end - 1]) && TOKEN_CHAR.test(text[end])) {
    let start = end;
    while (start > 0 && end - start <= TOKEN_BACKOFF && TOKEN_CHAR.test(text[start - 1])) start -= 1;
    if (start > 0 && end - start <= TOKEN_BACKOFF) end = start;
  }
  return end;
}

/**
 * Cuts `text` to about `max` UTF-16 units (see cutPoint) and says how much was left out; kept
 * whole when that note would be longer than what it hides.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = cutPoint(text, max);
  const note = `… [${text.length - end} more characters]`;
  if (text.length - end <= note.length) return text;
  return `${text.slice(0, end)}${note}`;
}

/** A body as text: strings as they are, other JSON values pretty-printed; undefined when empty. */
export function bodyText(body: unknown): string | undefined {
  if (body === null || body === undefined || body === '') return undefined;
  if (typeof body === 'string') return body;
  try {
    return JSON.stringify(body, null, 2) ?? String(body);
  } catch {
    return String(body);
  }
}

/** Milliseconds as seconds with at most 3 decimals ("1.834"); negative or NaN count as 0. */
export function seconds(ms: number): string {
  const value = Number.isFinite(ms) && ms > 0 ? ms : 0;
  return (Math.round(value) / 1000).toFixed(3);
}

/** A duration for people: "812 ms", "1.8 s", "2 min 5 s". */
export function humanDuration(ms: number): string {
  const value = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  const s = Math.round(value / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** "3 requests", "1 request". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Who a result is about: "checkId resource", or just the check id for API-wide checks. */
export function subject(result: CheckResult): string {
  return result.resource ? `${result.checkId} ${result.resource}` : result.checkId;
}

function headerLines(headers: Record<string, string> | undefined): string[] {
  return Object.entries(headers ?? {}).map(([name, value]) => `  ${name}: ${value}`);
}

/**
 * One exchange as plain text: request line, headers and body, response status, headers and
 * (truncated) body, transport error, notes, and the curl line that reproduces it.
 */
export function evidenceText(evidence: Evidence, bodyLimit = BODY_LIMIT): string {
  const lines: string[] = [];
  const { request, response } = evidence;
  lines.push(`Request: ${request.method} ${request.url}`, ...headerLines(request.headers));
  const requestBody = bodyText(request.body);
  if (requestBody !== undefined) lines.push('Request body:', truncate(requestBody, bodyLimit));
  if (response) {
    lines.push(`Response: ${response.status} in ${Math.round(response.durationMs)} ms`);
    lines.push(...headerLines(response.headers));
    const responseBody = bodyText(response.body);
    if (responseBody !== undefined) {
      const cap = response.truncated ? ' (cut at the size cap by the client)' : '';
      lines.push(`Response body${cap}:`, truncate(responseBody, bodyLimit));
    }
  } else {
    lines.push('Response: none');
  }
  if (evidence.error) lines.push(`Transport error: ${evidence.error}`);
  for (const note of evidence.notes ?? []) lines.push(`Note: ${note}`);
  lines.push(`Reproduce: ${evidence.curl}`);
  return lines.join('\n');
}

/**
 * The message of a result that found several problems, up to where it starts numbering them
 * ("37 problems:", "3 of 54 responses broke the rule: 3 problems:"), so a report that lists every
 * problem below does not repeat the first few; undefined when there is no such list to cut at.
 */
export function messageHead(result: CheckResult): string | undefined {
  const problems = result.problems ?? [];
  const message = result.message?.trim() ?? '';
  if (problems.length < 2) return undefined;
  const at = message.indexOf(`(1) ${problems[0]}`);
  return at > 0 ? message.slice(0, at).trimEnd() : undefined;
}

/**
 * Every problem of a result that found several, numbered one per line, and how many were not
 * kept; undefined for a result with one problem (its message says it all).
 */
export function problemsText(result: CheckResult): string | undefined {
  const problems = result.problems ?? [];
  if (problems.length < 2) return undefined;
  const lines = problems.map((p, i) => `(${i + 1}) ${p.replace(/\s*(\r\n|\r|\n)\s*/g, ' ')}`);
  const dropped = result.problemsDropped ?? 0;
  const total = problems.length + dropped;
  if (dropped > 0)
    lines.push(`… and ${dropped} more, not kept (a result keeps the first ${problems.length})`);
  return [`Every problem (${total}):`, ...lines].join('\n');
}

/**
 * The message, every problem when there are several, then every exchange of the evidence,
 * numbered when there are several. A message that numbers its problems inline is cut where the
 * list starts (messageHead), so the problems appear once, one per line.
 */
export function failureText(result: CheckResult, bodyLimit = BODY_LIMIT): string {
  const parts = [messageHead(result) ?? result.message ?? result.title];
  const problems = problemsText(result);
  if (problems !== undefined) parts.push(problems);
  const count = result.evidence.length;
  result.evidence.forEach((evidence, i) => {
    const heading = count > 1 ? `--- exchange ${i + 1} of ${count} ---\n` : '';
    parts.push(`${heading}${evidenceText(evidence, bodyLimit)}`);
  });
  return parts.join('\n\n');
}
