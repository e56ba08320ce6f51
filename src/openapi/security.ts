// The security scheme a document declares -> the config's auth keys (bearer, an API key in a header/query/cookie, HTTP Basic).
import { isObject } from '../core/shapes.js';
import { asObjects, operationOf, pathItems, PATH_METHODS, type Json, type SpecVersion } from './document.js';

/** Where the credential goes, as the config's auth keys say it (values never: they come from the environment). */
export interface DerivedPlacement {
  header?: string;
  prefix?: string;
  query?: string;
  cookie?: string;
  basic?: true;
}

/** How the document says clients authenticate, as far as the audit cares. */
export interface DerivedSecurity {
  /**
   * `bearer`: `Authorization: Bearer` (http bearer, OAuth 2, OpenID Connect, an API key in the
   * Authorization header without a stated prefix); `apiKey`: a key in a header (with a prefix),
   * a query parameter or a cookie; `basic`: HTTP Basic; `none`: no security declared;
   * `unsupported`: only schemes the audit cannot speak (digest, mutual TLS...).
   */
  kind: 'bearer' | 'apiKey' | 'basic' | 'none' | 'unsupported';
  /** The auth keys of the scheme chosen (empty for bearer, the default). */
  placement: DerivedPlacement;
  /** The chosen scheme's name in the document. */
  scheme?: string;
  /** Parameters that carry a credential of some declared scheme (`header:x-api-key`, `query:api_key`): never request parameters. */
  credentialParams: Set<string>;
  /**
   * Every operation the audit probes takes only a credential (see `takesCredentials`), and the
   * audit can speak the chosen scheme: a run without its credential would meet only 401s.
   */
  required?: boolean;
  notes: string[];
}

/** A declared scheme the audit can speak, with its preference (lower first) and auth keys. */
interface Candidate {
  name: string;
  rank: number;
  kind: DerivedSecurity['kind'];
  placement: DerivedPlacement;
  described: string;
}

/**
 * Reads the security requirements in force (top level and per operation) and picks the scheme to
 * use: a bearer-style one first, then an API key in a header, HTTP Basic, an API key in the query,
 * in a cookie last (a session cookie usually needs CSRF tokens for writes). The others are named
 * in a note, as are requirements that need two schemes at once.
 */
export function derivedSecurity(doc: Json, version: SpecVersion): DerivedSecurity {
  const definitions =
    version === '2.0' ? doc.securityDefinitions : (doc.components as Json | undefined)?.securitySchemes;
  const schemes = isObject(definitions) ? definitions : {};
  const used = new Set<string>();
  const together = new Set<string>();
  const addAll = (requirements: unknown): void => {
    for (const requirement of asObjects(requirements)) {
      const names = Object.keys(requirement);
      for (const name of names) used.add(name);
      if (names.length > 1) together.add(names.map((n) => `"${n}"`).join(' and '));
    }
  };
  addAll(doc.security);
  for (const [, item] of pathItems(doc)) {
    for (const method of PATH_METHODS) addAll(operationOf(item, method)?.security);
  }
  const credentialParams = new Set<string>();
  for (const scheme of Object.values(schemes))
    if (isObject(scheme) && scheme.type === 'apiKey' && typeof scheme.name === 'string')
      credentialParams.add(`${String(scheme.in)}:${scheme.name.toLowerCase()}`);
  credentialParams.add('header:authorization');
  if (used.size === 0) return { kind: 'none', placement: {}, credentialParams, notes: [] };

  const candidates: Candidate[] = [];
  const unsupported: string[] = [];
  for (const name of used) {
    const scheme = schemes[name];
    if (!isObject(scheme)) continue;
    const candidate = candidateOf(name, scheme);
    if (candidate) candidates.push(candidate);
    else unsupported.push(`"${name}" (${describeScheme(scheme)})`);
  }
  const notes: string[] = [];
  candidates.sort((a, b) => a.rank - b.rank);
  const chosen = candidates[0];
  if (!chosen) {
    notes.push(
      `security scheme ${unsupported.join(', ')} is not supported: the audit authenticates with a token ` +
        `(in a header, a query parameter or a cookie) or HTTP Basic, so requests the service refuses for ` +
        `lack of its own credential will fail their checks (limit the run with --only, or put a gateway in front)`,
    );
    return { kind: 'unsupported', placement: {}, credentialParams, notes };
  }
  const others = [...candidates.slice(1).map((c) => `"${c.name}" (${c.described})`), ...unsupported];
  if (others.length > 0)
    notes.push(
      `security: the audit uses "${chosen.name}" (${chosen.described}); the document also accepts ${others.join(', ')}`,
    );
  if (chosen.kind === 'bearer' && chosen.described.startsWith('API key'))
    notes.push(
      `security scheme "${chosen.name}" is an API key in the Authorization header: sent as "Bearer <token>" (set auth.prefix when the API expects another scheme, such as Token)`,
    );
  for (const names of together)
    notes.push(
      `security: a requirement needs ${names} together: the audit sends one credential; add the other's header under headers: in the config`,
    );
  return {
    kind: chosen.kind,
    placement: chosen.placement,
    scheme: chosen.name,
    credentialParams,
    notes,
  };
}

