#!/usr/bin/env node
// Builds dist/ from a clean folder (no file of an earlier build survives); with --if-stale, only when a source is newer.
// Usage: node scripts/build.mjs [--if-stale]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
/** What tsconfig.json compiles, and the files that change how. */
const SOURCES = ['src', 'suites'];
/** config/schema.json is compiled into dist/ too (see writeConfigValidator). */
const SETTINGS = ['tsconfig.json', join('config', 'schema.json')];
/**
 * Folders tsconfig.json leaves out of dist/ (`"exclude": ["src/testing/**"]`: test helpers, which
 * import jest, are not shipped): their files are not inputs of the build.
 */
const EXCLUDED = (JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).exclude ?? []).map((glob) =>
  glob.replace(/\/\*\*(\/\*[^/]*)?$/, '/'),
);

/** Whether tsconfig.json compiles `rel` (a path relative to the root). */
function compiled(rel) {
  const posix = rel.split(sep).join('/');
  return !EXCLUDED.some((folder) => posix.startsWith(folder));
}

/** Every file under `dir` (recursively) whose name ends with `suffix`. */
function files(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** Why dist/ must be rebuilt, or undefined when it is current. */
function staleness() {
  const outputs = files(dist, '.js');
  if (outputs.length === 0) return 'dist/ is not built';
  if (!existsSync(join(dist, 'config-schema.validator.cjs'))) return 'the config validator is not built';
  // tsc writes every output on each build: the oldest output is when the last build started writing.
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const inputs = [
    ...SOURCES.flatMap((dir) => files(join(root, dir), '.ts')).filter((f) => compiled(relative(root, f))),
    ...SETTINGS.map((f) => join(root, f)),
  ];
  for (const input of inputs) {
    const rel = relative(root, input);
    if (rel.endsWith('.ts') && !existsSync(join(dist, rel.replace(/\.ts$/, '.js')))) return `${rel} is new`;
    if (statSync(input).mtimeMs > built) return `${rel} changed`;
  }
  return undefined;
}

const ifStale = process.argv.includes('--if-stale');
if (ifStale) {
  const why = staleness();
  if (why === undefined) process.exit(0);
  process.stderr.write(`build: ${why}: building dist/\n`);
}
rmSync(dist, { recursive: true, force: true });
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
// tsc writes its output even with type errors: a failed build leaves nothing that looks current.
if (result.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
await writeConfigValidator();

/**
 * Compiles config/schema.json into standalone code (ajv's, CommonJS) at dist/src/config/validate.js's
 * PRECOMPILED, with the options that module compiles with: loading it takes a few milliseconds
 * where compiling the schema took about 45 ms of every run of the CLI.
 */
async function writeConfigValidator() {
  const { configAjv, PRECOMPILED } = await import(join(dist, 'src', 'config', 'validate.js'));
  const standalone = (await import('ajv/dist/standalone/index.js')).default.default;
  const { ajv, schema } = configAjv({ code: { source: true } });
  writeFileSync(PRECOMPILED, standalone(ajv, ajv.compile(schema)));
}
