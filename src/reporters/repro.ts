// The repro reporter: each failed result's reproduction script as an executable file, repro/<check>--<resource>.sh.
import type { CheckResult, RunResult } from '../core/types.js';
import type { Reporter } from './types.js';

/** The folder under --out that holds the scripts. */
export const REPRO_DIR = 'repro';

/** How a script of ours begins: only such files are removed as an earlier run's scripts. */
export const REPRO_MARKER = /^#!\/usr\/bin\/env bash\n# Reproduces /;

/** The file name of a result's script: `<check>--<resource>.sh` (`--api` for API-wide checks). */
export function reproFileName(result: Pick<CheckResult, 'checkId' | 'resource'>): string {
  const safe = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_');
  return `${safe(result.checkId)}--${safe(result.resource ?? 'api')}.sh`;
}

/** The scripts of the failed results (waived ones too), one file each, executable. */
export function reproFiles(result: RunResult): Array<{ path: string; text: string; mode: number }> {
  return result.results
    .filter((r) => r.reproduce !== undefined && (r.status === 'failed' || r.status === 'waived'))
    .map((r) => ({ path: `${REPRO_DIR}/${reproFileName(r)}`, text: r.reproduce!, mode: 0o755 }));
}

export const reproReporter: Reporter = {
  name: 'repro',
  files: (result) => reproFiles(result),
  /** What the console says about the files (the CLI prints it when nothing else goes to stdout). */
  render(result) {
    const files = reproFiles(result);
    return files.length === 0
      ? 'No reproduction scripts: no failure to reproduce.\n'
      : `${files.length} reproduction script${files.length > 1 ? 's' : ''} in ${REPRO_DIR}/\n`;
  },
};
