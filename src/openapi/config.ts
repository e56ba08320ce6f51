// The OpenAPI step of config loading: load the document, derive, merge into the config data, default the tokens.
import type { DocumentStepInput, DocumentStepOutput } from '../config/load.js';
import { pathKey } from '../config/problems.js';
import { isObject } from '../core/shapes.js';
import type { Secret } from '../core/types.js';
import { buildAuth, envLookup, type RawAuth } from '../config/requests.js';
import type { DocumentCredentials } from './sources.js';
import { deriveConfig } from './import.js';
import type { MissingParam } from './requests.js';
import type { DerivedSecurity } from './security.js';
import { loadOpenApi } from './load.js';
import { mergeDerived } from './merge.js';

/** Environment variables the tokens come from when the config does not set `auth`. */
export const DEFAULT_TOKEN_ENV = {
  token: 'CONFORMANCE_TOKEN',
  limitedToken: 'CONFORMANCE_LIMITED_TOKEN',
} as const;

/** Environment variables of HTTP Basic credentials when the document's scheme is Basic and the config sets no `auth`. */
export const DEFAULT_BASIC_ENV = {
  basic: { username: 'CONFORMANCE_USERNAME', password: 'CONFORMANCE_PASSWORD' },
  limitedBasic: { username: 'CONFORMANCE_LIMITED_USERNAME', password: 'CONFORMANCE_LIMITED_PASSWORD' },
} as const;

/**
 * The `auth` section for the document's scheme with `${VAR}` placeholders (never a value): the
 * default variables, and the placement keys (`header`/`prefix`, `query`, `cookie`, `basic`).
 */
export function authTemplate(security: DerivedSecurity): Record<string, unknown> {
  const { basic, ...placement } = security.placement;
  if (basic) {
    const { username, password } = DEFAULT_BASIC_ENV.basic;
    return { basic: { username: `\${${username}}`, password: `\${${password}}` } };
  }
  return {
    token: `\${${DEFAULT_TOKEN_ENV.token}}`,
    limitedToken: `\${${DEFAULT_TOKEN_ENV.limitedToken}:-}`,
    ...placement,
  };
}

/** How documents are read (see `loadOpenApi`). */
export interface OpenApiStepOptions {
  /** `--openapi-allow-ref`: folders a local document's `$ref`s may read beside its own. */
  allowRefs?: string[];
  /** Deadline of each request fetching a document or a file it names (`--timeout`). */
  timeoutMs?: number;
  /** `--insecure`: no certificate verification when fetching the document either. */
  insecure?: boolean;
}

/**
 * Loads the document, merges what it declares into the config data (the config wins), and, when
 * the config has no `auth`, takes the tokens from CONFORMANCE_TOKEN / CONFORMANCE_LIMITED_TOKEN
 * (recording the variables in `fromEnv`, so curl lines name them; one set but empty is a problem). Throws OpenApiError when the
 * document cannot be used; pushes config problems it finds to `problems`.
 */
export async function applyOpenApi(
  input: DocumentStepInput,
  options: OpenApiStepOptions = {},
): Promise<DocumentStepOutput> {
  const { source, problems } = input;
  const credentials = documentCredentials(input);
  const loaded = await loadOpenApi(source, {
    cwd: input.cwd,
    ...(credentials ? { credentials } : {}),
    allowRefs: options.allowRefs ?? [],
    // The config's tls section and the environment's proxies, as for the audit's own requests.
    network: {
      tls: options.insecure ? { ...input.tls, insecure: true } : input.tls,
      env: input.env,
    },
    ...(options.timeoutMs === undefined ? {} : { limits: { timeoutMs: options.timeoutMs } }),
  });
  const derived = deriveConfig(loaded.document, loaded.url ? { documentUrl: loaded.url } : {});
  const merged = mergeDerived(input.data, derived);
  if (merged.baseUrl === undefined && !input.baseUrlGiven && 'problem' in derived.baseUrl) {
    problems.push({ path: [], message: derived.baseUrl.problem, source });
  }
  if (Array.isArray(merged.resources) && merged.resources.length === 0) {
    const paths = derived.notProbed.map((n) => n.path).slice(0, 5);
    problems.push({
      path: [],
      source,
      message: `no resource to audit: the document has no collection/item path pair such as /things and /things/{id}, and no collection whose GET declares a query parameter naming an item's id (/things?id=eq.{id})${
        paths.length > 0 ? ` (its paths: ${paths.join(', ')})` : ''
      }`,
    });
  }
  if (merged.auth === undefined) {
    const { basic, ...placement } = derived.security.placement;
    const auth: Record<string, unknown> = basic ? {} : { ...placement };
    const variables: Record<string, string> = basic ? {} : DEFAULT_TOKEN_ENV;
    if (basic) basicFromEnv(input, auth);
    for (const [field, variable] of Object.entries(variables)) {
      const value = input.env[variable];
      if (value === undefined) continue;
      if (value === '') {
        // Set but empty is what CI gives for a secret that is not defined, not a choice.
        problems.push({
          path: ['auth', field],
          message: `environment variable ${variable} is empty (as CI sets a secret that is not defined): give it a token${
            field === 'token' && derived.security.required
              ? ' (every operation the audit sends takes credentials)'
              : `, or unset it to audit without ${field === 'token' ? 'credentials' : 'the limited token'}`
          }`,
          kind: 'env',
        });
        continue;
      }
      auth[field] = value;
      input.fromEnv.set(pathKey(['auth', field]), variable);
    }
    const security = derived.security;
    const full = basic ? 'basic' : 'token';
    if (security.required && auth[full] === undefined && !problems.some((p) => p.path[1] === full)) {
      // Without it every check that reads or writes would meet a 401 and fail a correct API.
      const set = basic
        ? `${DEFAULT_BASIC_ENV.basic.username} and ${DEFAULT_BASIC_ENV.basic.password} (a user with full access)`
        : `${DEFAULT_TOKEN_ENV.token} to a token with full access`;
      const limited = basic
        ? `${DEFAULT_BASIC_ENV.limitedBasic.username}/${DEFAULT_BASIC_ENV.limitedBasic.password}`
        : DEFAULT_TOKEN_ENV.limitedToken;
      problems.push({
        path: ['auth', full],
        source,
        message: `every operation the audit sends takes credentials (security scheme "${security.scheme}"), and none is set: set ${set} (and ${limited} to one with less, for AUTH-FORBIDDEN), or give a config with auth`,
        kind: 'env',
      });
    }
    merged.auth = auth;
  }
  missingParams(derived.missing, merged, source, problems);
  return {
    data: merged,
    notProbed: derived.notProbed,
    notes: [...loaded.warnings, ...derived.notes.map((note) => `${source}: ${note}`)],
  };
}

