// auth.login / auth.limitedLogin: the requests sent before the run to obtain the tokens; a failure stops the run.
import type { Exchange } from '../core/check.js';
import { ConformanceError } from '../core/errors.js';
import { pointerGet, pointerTokens } from '../core/pointer.js';
import type { AuditConfig, LoginConfig, Secret } from '../core/types.js';
import { statusText } from '../core/verdicts.js';
import type { HttpClient } from '../http/client.js';

/** Characters of the answer quoted in the message of a failed login. */
const QUOTED = 300;

/**
 * Sends the configured logins (full first) and returns the config with the tokens they obtained.
 * Each token is a secret: redacted everywhere, rebuilt in curl lines by the login request itself
 * (`$(curl ... | jq -r ...)`). A login that gets no 2xx JSON answer with a string at its pointer
 * throws (exit 2), naming the step and what came back (redacted).
 */
export async function logIn(client: HttpClient, config: AuditConfig): Promise<AuditConfig> {
  const { login, limitedLogin } = config.auth;
  if (!login && !limitedLogin) return config;
  const full = login ? await obtain(client, login) : undefined;
  const limited = limitedLogin ? await obtain(client, limitedLogin) : undefined;
  client.setTokens({ full, limited });
  const secrets = [...config.secrets, ...[full, limited].filter((s): s is Secret => s !== undefined)];
  return {
    ...config,
    secrets,
    auth: {
      ...config.auth,
      ...(full ? { token: full.value } : {}),
      ...(limited ? { limitedToken: limited.value } : {}),
    },
  };
}

async function obtain(client: HttpClient, login: LoginConfig): Promise<Secret> {
  const form = login.form === undefined ? undefined : new URLSearchParams(login.form).toString();
  const request = {
    method: login.method,
    path: login.path,
    auth: 'none' as const,
    headers: login.headers,
    ...(form !== undefined
      ? { body: form, contentType: 'application/x-www-form-urlencoded' }
      : login.json !== undefined
        ? { json: login.json, contentType: 'application/json' }
        : {}),
  };
  const x = await client.send(request);
  const fail = (what: string): never => {
    throw new ConformanceError(
      'E_CONFIG',
      client.redactor.text(
        `${login.step}: ${login.method} ${pathOf(x)} ${what}; the audit needs the token it obtains, so it stops here`,
      ),
    );
  };
  if (x.status === undefined) fail(`got no answer (${x.error?.message ?? 'no response'})`);
  if (x.status! < 200 || x.status! > 299) fail(`answered ${statusText(x)}${quoted(x)}`);
  // Not quoted: a 2xx body may be the token itself, as text.
  if (!x.isJson)
    fail(`answered ${statusText(x)} with a body that is not JSON (${x.text.length} characters, not shown)`);
  const token = pointerGet(x.json, login.token);
  // A 2xx login answer holds credentials: its values are never quoted, only where strings are.
  if (token === undefined)
    fail(`answered ${statusText(x)}, but the pointer ${login.token} matches nothing in it${shapeOf(x.json)}`);
  if (typeof token !== 'string' || token === '')
    fail(
      `answered ${statusText(x)}, but ${login.token} holds ${typeof token === 'string' ? 'an empty string' : 'no string'}${shapeOf(x.json)}`,
    );
  const value = token as string;
  // The login's own curl line (variables for its secrets), quiet, piped to jq: the token is rebuilt
  // wherever the variables the login uses are set.
  const line = x.evidence.curl.replace(/^curl -i /, 'curl -s ');
  return { value, shell: `$(${line} | jq -r '${jqPath(login.token)}')`, source: login.step };
}

/** Where a 2xx answer holds strings (" (strings at /data/token, /expires)"), never their values. */
function shapeOf(json: unknown): string {
  const found: string[] = [];
  const walk = (node: unknown, at: string, depth: number): void => {
    if (found.length >= 8 || depth > 4) return;
    if (typeof node === 'string') found.push(at);
    else if (Array.isArray(node)) node.slice(0, 3).forEach((v, i) => walk(v, `${at}/${i}`, depth + 1));
    else if (node !== null && typeof node === 'object')
      for (const [k, v] of Object.entries(node))
        walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
  };
  walk(json, '', 0);
  return found.length > 0 ? ` (it holds strings at ${found.join(', ')})` : ' (it holds no string)';
}

function quoted(x: Exchange): string {
  const text = x.text.trim();
  if (text === '') return '';
  return `: ${JSON.stringify(text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text)}`;
}

function pathOf(x: Exchange): string {
  try {
    return new URL(x.url).pathname;
  } catch {
    return x.url;
  }
}

/** A JSON pointer as a jq path: /data/0/token -> .["data"][0]["token"] */
function jqPath(pointer: string): string {
  if (pointer === '') return '.';
  return `.${pointerTokens(pointer)
    .map((key) => (/^\d+$/.test(key) ? `[${key}]` : `[${JSON.stringify(key).replace(/'/g, "'\\''")}]`))
    .join('')}`;
}
