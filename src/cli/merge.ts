// `conformance merge`: combines the JSON reports of shards (--shard i/n) into one set of reports.
import { readFile } from 'node:fs/promises';
import { ConformanceError } from '../core/errors.js';
import { summarise } from '../engine/summary.js';
import type { CheckResult, RunResult, Severity, Status } from '../core/types.js';
import { resolveReporters } from '../reporters/index.js';
import { readJsonReport } from '../reporters/json-read.js';
import { exitCodeOf, writeReports, type Io, type ReportFlags } from './audit.js';

export { MERGE_REPORTERS } from './command-options.js';

export interface MergeFlags extends ReportFlags {
  reporter: string[];
  failOn: Severity;
}

/** When two reports hold the same check × resource, the worse outcome is kept. */
const PRECEDENCE: readonly Status[] = ['failed', 'errored', 'waived', 'passed', 'skipped'];

/** Problems listed per file before "... and N more". */
const PROBLEMS_SHOWN = 5;

/**
 * One run from several (pure; inputs in shard order when they have one, else as given).
 * - results: concatenated; a check × resource present in several inputs (an observer that saw
 *   API-wide traffic in more than one shard) is kept once, with its worst outcome;
 * - summary: recounted from the merged results; `requests` and `answered`: the sums;
 * - durationMs: the longest input — shards of a CI matrix run side by side, so the wall time of
 *   the whole audit is that of its slowest shard (the sum would be the machine time instead);
 * - startedAt: the earliest; cleanup: counts added, leftovers (and recovered items) concatenated;
 * - interrupted: when any input was; `shard` is dropped (the result is the whole plan);
 * - notProbed: each path once; notes: each once.
 */
export function mergeRuns(runs: RunResult[]): RunResult {
  if (runs.length === 0) throw new ConformanceError('E_ARGS', 'merge needs at least one report');
  const ordered = [...runs].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  const byKey = new Map<string, number>();
  const results: CheckResult[] = [];
  for (const run of ordered) {
    for (const r of run.results) {
      const key = `${r.checkId}\u0000${r.resource ?? ''}`;
      const at = byKey.get(key);
      if (at === undefined) {
        byKey.set(key, results.length);
        results.push(r);
      } else if (PRECEDENCE.indexOf(r.status) < PRECEDENCE.indexOf(results[at].status)) {
        results[at] = r;
      }
    }
  }
  const first = ordered[0];
  // Every shard reads the same config, so each lists the same paths: keep each path once.
  const notProbed = [
    ...new Map(ordered.flatMap((r) => r.notProbed ?? []).map((n) => [n.path, n] as const)).values(),
  ];
  return {
    tool: first.tool,
    target: first.target,
    startedAt: ordered.map((r) => r.startedAt).sort()[0],
    durationMs: Math.max(...ordered.map((r) => r.durationMs)),
    summary: summarise(
      results,
      ordered.reduce((sum, r) => sum + r.summary.requests, 0),
      // Summed as one run would have counted them; unknown when a shard's report predates the count.
      ordered.every((r) => r.summary.answered !== undefined)
        ? ordered.reduce((sum, r) => sum + (r.summary.answered ?? 0), 0)
        : undefined,
    ),
    results,
    cleanup: {
      created: ordered.reduce((sum, r) => sum + r.cleanup.created, 0),
      deleted: ordered.reduce((sum, r) => sum + r.cleanup.deleted, 0),
      leftovers: ordered.flatMap((r) => r.cleanup.leftovers),
      ...(ordered.some((r) => r.cleanup.recovered)
        ? { recovered: ordered.flatMap((r) => r.cleanup.recovered ?? []) }
        : {}),
      ...(ordered.some((r) => r.cleanup.deletedWithErrorBody)
        ? { deletedWithErrorBody: ordered.flatMap((r) => r.cleanup.deletedWithErrorBody ?? []) }
        : {}),
    },
    ...(ordered.some((r) => r.interrupted) ? { interrupted: true } : {}),
    ...(notProbed.length > 0 ? { notProbed } : {}),
    ...(ordered.some((r) => r.notes?.length)
      ? { notes: [...new Set(ordered.flatMap((r) => r.notes ?? []))] }
      : {}),
  };
}

