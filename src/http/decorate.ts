// The one place a request gets its configured headers, query parameters, body media type and credential.
import type { AuthChoice, SendOptions } from '../core/check.js';
import {
  BEARER_PLACEMENT,
  type CredentialPlacement,
  type Operation,
  type RequestExtras,
  type ResourceConfig,
} from '../core/types.js';

/** What the client decorates requests with (from the config; every part optional). */
export interface RequestProfile {
  placement?: CredentialPlacement;
  /** Top-level headers, query parameters and media type. */
  requests?: RequestExtras & { contentType?: string };
  resources?: ReadonlyArray<Pick<ResourceConfig, 'name' | 'path' | 'requests'>>;
}

/** A request as it goes out, before the transport: URL with its query, every header. */
export interface Decorated {
  url: string;
  headers: Record<string, string>;
}

/**
 * The operation a request imitates, for the headers it carries: a POST is create's, a PUT
 * replace's, a GET of the collection list's and a GET of anything else under it read's (a probe of
 * an unknown id included). `options.operation` wins when a check knows better.
 */
export function operationOf(method: string, path: string, collection: string | undefined): Operation {
  switch (method.toUpperCase()) {
    case 'POST':
      return 'create';
    case 'PUT':
      return 'replace';
    case 'PATCH':
      return 'update';
    case 'DELETE':
      return 'delete';
    default:
      return collection !== undefined && trimmed(stripQuery(path)) === trimmed(collection) ? 'list' : 'read';
  }
}

/**
 * Decorates requests for one client: `tokens` are read at each request (a login sets them after
 * the client exists). Precedence, lowest first: the client's defaults, the configured headers
 * (top level < resource < reads/writes < operation), the credential, the check's own headers.
 */
export class RequestDecorator {
  readonly placement: CredentialPlacement;

  constructor(
    private readonly profile: RequestProfile,
    private readonly tokens: () => { full?: string; limited?: string },
    /** The base URL (no trailing slash): resource paths are relative to it. */
    private readonly baseUrl: string,
  ) {
    this.placement = profile.placement ?? BEARER_PLACEMENT;
  }

  /** The credential value a choice puts where the scheme puts it (header value with its prefix). */
  credential(auth: AuthChoice | undefined): string | undefined {
    const choice = auth ?? 'full';
    if (choice === 'none') return undefined;
    if (typeof choice === 'object') return 'credential' in choice ? choice.credential : undefined;
    const token = choice === 'full' ? this.tokens().full : this.tokens().limited;
    if (token === undefined) return undefined;
    const p = this.placement;
    return p.in === 'header' && p.prefix !== '' ? `${p.prefix} ${token}` : token;
  }

  /** The request's URL and headers (`base`: the client's own, e.g. user-agent and accept). */
  decorate(
    options: SendOptions,
    url: string,
    base: Record<string, string>,
    hasBody: boolean,
    resourceName: string | undefined,
  ): Decorated {
    const r = this.resourceOf(resourceName, url);
    const extras = this.extras(options, url, r);
    const headers: Record<string, string> = { ...base };
    if (hasBody) {
      const type =
        options.contentType === undefined
          ? (r?.requests?.contentType ?? this.profile.requests?.contentType ?? 'application/json')
          : options.contentType;
      if (type !== null) headers['content-type'] = type;
    }
    for (const [k, v] of Object.entries(extras.headers)) headers[k.toLowerCase()] = v;
    const query: Array<[string, string]> = Object.entries(extras.query);
    const p = this.placement;
    const cookies: string[] = [];
    const placed = this.credential(options.auth);
    const auth = options.auth;
    if (typeof auth === 'object' && 'authorization' in auth) headers.authorization = auth.authorization;
    else if (placed !== undefined) {
      if (p.in === 'header') headers[p.name.toLowerCase()] = placed;
      else if (p.in === 'query') query.push([p.name, placed]);
      else cookies.push(`${p.name}=${placed}`);
    }
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      if (k.toLowerCase() !== 'cookie' || p.in !== 'cookie') headers[k.toLowerCase()] = v;
      else {
        // The credential cookie is the scheme's alone ("no credentials" removes it wherever it
        // came from, a cookie the server set included); the check's other cookies go beside it.
        const others = v
          .split(';')
          .map((c) => c.trim())
          .filter((c) => c !== '' && c.split('=')[0].trim() !== p.name);
        cookies.unshift(...others);
      }
    }
    if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join('; ');
    return { url: withQuery(url, query), headers };
  }

  /** The configured headers and query of the operation the request imitates. */
  private extras(
    options: SendOptions,
    url: string,
    r: Pick<ResourceConfig, 'path' | 'requests'> | undefined,
  ): RequestExtras {
    const top = this.profile.requests ?? { headers: {}, query: {} };
    if (r?.requests === undefined) return top;
    const op = options.operation ?? operationOf(options.method, this.pathOf(url), r.path);
    return r.requests.operations[op];
  }

  /** The named resource, else the one whose collection path holds the URL (longest first). */
  private resourceOf(
    name: string | undefined,
    url: string,
  ): Pick<ResourceConfig, 'name' | 'path' | 'requests'> | undefined {
    const { byName, byPath } = this.index();
    if (name !== undefined) {
      const named = byName.get(name);
      if (named) return named;
    }
    // The collection paths that hold the URL are its own path and each of its prefixes ending
    // before a '/': looked up longest first, so the cost does not grow with the resources.
    const path = trimmed(stripQuery(this.pathOf(url)));
    const exact = byPath.get(path);
    if (exact) return exact;
    for (let at = path.lastIndexOf('/'); at >= 0; at = at === 0 ? -1 : path.lastIndexOf('/', at - 1)) {
      const found = byPath.get(path.slice(0, at));
      if (found) return found;
    }
    return undefined;
  }

  private indexed?: {
    byName: Map<string, Pick<ResourceConfig, 'name' | 'path' | 'requests'>>;
    byPath: Map<string, Pick<ResourceConfig, 'name' | 'path' | 'requests'>>;
  };

  /** The resources by name and by collection path (the first of each, as a scan in order would find). */
  private index(): NonNullable<RequestDecorator['indexed']> {
    if (!this.indexed) {
      const byName = new Map<string, Pick<ResourceConfig, 'name' | 'path' | 'requests'>>();
      const byPath = new Map<string, Pick<ResourceConfig, 'name' | 'path' | 'requests'>>();
      for (const r of this.profile.resources ?? []) {
        if (!byName.has(r.name)) byName.set(r.name, r);
        const base = trimmed(stripQuery(r.path));
        if (!byPath.has(base)) byPath.set(base, r);
      }
      this.indexed = { byName, byPath };
    }
    return this.indexed;
  }

  /** The URL's path and query relative to the base URL. */
  private pathOf(url: string): string {
    return url.startsWith(this.baseUrl) ? url.slice(this.baseUrl.length) : url;
  }
}

/** Appends query parameters the URL does not already carry (a parameter in the path wins). */
export function withQuery(url: string, query: ReadonlyArray<[string, string]>): string {
  if (query.length === 0) return url;
  const hash = url.indexOf('#');
  const head = hash < 0 ? url : url.slice(0, hash);
  const at = head.indexOf('?');
  const present = new URLSearchParams(at < 0 ? '' : head.slice(at + 1));
  const added = query
    .filter(([k]) => !present.has(k))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (added.length === 0) return url;
  const sep = at < 0 ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${sep}${added.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

function stripQuery(path: string): string {
  const at = path.search(/[?#]/);
  return at < 0 ? path : path.slice(0, at);
}

function trimmed(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
