// The comment header of a reproduction script: what it reproduces, what it needs, its variables.
import type { Secret } from '../core/types.js';
import { dq, originOf } from './repro-shell.js';
import type { ReproFailure } from './reproduce.js';

/**
 * The script's first lines: what it reproduces and how to run the check again, what it needs
 * (jq, node when `lines`, the rest of the script, use them; the secrets' variables they name), `BASE_URL`
 * (default `base`, with `baseNote` when that API may be gone) and `ORIGIN` when used.
 */
export function scriptHeader(
  f: ReproFailure,
  base: string,
  all: readonly Secret[],
  lines: string[],
  baseNote?: string,
): string[] {
  const where = f.resource !== undefined ? ` on ${f.resource}` : '';
  const text = lines.join('\n');
  const usesJq = text.includes('jq ');
  // A webhook script runs its receiver (and checks signatures) in node.
  const usesNode = text.includes('node -e');
  const needs = ['bash', 'curl', ...(usesJq ? ['jq'] : []), ...(usesNode ? ['node'] : [])].join(', ');
  const secrets = all.filter((s) => s.envVar && text.includes(`\${${s.envVar}`));
  const envVars = [...new Set(secrets.map((s) => s.envVar!))];
  const out = [
    '#!/usr/bin/env bash',
    `# Reproduces ${f.checkId} [${f.rules.join(', ')}]${where}:`,
    ...firstLine(f.message).map((l) => `#   ${l}`),
    `# Needs: ${needs}${envVars.length > 0 ? `; ${envVars.length > 1 ? 'the variables' : 'the variable'} ${envVars.join(', ')} set as for the audit` : ''}.`,
    `# BASE_URL: the API to try it on (default: the audited one${baseNote ? `; ${baseNote}` : ''}).`,
    '# Prints "reproduced: ..." and exits 1, or "not reproduced: ..." and exits 0 (2: could not run).',
    '# It deletes what it creates, even when a step fails.',
    `# Run the check again alone: ${f.rerun}`,
    '# shellcheck disable=SC2317 # the cleanup and delete functions run from the EXIT trap',
    'set -u',
    `BASE_URL="\${BASE_URL:-${dq(base)}}"`,
  ];
  if (text.includes('${ORIGIN}')) {
    out.push(`ORIGIN=${originOf('BASE_URL')}`);
  }
  for (const name of envVars) {
    const from = secrets.find((s) => s.envVar === name)?.source;
    out.push(`: "\${${name}:?set ${name}${from ? ` (${from})` : ''} as for the audit}"`);
  }
  if (usesJq) out.push('command -v jq >/dev/null || { echo "this script needs jq" >&2; exit 2; }');
  if (usesNode) out.push('command -v node >/dev/null || { echo "this script needs node" >&2; exit 2; }');
  return out;
}

/** The first problem of a message, as comment lines (at most three, each cut at 150 characters). */
function firstLine(message: string): string[] {
  return message
    .split('\n')
    .slice(0, 3)
    .map((l) => (l.length > 150 ? `${l.slice(0, 150)}…` : l));
}
