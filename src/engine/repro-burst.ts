// A reproduction script's bounded burst (LIM-429, LIM-RETRY): copies of one GET, 50 in flight, until one is refused.
import type { ReproCheck } from '../core/reproduce.js';
import { dq, sq, type StepRef } from './repro-shell.js';

/** Copies of the GET in flight at once, as the audit's burst. */
const AT_ONCE = 50;
/**
 * Copies one curl sends before the script looks for a refusal: one process for many requests, so
 * the burst is as fast as the audit's (a curl process per request reaches a few dozen a second).
 */
const BATCH = 250;

/** The shell lines of a burst and its verdict (`args`: the GET's curl words). */
export function burstLines(
  check: Extract<ReproCheck, { kind: 'burst' }>,
  ref: StepRef,
  args: string[],
): string[] {
  const get = args.join(' ');
  const label = dq(ref.label);
  const lines = [
    `# The burst: at most ${check.count} copies of ${ref.label}, ${AT_ONCE} in flight (one curl, --parallel), until one is refused.`,
    `curl --help all 2>/dev/null | grep -q -- --parallel-max || { echo "the burst needs curl 7.66 or later (--parallel)" >&2; exit 2; }`,
    `send first ${sq(ref.label)} ${get}`,
    'usual=$(status first); sent=1; met=""',
    `while [ "$sent" -lt ${check.count} ] && [ -z "$met" ]; do`,
    `  batch=$((${check.count} - sent)); [ "$batch" -le ${BATCH} ] || batch=${BATCH}`,
    '  copies=()',
    '  for ((i = 0; i < batch; i++)); do',
    '    [ "$i" -eq 0 ] || copies+=(--next)',
    `    copies+=(-sS -o /dev/null -D "$tmp/b$i.head" -w "%{http_code} $i\\n" ${get})`,
    '  done',
    '  curl --parallel --parallel-max ' + AT_ONCE + ' "${copies[@]}" >"$tmp/codes" 2>/dev/null || true',
    '  sent=$((sent + batch))',
    '  while read -r code i; do',
    '    [ -n "$code" ] || code=000',
    '    if [ "$code" = 429 ]; then [ -n "$met" ] || { met=429; cp "$tmp/b$i.head" "$tmp/limited.head"; }',
    '    elif [ "$code" != "$usual" ] && ! { [ "${code#2}" != "$code" ] && [ "${usual#2}" != "$usual" ]; }; then',
    '      [ -n "$met" ] || met=$code',
    '    fi',
    '  done <"$tmp/codes"',
    'done',
    `echo "burst: $sent requests of ${label}; first refusal: \${met:-none}"`,
  ];
  switch (check.judge) {
    case 'other-refusal':
      lines.push(
        'if [ -n "$met" ] && [ "$met" != 429 ]; then verdict yes "the burst met $met (the usual answer is $usual), not 429"; fi',
        'verdict no "the burst met ${met:-no refusal} within $sent requests"',
      );
      break;
    case 'no-429':
      lines.push(
        'if [ "$met" != 429 ]; then verdict yes "no 429 within $sent requests (first refusal: ${met:-none})"; fi',
        'verdict no "a 429 came within $sent requests"',
      );
      break;
    case 'server-error':
      lines.push(
        'case "$usual" in 5??) verdict yes "the first GET of the burst answered $usual" ;; esac',
        'case "$met" in 5??) verdict yes "the burst met $met within $sent requests (the usual answer is $usual)" ;; esac',
        'verdict no "no 5xx within $sent requests (first refusal: ${met:-none})"',
      );
      break;
    case 'no-retry-header':
      lines.push(
        'if [ "$met" != 429 ]; then verdict no "no 429 within $sent requests: nothing to judge"; fi',
        'if ! grep -Eqi \'^(retry-after|ratelimit|ratelimit-reset|x-ratelimit-reset):\' "$tmp/limited.head"; then verdict yes "the 429 carries no Retry-After and no RateLimit header"; fi',
        'verdict no "the 429 says when to retry: $(grep -Ei \'^(retry-after|ratelimit)\' "$tmp/limited.head" | tr -d \'\\r\' | head -n 1)"',
      );
      break;
    case 'still-limited': {
      const cap = Math.ceil((check.maxWaitMs ?? 60_000) / 1000);
      lines.push(
        'if [ "$met" != 429 ]; then verdict no "no 429 within $sent requests: nothing to judge"; fi',
        'cp "$tmp/limited.head" "$tmp/l.head"',
        'wait_s=$(header l retry-after); [ -n "$wait_s" ] || wait_s=$(header l ratelimit-reset)',
        'case "$wait_s" in \'\'|*[!0-9]*) wait_s=1 ;; esac',
        `[ "$wait_s" -le ${cap} ] || wait_s=${cap}`,
        'echo "waiting $((wait_s + 1)) s as the 429 said (plus a second of grace)"',
        'sleep $((wait_s + 1))',
        // Sent once: a 429 now is the finding, not a wait to sit out.
        `send_retries=0 send retry ${sq(`${ref.label} (after the wait)`)} ${get}`,
        'if [ "$(status retry)" = 429 ]; then verdict yes "still 429 after the advertised wait of $wait_s s"; fi',
        'verdict no "answered $(status retry) after the advertised wait of $wait_s s"',
      );
      break;
    }
  }
  return lines;
}
