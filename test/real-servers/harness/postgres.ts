// A private PostgreSQL cluster (Debian's packages) on 127.0.0.1, one per test file, for PostgREST and Parse.
import { chown } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, OutputLog, run, type Command } from './processes.js';
import { ownFolder, stopper } from './service.js';
import { postgresBinDir, runuserPath } from './software.js';

/** A running cluster: superuser `postgres`, trust authentication, listening on 127.0.0.1 only. */
export interface PgCluster {
  port: number;
  /** Its temporary folder (data, socket, log). Gone after stop. */
  dir: string;
  /** `postgres://<user>@127.0.0.1:<port>/<db>` */
  uri(db: string, user?: string): string;
  /** Runs SQL as the superuser in database `db`: a file, or one command; resolves with psql's output. */
  sql(db: string, input: { file: string } | { command: string }): Promise<string>;
  /** Creates a database with a fresh name starting with `prefix` (a copy of `template` if given). */
  createDatabase(prefix: string, template?: string): Promise<string>;
  /** Drops a database, closing the connections still open to it. */
  dropDatabase(name: string): Promise<void>;
  /** initdb's and pg_ctl's output and the end of the server log, for failure messages. */
  output(): string;
  /** Stops the server (fast shutdown: open connections are closed) and removes the folder. */
  stop(): Promise<void>;
}

interface PostgresUser {
  uid: number;
  gid: number;
}

/** The postgres user's ids, when this process is root (PostgreSQL refuses to run as root). */
function postgresUser(): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no user postgres to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

let serial = 0;

/**
 * Starts a cluster in a fresh temporary folder: initdb (trust, no fsync, C locale), then pg_ctl
 * start on a free port, retried on another port if the first was taken meanwhile. About 0.6 s.
 */
export async function startPostgres(): Promise<PgCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  const user = postgresUser();
  const dir = await ownFolder('pg');
  const data = join(dir, 'data');
  const serverLog = join(dir, 'server.log');
  const log = new OutputLog();
  if (user) await chown(dir, user.uid, user.gid);
  // As root, the server programs run as postgres; psql connects over TCP as role postgres, so it needs no switch.
  const asPostgres = (label: string, program: string, args: string[]): Command => {
    const runuser = runuserPath();
    return user && runuser
      ? { label, file: runuser, args: ['-u', 'postgres', '--', join(bin, program), ...args], owner: dir, log }
      : { label, file: join(bin, program), args, owner: dir, log };
  };
  const pgCtl = (label: string, args: string[]) => run(asPostgres(label, 'pg_ctl', ['-D', data, ...args]));
  const output = () => {
    const tail = existsSync(serverLog) ? readFileSync(serverLog, 'utf8').slice(-8192) : '';
    return `${log.text()}\n--- server.log ---\n${tail}`;
  };
  const stop = stopper(dir, [
    async () => {
      if (existsSync(join(data, 'postmaster.pid'))) await pgCtl('pg_ctl stop', ['-m', 'fast', '-w', 'stop']);
    },
  ]);

  try {
    const initdb = ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-locale', '-E', 'UTF8'];
    await run(asPostgres('initdb', 'initdb', initdb));
    let port = 0;
    for (let attempt = 0; attempt < 3 && port === 0; attempt++) {
      const candidate = await freePort();
      const options = `-p ${candidate} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        await pgCtl('pg_ctl start', ['-l', serverLog, '-w', '-t', '60', '-o', options, 'start']);
        port = candidate;
      } catch {
        // the port was taken between the probe and the start: try another
      }
    }
    if (port === 0) throw new Error(`PostgreSQL did not start:\n${output()}`);
    const sql: PgCluster['sql'] = (db, input) => {
      const what = 'file' in input ? ['-f', input.file] : ['-c', input.command];
      const args = ['-X', '-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db];
      return run({
        label: 'psql',
        file: join(bin, 'psql'),
        args: [...args, '-v', 'ON_ERROR_STOP=1', ...what],
        owner: dir,
        log,
      });
    };
    return {
      port,
      dir,
      uri: (db, role = 'postgres') => `postgres://${role}@127.0.0.1:${port}/${db}`,
      sql,
      createDatabase: async (prefix, template) => {
        const name = `${prefix}_${process.pid}_${++serial}`;
        await sql('postgres', {
          command: `create database ${name}${template ? ` template ${template}` : ''}`,
        });
        return name;
      },
      dropDatabase: async (name) => {
        await sql('postgres', { command: `drop database if exists ${name} with (force)` });
      },
      output,
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
