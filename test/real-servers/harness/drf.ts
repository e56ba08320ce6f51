// Starts the Django REST framework project of test/real-servers/drf/ under gunicorn (Debian's packages).
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packagePath } from '../../../src/core/paths.js';
import { run, type Command } from './processes.js';
import { beginServer, getJson, listen, randomSecret, type Records, type RealService } from './service.js';
import { DEBIAN_PYTHON, PYTHON_ENV } from './software.js';

const PROJECT = packagePath('test', 'real-servers', 'drf');

/** The users the seed command creates: every `shop` permission, and only the view_* ones. */
export const DRF_USERS = { full: 'admin', limited: 'reader' } as const;

/** A migrated and seeded database, made once per test file; each server runs on a copy of it. */
export interface DrfSeed {
  /** The seeded SQLite file. */
  database: string;
  /** DRF_USER, DRF_PASSWORD, DRF_LIMITED_USER, DRF_LIMITED_PASSWORD, DRF_TOKEN, DRF_LIMITED_TOKEN, DRF_API_KEY. */
  env: Record<string, string>;
  /** Removes the folder. */
  stop(): Promise<void>;
}

/** `manage.py migrate` and `manage.py seed` into a fresh SQLite file (about 1.5 s, once per test file). */
export async function seedDrf(): Promise<DrfSeed> {
  const start = await beginServer('drf-seed');
  return start.finish(async () => {
    const database = join(start.dir, 'db.sqlite3');
    const passwords = { DRF_PASSWORD: randomSecret(), DRF_LIMITED_PASSWORD: randomSecret() };
    const manage = (label: string, args: string[]): Command => ({
      label,
      file: DEBIAN_PYTHON,
      args: [join(PROJECT, 'manage.py'), ...args],
      owner: start.dir,
      log: start.log,
      env: { ...PYTHON_ENV, ...passwords, DRF_DB: database },
    });
    await run(manage('migrate', ['migrate', '-v', '0']));
    const printed = await run(manage('seed', ['seed']));
    const credentials = Object.fromEntries(
      printed
        .split('\n')
        .map((line) => line.trim().match(/^(DRF_\w+)=(\S+)$/))
        .filter((m): m is RegExpMatchArray => m !== null)
        .map((m) => [m[1], m[2]]),
    );
    for (const name of ['DRF_TOKEN', 'DRF_LIMITED_TOKEN', 'DRF_API_KEY'])
      if (!credentials[name]) throw new Error(`manage.py seed printed no ${name}:\n${start.log.text()}`);
    return {
      database,
      env: { DRF_USER: DRF_USERS.full, DRF_LIMITED_USER: DRF_USERS.limited, ...passwords, ...credentials },
      stop: start.stop,
    };
  });
}

/** How the project authenticates: `Authorization: Token <t>` (login at /auth-token/), or `X-API-Key`. */
export type DrfMode = 'token' | 'apikey';

/**
 * Starts gunicorn (one worker, eight threads: the throttle counts per process; Django's runserver
 * resets connections under the rate-limit burst) with a copy of the seeded database, on a port it
 * picks itself. DEBUG is off, as in production: HTML 404 pages, 301 to the slashed URL.
 *
 * env: DRF_URL (`…/api/v1`) and the seed's credentials (see DrfSeed).
 */
export async function startDrf(seed: DrfSeed, mode: DrfMode): Promise<RealService> {
  // SIGINT is gunicorn's quick shutdown; SIGTERM's graceful one waits out the worker's 1 s poll.
  const start = await beginServer(`drf-${mode}`, { signal: 'SIGINT' });
  return start.finish(async () => {
    const database = join(start.dir, 'db.sqlite3');
    await copyFile(seed.database, database);
    // Keep-alive 30 s: with gunicorn's 2 s, a client's pooled socket (undici keeps one 4 s) can be
    // closed under its next request ("other side closed"), seen on a loaded machine. Worker timeout
    // 120 s: a CPU-starved worker is not killed mid-request for a missed heartbeat.
    const gunicorn = ['--chdir', PROJECT, '--workers', '1', '--threads', '8', '--graceful-timeout', '3'];
    gunicorn.push('--keep-alive', '30', '--timeout', '120');
    // Port 0: gunicorn binds a free port and logs it, so no port can be lost to a race. The master
    // listens before its worker has loaded Django: the poll waits for an answer from the worker.
    const origin = await listen(start, {
      command: (port) => ({
        label: 'gunicorn',
        file: DEBIAN_PYTHON,
        args: [
          '-m',
          'gunicorn',
          ...gunicorn,
          '--bind',
          `127.0.0.1:${port}`,
          '--access-logfile',
          '-',
          'shop.wsgi',
        ],
        owner: start.dir,
        log: start.log,
        env: { ...PYTHON_ENV, DRF_AUTH: mode, DRF_DB: database },
      }),
      announces: /Listening at: http:\/\/127\.0\.0\.1:(\d+)/,
      readyPath: '/api/v1/',
    }).catch((error: Error) => {
      throw new Error(`gunicorn did not start (${error.message}):\n${start.log.text()}`);
    });
    const credential: Record<string, string> =
      mode === 'token'
        ? { authorization: `Token ${seed.env.DRF_TOKEN}` }
        : { 'x-api-key': seed.env.DRF_API_KEY };
    const list = async (path: string) =>
      (await getJson(`${origin}/api/v1/${path}`, credential)) as Array<Record<string, unknown>>;

    return {
      name: 'drf',
      label: `Django REST framework 3.14 (${mode === 'token' ? 'Token' : 'API key'})`,
      origin,
      baseUrl: `${origin}/api/v1`,
      dir: start.dir,
      env: { DRF_URL: `${origin}/api/v1`, ...seed.env },
      secrets: Object.entries(seed.env)
        .filter(([name]) => !name.endsWith('_USER'))
        .map(([, value]) => value),
      startupMs: Date.now() - start.began,
      output: () => start.log.text(),
      records: async (): Promise<Records> => {
        const customers = await list('customers/');
        const orders = [];
        for (const c of customers) orders.push(...(await list(`customers/${String(c.id)}/orders/`)));
        return { widgets: await list('widgets/'), customers, orders };
      },
      stop: start.stop,
    };
  });
}
