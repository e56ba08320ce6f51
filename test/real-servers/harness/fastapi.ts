// Starts the FastAPI app of test/real-servers/fastapi/ under uvicorn (Debian's packages).
import { packagePath } from '../../../src/core/paths.js';
import {
  beginServer,
  getJson,
  listen,
  postForm,
  randomSecret,
  type Records,
  type RealService,
} from './service.js';
import { DEBIAN_PYTHON, PYTHON_ENV } from './software.js';

const PROJECT = packagePath('test', 'real-servers', 'fastapi');

/**
 * Starts uvicorn on a free port with the app (in memory, seeded with one widget and one order)
 * and a random password for its two users.
 *
 * env: FASTAPI_URL (`…/v1`) and FASTAPI_PASSWORD.
 */
export async function startFastapi(): Promise<RealService> {
  const start = await beginServer('fastapi');
  return start.finish(async () => {
    const password = randomSecret();
    const origin = await listen(start, {
      command: (port) => ({
        label: 'uvicorn',
        file: DEBIAN_PYTHON,
        args: [
          '-m',
          'uvicorn',
          'app:app',
          '--host',
          '127.0.0.1',
          '--port',
          String(port),
          '--app-dir',
          PROJECT,
        ],
        owner: start.dir,
        log: start.log,
        env: { ...PYTHON_ENV, FASTAPI_PASSWORD: password },
      }),
      // Any answer will do: an unauthenticated GET of the collection is a 401.
      readyPath: '/openapi.json',
    }).catch((error: Error) => {
      throw new Error(`uvicorn did not start (${error.message}):\n${start.log.text()}`);
    });
    const baseUrl = `${origin}/v1`;
    const login = await postForm(`${baseUrl}/token`, { username: 'admin', password });
    const token = String((login.body as { access_token?: unknown } | undefined)?.access_token ?? '');
    if (login.status !== 200 || token === '') throw new Error(`POST /v1/token answered ${login.status}`);
    const list = async (path: string) =>
      (await getJson(`${baseUrl}/${path}`, { authorization: `Bearer ${token}` })) as Array<
        Record<string, unknown>
      >;
    return {
      name: 'fastapi',
      label: 'FastAPI 0.92 (uvicorn)',
      origin,
      baseUrl,
      dir: start.dir,
      env: { FASTAPI_URL: baseUrl, FASTAPI_PASSWORD: password },
      secrets: [password, token],
      startupMs: Date.now() - start.began,
      output: () => start.log.text(),
      records: async (): Promise<Records> => ({
        widgets: await list('widgets/'),
        orders: await list('orders/'),
      }),
      stop: start.stop,
    };
  });
}