/**
 * Whether an operation takes only a credential: the requirements in force (its own `security`,
 * else the document's) name a scheme in each alternative. None in force, `security: []`, or an
 * empty `{}` among the alternatives lets anonymous clients in.
 */
export function takesCredentials(op: Json, doc: Json): boolean {
  const requirements = op.security ?? doc.security;
  return (
    Array.isArray(requirements) &&
    requirements.length > 0 &&
    requirements.every((r) => isObject(r) && Object.keys(r).length > 0)
  );
}

function candidateOf(name: string, scheme: Json): Candidate | undefined {
  const type = String(scheme.type);
  const httpScheme = String(scheme.scheme ?? '').toLowerCase();
  const described = describeScheme(scheme);
  if ((type === 'http' && httpScheme === 'bearer') || type === 'oauth2' || type === 'openIdConnect')
    return { name, rank: 0, kind: 'bearer', placement: {}, described };
  if ((type === 'http' && httpScheme === 'basic') || type === 'basic')
    return { name, rank: 2, kind: 'basic', placement: { basic: true }, described };
  if (type !== 'apiKey' || typeof scheme.name !== 'string' || scheme.name === '') return undefined;
  const where = String(scheme.in);
  if (where === 'query')
    return { name, rank: 3, kind: 'apiKey', placement: { query: scheme.name }, described };
  if (where === 'cookie')
    return { name, rank: 4, kind: 'apiKey', placement: { cookie: scheme.name }, described };
  if (where !== 'header') return undefined;
  const prefix = statedPrefix(scheme.description);
  const isAuthorization = scheme.name.toLowerCase() === 'authorization';
  if (isAuthorization && prefix === undefined)
    return { name, rank: 0, kind: 'bearer', placement: {}, described };
  const placement: DerivedPlacement = isAuthorization ? { prefix: prefix! } : { header: scheme.name };
  if (!isAuthorization && prefix !== undefined) placement.prefix = prefix;
  return {
    name,
    rank: 1,
    kind: 'apiKey',
    placement,
    described: prefix === undefined ? described : `${described} with prefix "${prefix}"`,
  };
}

/** A prefix the scheme's description states (drf-spectacular: `Token-based authentication with required prefix "Token"`). */
function statedPrefix(description: unknown): string | undefined {
  if (typeof description !== 'string') return undefined;
  const match = /\bprefix\s*[:=]?\s*["'`“]([!#$%&'*+.^_|~0-9A-Za-z-]+)["'`”]/i.exec(description);
  return match?.[1];
}

function describeScheme(scheme: Json): string {
  if (scheme.type === 'apiKey') return `API key in ${String(scheme.in)} "${String(scheme.name)}"`;
  if (scheme.type === 'http' || scheme.type === 'basic') return `HTTP ${String(scheme.scheme ?? 'basic')}`;
  return String(scheme.type);
}
