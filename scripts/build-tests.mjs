#!/usr/bin/env node
// Compiles the tests (tsconfig.test.json) so that only what has a source runs: a deleted or renamed test leaves no copy behind.
// Usage: node scripts/build-tests.mjs [--clean] [--out <dir>]
//   --clean      start from an empty folder (npm test: what runs is exactly what the sources compile to)
//   (default)    remove compiled files whose source is gone, then compile what changed (the edit loop)
//   --out <dir>  where to compile (default .test-build; jest reads it from TEST_BUILD_DIR)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Removes every compiled file in `out` whose TypeScript source no longer exists (a test deleted or
 * renamed since the last build: jest would run its old copy). Returns the files removed.
 */
export function pruneOrphans(out) {
  if (!existsSync(out)) return [];
  const removed = [];
  for (const entry of readdirSync(out, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    const match = /^(.*)\.(js|js\.map|d\.ts)$/.exec(relative(out, file));
    if (!match) continue;
    if (existsSync(join(root, `${match[1]}.ts`))) continue;
    rmSync(file, { force: true });
    removed.push(relative(root, file));
  }
  return removed;
}

/** The tsc arguments that compile the tests into `out`, incrementally (and watching, with `watch`). */
export function tscArgs(out, { watch = false } = {}) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // The build info lives beside the output, so clearing the folder also forgets it.
  const args = [tsc, '-p', join(root, 'tsconfig.test.json'), '--outDir', out];
  args.push('--incremental', '--tsBuildInfoFile', join(out, '.tsbuildinfo'));
  if (watch) args.push('--watch', '--preserveWatchOutput');
  return args;
}

/** The output folder named by --out (relative to the root), or the default. */
export function outDir(argv) {
  const at = argv.indexOf('--out');
  return join(root, at >= 0 && argv[at + 1] ? argv[at + 1] : '.test-build');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const out = outDir(argv);
  const clean = argv.includes('--clean');
  if (clean) rmSync(out, { recursive: true, force: true });
  else {
    const removed = pruneOrphans(out);
    if (removed.length > 0)
      process.stderr.write(`build-tests: removed ${removed.length} compiled file(s) whose source is gone\n`);
  }
  const result = spawnSync(process.execPath, tscArgs(out), { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
