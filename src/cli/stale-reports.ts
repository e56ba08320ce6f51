// Fresh report files per run: the audit's own report files in --out that this run does not write are removed.
import { lstat, open, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { reporters } from '../reporters/index.js';

/**
 * How each report file of ours begins: only a file that says it came from this tool is ever
 * removed (a junit.xml of another tool in the same folder is left alone).
 */
export const REPORT_MARKERS: Readonly<Record<string, RegExp>> = {
  'conformance.json': /"tool"\s*:\s*\{\s*"name"\s*:\s*"conformance"/,
  'junit.xml': /<testsuites\b[^>]*\bname="conformance"/,
  'report.html': /<title>Conformance report/,
  'summary.md': /^#+ .*Conformance/m,
  'exchanges.har': /"creator"\s*:\s*\{\s*"name"\s*:\s*"conformance"/,
};

/** What was done with the report files of an earlier run. */
export interface StaleReports {
  /** Our report files this run does not write: removed. */
  removed: string[];
  /** Files with a report's name that are not ours: left alone. */
  foreign: string[];
}

/** The first bytes of a file (enough for every marker). */
async function head(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Removes from `out` every report file of ours that this run will not write (`writing`: file
 * names), so a folder never holds a junit.xml of an earlier run beside this run's report.html.
 * Never touches another file: names no reporter writes, report names whose content is not ours,
 * or a file in `keep`.
 */
export async function removeStaleReports(
  out: string,
  writing: readonly string[],
  keep: readonly string[] = [],
): Promise<StaleReports> {
  const result: StaleReports = { removed: [], foreign: [] };
  const names = Object.values(reporters).flatMap((r) => (r.fileName ? [r.fileName] : []));
  const kept = new Set(keep.map((file) => resolve(file)));
  for (const name of names) {
    if (writing.includes(name)) continue;
    const file = join(out, name);
    if (kept.has(resolve(file))) continue;
    const info = await lstat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const marker = REPORT_MARKERS[name];
    const ours = marker !== undefined && marker.test(await head(file).catch(() => ''));
    if (!ours) {
      result.foreign.push(name);
      continue;
    }
    await unlink(file);
    result.removed.push(name);
  }
  return result;
}
