// The command that runs one failed check again alone, as the audit was started.
import { DEFAULT_INVOCATION, type Invocation } from '../core/reproduce.js';
import type { Severity } from '../core/types.js';
import { single } from '../http/curl.js';

/**
 * The command that runs one check again on one resource, as the audit was started (`invocation`:
 * its command and options, such as --config, --base-url, --break) and fails the same way: only
 * the console report (the audit's report files stay as they are), and `--fail-on warning` for a
 * failed warning, so that it exits 1 as well.
 */
export function rerunCommand(
  checkId: string,
  resource: string | undefined,
  invocation: Invocation = DEFAULT_INVOCATION,
  severity?: Severity,
): string {
  return [
    ...invocation.command,
    ...invocation.options,
    ...(severity === 'warning' ? ['--fail-on', 'warning'] : []),
    '--only',
    checkId,
    ...(resource !== undefined ? ['--resource', resource] : []),
    '--reporter',
    'console',
  ]
    .map(single)
    .join(' ');
}
