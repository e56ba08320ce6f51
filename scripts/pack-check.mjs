#!/usr/bin/env node
// Proves the published package works as a user gets it: npm pack, npm i <tarball> in an empty folder, npx conformance demo.
// Usage: node scripts/pack-check.mjs [--no-build]. The package comes from the tarball only; its dependencies from the npm
// cache where `npm ci` left them (--prefer-offline: the registry is asked only for what the cache lacks,
// such as dependency metadata). Exit 0 when every step held, else 1.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const work = mkdtempSync(join(tmpdir(), 'conformance-pack-'));
const problems = [];

/** Runs a command; returns its output, or records the failure. */
function run(step, command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    shell: process.platform === 'win32',
    ...options,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`pack-check: ${step} (${seconds} s): exit ${result.status}\n`);
  return result;
}

function check(what, ok, detail = '') {
  process.stdout.write(
    `pack-check:   ${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `: ${detail}` : ''}\n`,
  );
  if (!ok) problems.push(what);
}

try {
  // --no-build: dist/ is known current (npm test builds it first, and other tests are using it).
  if (!process.argv.includes('--no-build'))
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const packed = run('npm pack', npm, ['pack', '--json', '--pack-destination', work], { cwd: root });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const info = JSON.parse(packed.stdout)[0];
  const tarball = join(work, info.filename);
  const files = info.files.map((f) => f.path);
  check(
    'the tarball holds LICENSE, README.md, docs/ and config/schema.json',
    ['LICENSE', 'README.md', 'docs/CONVENTIONS.md', 'config/schema.json'].every((f) => files.includes(f)),
  );
  // Test helpers import jest, which a user does not have: they stay out of the package.
  const helpers = files.filter((f) => f.startsWith('dist/src/testing/') || /(^|\/)test\//.test(f));
  check('no test helpers or tests', helpers.length === 0, helpers.slice(0, 3).join(', '));
  const maps = files.filter((f) => f.endsWith('.map'));
  const mapRefs = files
    .filter((f) => f.endsWith('.js'))
    .filter((f) => /sourceMappingURL=/.test(readFileSync(join(root, f), 'utf8')));
  check(
    'no source map, and no file that points at one',
    maps.length + mapRefs.length === 0,
    [...maps, ...mapRefs].slice(0, 3).join(', '),
  );

  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "pack-check-project", "private": true }\n');
  const installed = run(
    'npm i <tarball>',
    npm,
    ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { cwd: project },
  );
  if (installed.status !== 0)
    throw new Error(`npm install of the tarball failed:\n${installed.stderr.slice(-2000)}`);
  const pkgDir = join(project, 'node_modules', manifest.name);
  const shipped = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter((s) => shipped.scripts?.[s]);
  check('no script runs on install', lifecycle.length === 0, lifecycle.join(', '));
  check(
    'the conformance command is installed',
    existsSync(join(project, 'node_modules', '.bin', 'conformance')),
  );

  const out = join(work, 'reports');
  const demo = run(
    'npx conformance demo',
    npx,
    ['conformance', 'demo', '--reporter', 'console,json', '--out', out, '--quiet'],
    {
      cwd: project,
    },
  );
  const report = existsSync(join(out, 'conformance.json'))
    ? JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'))
    : undefined;
  check(
    'npx conformance demo reports zero failures (exit 0)',
    demo.status === 0 &&
      report?.summary.failed === 0 &&
      report.summary.errored === 0 &&
      report.summary.passed > 0,
    `${demo.stdout}${demo.stderr}`.trim().split('\n').slice(-3).join(' | '),
  );

  const explain = run(
    'npx conformance explain AUTH-MISSING',
    npx,
    ['conformance', 'explain', 'AUTH-MISSING'],
    { cwd: project },
  );
  check(
    'explain quotes the shipped conventions',
    explain.status === 0 &&
      explain.stdout.includes('> 3. A request with no valid authentication is answered 401.'),
  );

  const init = run(
    'npx conformance init',
    npx,
    ['conformance', 'init', '--openapi', resolve(root, 'test/fixtures/openapi/widgets-31.yaml')],
    {
      cwd: project,
    },
  );
  const written = join(project, 'conformance.config.yaml');
  const schemaRef = existsSync(written)
    ? /^# yaml-language-server: \$schema=(.+)$/m.exec(readFileSync(written, 'utf8'))?.[1]
    : undefined;
  check(
    "init's $schema comment points at the installed config/schema.json",
    init.status === 0 && schemaRef !== undefined && existsSync(resolve(project, schemaRef)),
    schemaRef ?? init.stderr,
  );
} catch (error) {
  problems.push(error.message);
  process.stderr.write(`pack-check: ${error.message}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(
  problems.length === 0
    ? 'pack-check: the packed package works\n'
    : `pack-check: ${problems.length} problem(s)\n`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
