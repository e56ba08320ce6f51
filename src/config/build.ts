// Schema-valid config data -> AuditConfig: checks the schema cannot express, defaults, secrets.
import { isAbsolute, resolve } from 'node:path';
import {
  BEARER_PLACEMENT,
  OPERATIONS,
  type AuditConfig,
  type Operation,
  type ResourceConfig,
  type Secret,
  type WebhookConfig,
} from '../core/types.js';
import { dotSegmentProblem } from '../core/dot-segments.js';
import { resolveItemSchema } from './item-schema.js';
import { pathKey, type Problem, type Segment } from './problems.js';
import { didYouMean } from './suggest.js';
import { checkShapes } from './shapes.js';
import { waiverExpiresAt } from './waivers.js';
import {
  buildAuth,
  checkOverrides,
  envLookup,
  extrasWithPaths,
  resourceRequests,
  topRequests,
  type RawAuth,
  type RawResourceRequests,
} from './requests.js';

/** The config as written (after interpolation), once it has passed config/schema.json. */
export interface RawConfig {
  baseUrl?: string;
  openapi?: string;
  auth?: RawAuth;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  contentType?: string;
  idempotency?: { header?: string };
  rateLimit?: { maxRequests?: number; expected?: boolean; waitMs?: number; maxWaitMs?: number };
  ignoreFields?: string[];
  /** Read by tls.ts (files), not here. */
  tls?: { ca?: string; cert?: string; key?: string; insecure?: boolean };
  webhooks?: {
    subscribe: { path: string; method?: string; body: unknown };
    expect: WebhookConfig['expect'];
    eventField?: string;
    timeoutMs?: number;
    signature?: {
      header: string;
      algorithm?: string;
      encoding?: 'hex' | 'base64';
      prefix?: string;
      secret: string;
    };
    receiver?: { host?: string; port?: number; publicUrl?: string };
  };
  waivers?: AuditConfig['waivers'];
  resources: Array<
    RawResourceRequests & {
      name: string;
      path: string;
      idField?: string;
      operations?: Operation[];
      sample?: Record<string, unknown>;
      replace?: Record<string, unknown>;
      update?: Record<string, unknown>;
      invalid?: unknown[];
      schema?: string | Record<string, unknown>;
      forbidden?: Operation[];
      idempotencyKey?: boolean;
      item?: string;
      createdIdFrom?: string;
      parent?: string;
      parentId?: string;
    }
  >;
}

/** The loaded config: AuditConfig plus the OpenAPI document named in the file, if any. */
export type LoadedConfig = AuditConfig & {
  /** `openapi` from the file: an http(s) URL, or a file path made absolute (relative to the config). */
  openapiSource?: string;
  /** What the OpenAPI document left unclear or unsupported, for the CLI to show before the run. */
  openapiNotes?: string[];
};

export interface BuildContext {
  /** Already checked and normalised `--base-url`, which wins over the file. */
  baseUrlOverride?: string;
  baseDir: string;
  /** Variables whose whole value a string was (see interpolate). */
  fromEnv: Map<string, string>;
  /** Every variable whose value went into a string, whole or in part (see interpolate). */
  usedEnv?: Map<string, { value: string; path: Segment[] }>;
}

/** Variable names that hold secrets even outside the auth and signature fields. */
const SECRET_NAME = /TOKEN|SECRET|PASSW(OR)?D|API_?KEY|CREDENTIAL|PRIVATE/i;

/**
 * Checks an absolute http(s) base URL; returns it without trailing '/' or a problem message.
 * Credentials in it (`https://user:pass@host/v1`) are refused: the HTTP client never sends them
 * (the audit would run without them while the URL says otherwise), a curl line would send them,
 * and every report would have to hide them. Messages never repeat them.
 */
export function normaliseBaseUrl(value: string): { url: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { problem: `must be an absolute http(s) URL (got ${shownUrl(value)})` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      problem:
        `must not hold credentials (got ${shownUrl(value)}): the audit never sends a user name or ` +
        `password written in the URL; give the credential in the config's auth section, read from ` +
        `an environment variable (e.g. token: \${API_TOKEN})`,
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { problem: `must be an absolute http(s) URL (got ${shownUrl(value)})` };
  }
  if (parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(value)) {
    return { problem: `must not have a query or fragment (got ${shownUrl(value)})` };
  }
  return { url: value.trim().replace(/\/+$/, '') };
}