/** HTTP Basic credentials (full, limited) from CONFORMANCE_USERNAME/CONFORMANCE_PASSWORD and the limited pair, when both are set. */
function basicFromEnv(input: DocumentStepInput, auth: Record<string, unknown>): void {
  for (const [field, names] of Object.entries(DEFAULT_BASIC_ENV)) {
    const username = input.env[names.username];
    const password = input.env[names.password];
    if (username === undefined && password === undefined) continue;
    if (!username || password === undefined) {
      input.problems.push({
        path: ['auth', field],
        message: `the document's scheme is HTTP Basic: set both ${names.username} and ${names.password} (or neither, to audit without ${field === 'basic' ? 'credentials' : 'the limited user'})`,
        kind: 'env',
      });
      continue;
    }
    auth[field] = { username, password };
    input.fromEnv.set(pathKey(['auth', field, 'username']), names.username);
    input.fromEnv.set(pathKey(['auth', field, 'password']), names.password);
  }
}

/**
 * A parameter the document requires with no value it gives is a problem, unless the config sets
 * it at some level of the resource it belongs to (or at the top): the line names the key to fill.
 */
function missingParams(
  missing: MissingParam[],
  data: Record<string, unknown>,
  source: string,
  problems: DocumentStepInput['problems'],
): void {
  const has = (node: unknown, map: string, name: string, caseless: boolean): boolean => {
    const m = isObject(node) ? node[map] : undefined;
    return (
      isObject(m) &&
      Object.keys(m).some((k) => (caseless ? k.toLowerCase() === name.toLowerCase() : k === name))
    );
  };
  const resources = Array.isArray(data.resources) ? data.resources.filter(isObject) : [];
  for (const p of missing) {
    const map = p.in === 'header' ? 'headers' : 'query';
    const caseless = p.in === 'header';
    const resource = resources.find((r) => r.name === p.resource);
    const levels = [
      data,
      resource,
      ...(isObject(resource?.requests) ? Object.values(resource.requests) : []),
    ];
    if (levels.some((level) => has(level, map, p.name, caseless))) continue;
    const where = p.resource === undefined ? `${p.key}` : `resources (${p.resource}): ${p.key}`;
    problems.push({
      path: [],
      source,
      message: `the document requires the ${p.in === 'header' ? 'header' : 'query parameter'} ${p.name} and gives no example, default or enum value for it: set ${where}.${p.name} in the config`,
    });
  }
}

/**
 * The configured credential for fetching the document: the config's `auth` (a token or Basic; a
 * login's token does not exist yet), else CONFORMANCE_TOKEN as a bearer token; for the base URL's
 * origin only (readSources sends it nowhere else). None without a base URL to compare with.
 */
function documentCredentials(input: DocumentStepInput): DocumentCredentials | undefined {
  const base = input.baseUrl ?? (typeof input.data.baseUrl === 'string' ? input.data.baseUrl : undefined);
  let origin: string;
  try {
    origin = new URL(base ?? '').origin;
  } catch {
    return undefined;
  }
  const raw = input.data.auth;
  if (raw === undefined) {
    const token = input.env[DEFAULT_TOKEN_ENV.token];
    if (!token) return undefined;
    return {
      origin,
      token,
      secrets: [{ value: token, envVar: DEFAULT_TOKEN_ENV.token }],
      shown: DEFAULT_TOKEN_ENV.token,
    };
  }
  if (!isObject(raw)) return undefined;
  const secrets: Secret[] = [];
  let auth;
  try {
    auth = buildAuth(
      raw as RawAuth,
      base!,
      () => undefined,
      envLookup(input.fromEnv),
      (s) => secrets.push(s),
    );
  } catch {
    // A malformed auth section is validation's to report, after this step.
    return undefined;
  }
  if (!auth.token) return undefined;
  const envVar = input.fromEnv.get(pathKey(['auth', 'token']));
  if (!secrets.some((s) => s.value === auth.token))
    secrets.push({ value: auth.token, ...(envVar ? { envVar } : {}) });
  return {
    origin,
    token: auth.token,
    ...(auth.placement ? { placement: auth.placement } : {}),
    secrets,
    shown: raw.basic !== undefined ? 'auth.basic' : 'auth.token',
  };
}
