// Starts Parse Server 9 (installed in test/real-servers/parse/) on a database of its own in a private PostgreSQL cluster.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedParse } from '../parse/seed.js';
import type { PgCluster } from './postgres.js';
import { beginServer, getJson, listen, randomSecret, type RealService } from './service.js';
import { parseServerEntry, pinnedParseVersion } from './software.js';

/** The users the seed creates: `admin` (role admin: writes Widget) and `reader` (reads only). */
export const PARSE_USERS = { full: 'admin', limited: 'reader' } as const;

/** Requests per second per client on /classes/* before 429 (Retry-After: 1). */
export const PARSE_RATE_LIMIT = 100;

/** The config file parse-server reads (its command line does not parse JSON values such as rateLimit). */
function parseConfig(options: {
  port: number;
  dir: string;
  databaseURI: string;
  appId: string;
  masterKey: string;
  restAPIKey: string;
}) {
  const { port, dir, ...keys } = options;
  return {
    ...keys,
    host: '127.0.0.1',
    port,
    mountPath: '/parse',
    serverURL: `http://127.0.0.1:${port}/parse`,
    logLevel: 'error',
    logsFolder: join(dir, 'logs'),
    // includeInternalRequests: without it Parse never limits requests from 127.0.0.1.
    rateLimit: [
      {
        requestPath: '/classes/*path',
        requestTimeWindow: 1000,
        requestCount: PARSE_RATE_LIMIT,
        includeInternalRequests: true,
      },
    ],
    // X-Parse-Request-Id makes a retried POST act once.
    idempotencyOptions: { paths: ['classes/.*'], ttl: 300 },
  };
}

/**
 * Starts Parse Server on a free port with a fresh database of `cluster` (start one per test file:
 * startPostgres), seeded by parse/seed.ts, with random keys and passwords; drops the database on stop.
 * Its working folder is the server's temporary folder: it writes ./logs there whatever logsFolder says.
 *
 * env: PARSE_URL (`…/parse`), PARSE_APP_ID, PARSE_REST_API_KEY, PARSE_USER, PARSE_PASSWORD,
 * PARSE_LIMITED_USER, PARSE_LIMITED_PASSWORD. The master key stays inside: records() uses it.
 */
export async function startParse(cluster: PgCluster): Promise<RealService> {
  const entry = parseServerEntry();
  if (!entry) throw new Error('Parse Server is not installed (scripts/install-real-servers.sh --parse)');
  const start = await beginServer('parse', { cluster });
  const output = () => `${start.log.text()}\n${cluster.output()}`;
  return start.finish(async () => {
    const keys = {
      appId: `conformance-${randomSecret(4)}`,
      masterKey: randomSecret(),
      restAPIKey: randomSecret(),
    };
    const users = {
      full: { username: PARSE_USERS.full, password: randomSecret() },
      limited: { username: PARSE_USERS.limited, password: randomSecret() },
    };
    const db = (start.database = await cluster.createDatabase('parse'));
    const configFile = join(start.dir, 'parse-config.json');
    // Its serverURL (and so every Location header) names the port: it is chosen first and written
    // into the config file; listen() retries on another port if that one was lost to a race.
    const origin = await listen(start, {
      command: (port) => {
        const config = parseConfig({ port, dir: start.dir, databaseURI: cluster.uri(db), ...keys });
        writeFileSync(configFile, JSON.stringify(config, null, 2));
        return {
          label: `parse-server (port ${port})`,
          file: process.execPath,
          args: [entry, configFile],
          owner: start.dir,
          log: start.log,
        };
      },
      readyPath: '/parse/health',
      ready: (status) => status === 200,
    }).catch((error: Error) => {
      throw new Error(`Parse Server did not start (${error.message}):\n${output()}`);
    });
    const url = `${origin}/parse`;
    await seedParse({ url, appId: keys.appId, masterKey: keys.masterKey, users });

    return {
      name: 'parse',
      label: `Parse Server ${pinnedParseVersion()}`,
      origin,
      baseUrl: url,
      dir: start.dir,
      env: {
        PARSE_URL: url,
        PARSE_APP_ID: keys.appId,
        PARSE_REST_API_KEY: keys.restAPIKey,
        PARSE_USER: users.full.username,
        PARSE_PASSWORD: users.full.password,
        PARSE_LIMITED_USER: users.limited.username,
        PARSE_LIMITED_PASSWORD: users.limited.password,
      },
      secrets: [keys.masterKey, keys.restAPIKey, users.full.password, users.limited.password],
      startupMs: Date.now() - start.began,
      output,
      records: async () => {
        const headers = { 'x-parse-application-id': keys.appId, 'x-parse-master-key': keys.masterKey };
        const answer = (await getJson(`${url}/classes/Widget?order=createdAt&limit=1000`, headers)) as {
          results: Array<Record<string, unknown>>;
        };
        return { widgets: answer.results };
      },
      stop: start.stop,
    };
  });
}
