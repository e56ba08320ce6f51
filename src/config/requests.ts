// Config `headers`/`query`/`contentType`/`requests` and the auth schemes -> AuditConfig, with their checks.
import {
  OPERATIONS,
  type AuditConfig,
  type CredentialPlacement,
  type LoginConfig,
  type Operation,
  type RequestExtras,
  type ResourceRequests,
  type Secret,
} from '../core/types.js';
import { dotSegmentProblem } from '../core/dot-segments.js';
import { pathKey, type Segment } from './problems.js';

type Headers = Record<string, string>;
type Query = Record<string, string>;

/** `{ headers?, query? }` as written. */
export interface RawExtras {
  headers?: Headers;
  query?: Query;
}

/** HTTP Basic credentials as written. */
export interface RawBasic {
  username: string;
  password: string;
}

/** `auth.login` as written. */
export interface RawLogin {
  method?: string;
  path: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Headers;
  basic?: RawBasic;
  token: string;
}

/** `auth` as written. */
export interface RawAuth {
  token?: string;
  limitedToken?: string;
  header?: string;
  prefix?: string;
  query?: string;
  cookie?: string;
  basic?: RawBasic;
  limitedBasic?: RawBasic;
  login?: RawLogin;
  limitedLogin?: RawLogin;
}

/** A resource's request keys as written. */
export interface RawResourceRequests extends RawExtras {
  contentType?: string;
  requests?: Partial<Record<Operation | 'reads' | 'writes', RawExtras>>;
}

type Report = (path: Segment[], message: string) => void;
/** The variable a string at a path came from, when its whole value did. */
type EnvOf = (path: Segment[]) => string | undefined;

const READS: readonly Operation[] = ['list', 'read'];

/** Header names lower-cased (later maps win over earlier ones). */
function mergeHeaders(...maps: Array<Headers | undefined>): Headers {
  const out: Headers = {};
  for (const map of maps) for (const [k, v] of Object.entries(map ?? {})) out[k.toLowerCase()] = v;
  return out;
}

/** The top level's headers, query and media type. */
export function topRequests(raw: RawExtras & { contentType?: string }): NonNullable<AuditConfig['requests']> {
  return {
    headers: mergeHeaders(raw.headers),
    query: { ...raw.query },
    ...(raw.contentType === undefined ? {} : { contentType: raw.contentType }),
  };
}

/** A resource's merged settings per operation: top level < resource < reads/writes < the operation. */
export function resourceRequests(
  top: NonNullable<AuditConfig['requests']>,
  raw: RawResourceRequests,
): ResourceRequests {
  const operations = {} as Record<Operation, RequestExtras>;
  for (const op of OPERATIONS) {
    const group = raw.requests?.[READS.includes(op) ? 'reads' : 'writes'];
    const own = raw.requests?.[op];
    operations[op] = {
      headers: mergeHeaders(top.headers, raw.headers, group?.headers, own?.headers),
      query: { ...top.query, ...raw.query, ...group?.query, ...own?.query },
    };
  }
  const contentType = raw.contentType ?? top.contentType;
  return { operations, ...(contentType === undefined ? {} : { contentType }) };
}

/** Every `headers`/`query` map of the config with its path, for the credential-override check. */
export function extrasWithPaths(
  raw: RawExtras & { resources: RawResourceRequests[] },
): Array<{ path: Segment[]; extras: RawExtras }> {
  const out: Array<{ path: Segment[]; extras: RawExtras }> = [{ path: [], extras: raw }];
  raw.resources.forEach((r, index) => {
    out.push({ path: ['resources', index], extras: r });
    for (const [key, extras] of Object.entries(r.requests ?? {}))
      if (extras) out.push({ path: ['resources', index, 'requests', key], extras });
  });
  return out;
}

/** Refuses a configured header, cookie or query parameter that would set the credential itself. */
export function checkOverrides(
  placement: CredentialPlacement,
  maps: Array<{ path: Segment[]; extras: RawExtras }>,
  report: Report,
): void {
  for (const { path, extras } of maps) {
    for (const [name, value] of Object.entries(extras.headers ?? {})) {
      const lower = name.toLowerCase();
      const overrides =
        (placement.in === 'header' && lower === placement.name.toLowerCase()) ||
        (placement.in === 'cookie' &&
          lower === 'cookie' &&
          value.split(';').some((c) => c.split('=')[0].trim() === placement.name));
      if (overrides)
        report(
          [...path, 'headers', name],
          `would override the credential (${describePlacement(placement)}): set it in auth, not as a header`,
        );
    }
    if (placement.in === 'query' && extras.query && Object.hasOwn(extras.query, placement.name))
      report(
        [...path, 'query', placement.name],
        `would override the credential (${describePlacement(placement)}): set it in auth, not as a query parameter`,
      );
  }
}

/** "the Authorization header with the Bearer prefix", for messages. */
export function describePlacement(p: CredentialPlacement): string {
  if (p.in === 'query') return `auth.query: the query parameter ${p.name}`;
  if (p.in === 'cookie') return `auth.cookie: the cookie ${p.name}`;
  if (p.basic) return 'auth.basic: the Authorization header';
  return `auth.header: the ${p.name} header`;
}