/** A URL for a message, without what stands before an `@` in its authority (credentials). */
function shownUrl(value: string): string {
  const credentials = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i.exec(value);
  if (credentials) return JSON.stringify(`${credentials[1]}[redacted]@${value.slice(credentials[0].length)}`);
  return value.includes('@') ? 'a value with "@", not repeated here' : JSON.stringify(value);
}

/** Builds the AuditConfig; every problem found is returned (the config is only valid without). */
export function buildConfig(
  raw: RawConfig,
  ctx: BuildContext,
): { config: LoadedConfig; problems: Problem[] } {
  const problems: Problem[] = [];
  const problem = (path: Segment[], message: string): void => {
    problems.push({ path, message });
  };

  let baseUrl = ctx.baseUrlOverride ?? '';
  if (ctx.baseUrlOverride === undefined) {
    if (raw.baseUrl === undefined) problem(['baseUrl'], 'required (or pass --base-url)');
    else {
      const checked = normaliseBaseUrl(raw.baseUrl);
      if ('problem' in checked) problem(['baseUrl'], checked.problem);
      else baseUrl = checked.url;
    }
  }

  const names = raw.resources.map((resource) => resource.name);
  const requests = topRequests(raw);
  const resources = raw.resources.map((resource, index): ResourceConfig => {
    const first = names.indexOf(resource.name);
    if (first !== index) {
      problem(
        ['resources', index, 'name'],
        `duplicate resource name "${resource.name}" (also resources[${first}].name)`,
      );
    }
    if (/[?#\s]/.test(resource.path)) {
      problem(
        ['resources', index, 'path'],
        `must be a plain path, without query, fragment or spaces (got ${JSON.stringify(resource.path)})`,
      );
    }
    const dots = dotSegmentProblem(resource.path);
    if (dots !== undefined) problem(['resources', index, 'path'], dots);
    const out: ResourceConfig = {
      name: resource.name,
      // A declared trailing slash is kept exactly: some frameworks answer only with it (or redirect).
      path: resource.path,
      idField: resource.idField ?? 'id',
      operations: resource.operations ?? [...OPERATIONS],
      invalid: resource.invalid ?? [],
      forbidden: resource.forbidden ?? [],
      idempotencyKey: resource.idempotencyKey ?? false,
    };
    if (
      resource.headers ||
      resource.query ||
      resource.contentType ||
      resource.requests ||
      raw.headers ||
      raw.query ||
      raw.contentType
    )
      out.requests = resourceRequests(requests, resource);
    for (const key of ['item', 'createdIdFrom', 'parent', 'parentId'] as const) {
      // An empty parentId (`${VAR:-}` unset) names no parent item.
      if (resource[key] !== undefined && !(key === 'parentId' && resource[key] === ''))
        out[key] = resource[key];
    }
    if (resource.sample !== undefined) out.sample = resource.sample;
    const replace = resource.replace ?? resource.sample;
    if (replace !== undefined) out.replace = replace;
    if (resource.update !== undefined) out.update = resource.update;
    if (resource.schema !== undefined) {
      const loaded = resolveItemSchema(resource.schema, ctx.baseDir);
      if ('problem' in loaded) problem(['resources', index, 'schema'], loaded.problem);
      else out.schema = loaded.schema;
    }
    return out;
  });

  checkShapes(resources, problem);

  const webhooks = raw.webhooks === undefined ? undefined : buildWebhooks(raw.webhooks, names, problem);

  const waivers = (raw.waivers ?? []).map((waiver, index) => {
    if (!waiverExpiresAt(waiver.expires)) {
      problem(['waivers', index, 'expires'], `not a real date (got ${JSON.stringify(waiver.expires)})`);
    }
    if (waiver.resource !== undefined && !names.includes(waiver.resource)) {
      problem(
        ['waivers', index, 'resource'],
        `unknown resource "${waiver.resource}"${didYouMean(waiver.resource, names)}`,
      );
    }
    return { ...waiver };
  });

  const secrets = collectSecrets(raw, ctx.fromEnv, ctx.usedEnv);
  const addSecret = (secret: Secret): void => {
    if (!secrets.some((s) => s.value === secret.value)) secrets.push(secret);
  };
  const auth = buildAuth(raw.auth, baseUrl, problem, envLookup(ctx.fromEnv), addSecret);
  checkOverrides(auth.placement ?? BEARER_PLACEMENT, extrasWithPaths(raw), problem);

  const config: LoadedConfig = {
    baseUrl,
    auth,
    secrets,
    idempotency: { header: raw.idempotency?.header ?? 'Idempotency-Key' },
    rateLimit: {
      maxRequests: raw.rateLimit?.maxRequests ?? 200,
      expected: raw.rateLimit?.expected ?? false,
      ...(raw.rateLimit?.maxWaitMs === undefined ? {} : { maxWaitMs: raw.rateLimit.maxWaitMs }),
      ...(raw.rateLimit?.waitMs === undefined ? {} : { waitMs: raw.rateLimit.waitMs }),
    },
    ignoreFields: raw.ignoreFields ?? [],
    waivers,
    resources,
  };
  if (raw.headers || raw.query || raw.contentType) config.requests = requests;
  if (webhooks) config.webhooks = webhooks;
  if (raw.openapi !== undefined) {
    config.openapiSource =
      /^https?:\/\//i.test(raw.openapi) || isAbsolute(raw.openapi)
        ? raw.openapi
        : resolve(ctx.baseDir, raw.openapi);
  }
  return { config, problems };
}

function buildWebhooks(
  raw: NonNullable<RawConfig['webhooks']>,
  names: string[],
  problem: (path: Segment[], message: string) => void,
): WebhookConfig {
  const dots = dotSegmentProblem(raw.subscribe.path);
  if (dots !== undefined) problem(['webhooks', 'subscribe', 'path'], dots);
  raw.expect.forEach((expectation, index) => {
    const resource = expectation.after.resource;
    if (!names.includes(resource)) {
      problem(
        ['webhooks', 'expect', index, 'after', 'resource'],
        `unknown resource "${resource}"${didYouMean(resource, names)}`,
      );
    }
  });
  const webhooks: WebhookConfig = {
    subscribe: { path: raw.subscribe.path, method: raw.subscribe.method ?? 'POST', body: raw.subscribe.body },
    expect: raw.expect.map((expectation) => ({ after: { ...expectation.after }, event: expectation.event })),
    eventField: raw.eventField ?? 'type',
    timeoutMs: raw.timeoutMs ?? 5000,
  };
  if (raw.receiver !== undefined) webhooks.receiver = { ...raw.receiver };
  // An empty secret (e.g. `${WEBHOOK_SECRET:-}` unset) means: no signature to check.
  const signature = raw.signature;
  if (signature && signature.secret !== '') {
    webhooks.signature = {
      header: signature.header,
      algorithm: signature.algorithm ?? 'hmac-sha256',
      encoding: signature.encoding ?? 'hex',
      prefix: signature.prefix ?? '',
      secret: signature.secret,
    };
  }
  return webhooks;
}

/**
 * The tokens and the webhook secret (literal or from a variable), plus the value of every variable
 * whose name says it is secret, wherever it is used (whole, or inside a longer string such as a
 * header value or a sample body). Empty values are never secrets. Each keeps the variable it came
 * from, so curl lines say `${VAR}`.
 */
function collectSecrets(
  raw: RawConfig,
  fromEnv: Map<string, string>,
  usedEnv: Map<string, { value: string; path: Segment[] }> = new Map(),
): Secret[] {
  const secrets: Secret[] = [];
  const add = (value: unknown, path: Segment[], envVar = fromEnv.get(pathKey(path))): void => {
    if (typeof value !== 'string' || value === '') return;
    const existing = secrets.find((secret) => secret.value === value);
    if (existing) existing.envVar ??= envVar;
    else secrets.push(envVar === undefined ? { value } : { value, envVar });
  };
  add(raw.auth?.token, ['auth', 'token']);
  add(raw.auth?.limitedToken, ['auth', 'limitedToken']);
  add(raw.webhooks?.signature?.secret, ['webhooks', 'signature', 'secret']);
  for (const [key, envVar] of fromEnv) {
    if (!SECRET_NAME.test(envVar)) continue;
    const path = JSON.parse(key) as Segment[];
    add(valueAt(raw, path), path, envVar);
  }
  for (const [envVar, use] of usedEnv) if (SECRET_NAME.test(envVar)) add(use.value, use.path, envVar);
  return secrets;
}

function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}