/**
 * Problems that make a set of runs unfit to merge: different targets, a mix of sharded and
 * unsharded reports, different shard counts, a shard given twice or missing.
 */
export function mergeProblems(runs: Array<{ file: string; run: RunResult }>): string[] {
  const problems: string[] = [];
  const targets = new Set(runs.map((r) => r.run.target.baseUrl));
  if (targets.size > 1) {
    problems.push(
      `the reports audit different targets: ${runs.map((r) => `${r.file} (${r.run.target.baseUrl})`).join(', ')}`,
    );
  }
  const sharded = runs.filter((r) => r.run.shard);
  if (sharded.length === 0) return problems;
  if (sharded.length < runs.length) {
    const plain = runs.filter((r) => !r.run.shard).map((r) => r.file);
    problems.push(
      `${plain.join(', ')}: not a shard's report, but the others are (run each with --shard i/n)`,
    );
    return problems;
  }
  const totals = new Set(sharded.map((r) => r.run.shard!.total));
  if (totals.size > 1) {
    problems.push(
      `the reports come from different shard counts: ${sharded.map((r) => `${r.file} (${r.run.shard!.index}/${r.run.shard!.total})`).join(', ')}`,
    );
    return problems;
  }
  const total = [...totals][0];
  const seen = new Map<number, string>();
  for (const { file, run } of sharded) {
    const index = run.shard!.index;
    if (seen.has(index)) problems.push(`shard ${index}/${total} given twice: ${seen.get(index)} and ${file}`);
    else seen.set(index, file);
  }
  const missing = Array.from({ length: total }, (_v, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    problems.push(
      `missing ${missing.map((i) => `shard ${i}/${total}`).join(', ')}: a merged report without it would leave checks out`,
    );
  }
  return problems;
}

/** Reads one report; every problem is prefixed with the file name. */
async function readReport(file: string): Promise<{ run?: RunResult; problems: string[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(err);
    return { problems: [`${file}: cannot read it: ${reason}`] };
  }
  const { run, problems } = readJsonReport(text);
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => `${file}: ${p}`);
  if (problems.length > PROBLEMS_SHOWN)
    shown.push(`${file}: … and ${problems.length - PROBLEMS_SHOWN} more problems`);
  return { run, problems: shown };
}

/**
 * Reads the JSON reports, checks they belong together, merges them and writes the chosen
 * reports under --out. Returns the exit code of the merged results (CONTRACT: 0, 1), and
 * throws an E_ARGS ConformanceError (exit 2) when the reports cannot be merged.
 */
export async function runMerge(
  files: string[],
  flags: MergeFlags,
  io: Io,
): Promise<{ code: number; result: RunResult }> {
  const chosen = resolveReporters(flags.reporter);
  const har = chosen.find((r) => r.needsExchanges);
  if (har) {
    throw new ConformanceError(
      'E_ARGS',
      `merge cannot write "${har.name}": JSON reports do not hold every exchange (keep each shard's ${har.fileName})`,
    );
  }
  if (files.length === 0) throw new ConformanceError('E_ARGS', 'merge needs at least one JSON report');
  const read = await Promise.all(files.map(async (file) => ({ file, ...(await readReport(file)) })));
  const problems = read.flatMap((r) => r.problems);
  if (problems.length > 0) throw new ConformanceError('E_ARGS', problems[0], problems);
  const runs = read.map((r) => ({ file: r.file, run: r.run! }));
  const unfit = mergeProblems(runs);
  if (unfit.length > 0) throw new ConformanceError('E_ARGS', unfit[0], unfit);
  const result = mergeRuns(runs.map((r) => r.run));
  // The shards' reports are inputs, never stale outputs, even when --out is their folder.
  await writeReports(result, chosen, flags, io, undefined, files);
  return { code: exitCodeOf(result, flags.failOn), result };
}