/** The auth section: placement, tokens (Basic credentials encoded), logins; secrets for what it derives. */
export function buildAuth(
  raw: RawAuth | undefined,
  baseUrl: string,
  report: Report,
  envOf: EnvOf,
  addSecret: (secret: Secret) => void,
): AuditConfig['auth'] {
  const auth: AuditConfig['auth'] = {};
  if (raw === undefined) return auth;
  const set = (keys: Array<keyof RawAuth>): Array<keyof RawAuth> => keys.filter((k) => raw[k] !== undefined);
  const exclusive = (keys: Array<keyof RawAuth>, why: string): void => {
    const present = set(keys);
    if (present.length > 1) report(['auth', present[1]], `cannot be used with auth.${present[0]}: ${why}`);
  };
  exclusive(['query', 'cookie', 'header'], 'the credential goes in one place');
  exclusive(['query', 'cookie', 'prefix'], 'a prefix belongs to a header credential');
  if (raw.basic !== undefined)
    exclusive(
      ['basic', 'token', 'login', 'header', 'prefix', 'query', 'cookie'],
      'HTTP Basic is its own scheme',
    );
  exclusive(['token', 'login'], 'the login obtains the token');
  exclusive(['limitedToken', 'limitedLogin'], 'the login obtains the limited token');
  if (raw.limitedBasic !== undefined)
    exclusive(['limitedBasic', 'limitedToken', 'limitedLogin'], 'HTTP Basic is its own scheme');
  if (raw.limitedBasic !== undefined && raw.basic === undefined)
    report(['auth', 'limitedBasic'], 'needs auth.basic: the limited user is refused with the same scheme');

  let placement: CredentialPlacement;
  if (raw.basic !== undefined)
    placement = { in: 'header', name: 'Authorization', prefix: 'Basic', basic: true };
  else if (raw.query !== undefined) placement = { in: 'query', name: raw.query };
  else if (raw.cookie !== undefined) placement = { in: 'cookie', name: raw.cookie };
  else {
    const name = raw.header ?? 'Authorization';
    const isAuthorization = name.toLowerCase() === 'authorization';
    placement = { in: 'header', name, prefix: raw.prefix ?? (isAuthorization ? 'Bearer' : '') };
  }
  if (raw.header !== undefined || raw.prefix !== undefined || raw.query || raw.cookie || raw.basic)
    auth.placement = placement;

  if (raw.token) auth.token = raw.token;
  if (raw.limitedToken) auth.limitedToken = raw.limitedToken;
  if (raw.basic) auth.token = basicCredential(raw.basic, ['auth', 'basic'], envOf, addSecret);
  if (raw.limitedBasic)
    auth.limitedToken = basicCredential(raw.limitedBasic, ['auth', 'limitedBasic'], envOf, addSecret);
  // A token sent in a URL goes percent-encoded: that spelling is the same secret.
  if (placement.in === 'query')
    for (const [key, value] of [
      ['token', auth.token],
      ['limitedToken', auth.limitedToken],
    ] as const)
      if (value && encodeURIComponent(value) !== value) {
        const envVar = envOf(['auth', key]);
        addSecret({ value: encodeURIComponent(value), ...(envVar ? { envVar } : {}) });
      }
  for (const step of ['login', 'limitedLogin'] as const) {
    const login = raw[step];
    if (login) auth[step] = buildLogin(login, `auth.${step}`, baseUrl, report, envOf, addSecret);
  }
  return auth;
}

/** base64(user:password), registered as a secret a curl line rebuilds from the variables. */
function basicCredential(
  basic: RawBasic,
  at: Segment[],
  envOf: EnvOf,
  addSecret: (s: Secret) => void,
): string {
  const value = Buffer.from(`${basic.username}:${basic.password}`).toString('base64');
  const user = envOf([...at, 'username']);
  const password = envOf([...at, 'password']);
  const word = (text: string, envVar: string | undefined): string =>
    envVar ? `\${${envVar}}` : text.replace(/[\\"$`]/g, (c) => `\\${c}`);
  const shell =
    password !== undefined
      ? `$(printf '%s:%s' "${word(basic.username, user)}" "${word('', password)}" | base64 | tr -d '\\n')`
      : undefined;
  addSecret({ value, ...(shell ? { shell } : {}), source: at.join('.') });
  // The password is a secret whatever its variable is called (or written in the file).
  if (basic.password !== '') addSecret({ value: basic.password, ...(password ? { envVar: password } : {}) });
  return value;
}

function buildLogin(
  raw: RawLogin,
  step: string,
  baseUrl: string,
  report: Report,
  envOf: EnvOf,
  addSecret: (secret: Secret) => void,
): LoginConfig {
  const at = step.split('.');
  if (raw.json !== undefined && raw.form !== undefined)
    report([...at, 'form'], `cannot be used with ${step}.json: the login sends one body`);
  if (!/^(\/|$)/.test(raw.token) || /~[^01]|~$/.test(raw.token))
    report(
      [...at, 'token'],
      `must be a JSON pointer such as /token or /data/access_token (got ${JSON.stringify(raw.token)})`,
    );
  if (/^https?:\/\//i.test(raw.path)) {
    let origin = '';
    try {
      origin = new URL(raw.path).origin;
    } catch {
      report([...at, 'path'], 'is not a valid URL');
    }
    if (baseUrl !== '' && origin !== '' && origin !== new URL(baseUrl).origin)
      report(
        [...at, 'path'],
        `must be on the base URL's origin (${new URL(baseUrl).origin}): credentials never go elsewhere`,
      );
  } else {
    const dots = dotSegmentProblem(raw.path);
    if (dots !== undefined) report([...at, 'path'], dots);
  }
  const headers = mergeHeaders(raw.headers);
  if (raw.basic) {
    headers.authorization = `Basic ${basicCredential(raw.basic, [...at, 'basic'], envOf, addSecret)}`;
  }
  return {
    step,
    method: raw.method ?? 'POST',
    path: raw.path,
    ...(raw.json === undefined ? {} : { json: raw.json }),
    ...(raw.form === undefined ? {} : { form: { ...raw.form } }),
    headers,
    token: raw.token,
  };
}

/** The variable a path's whole value came from, from interpolation's map. */
export function envLookup(fromEnv: Map<string, string>): EnvOf {
  return (path) => fromEnv.get(pathKey(path));
}
