// `init` without --collections: find the API's OpenAPI document at the usual URLs, else the collections its base URL links to.
import { UnreachableError } from '../core/errors.js';
import { isObject } from '../core/shapes.js';
import type { HttpClient } from '../http/client.js';

/** Where OpenAPI documents usually are: tried under the base URL, then under its origin. */
export const OPENAPI_PATHS = ['/openapi.json', '/swagger.json', '/v3/api-docs'];

/** What discovery found: a document, the collections linked from the base URL, or nothing. */
export type Discovery =
  | { kind: 'openapi'; url: string }
  | { kind: 'links'; collections: string[] }
  | { kind: 'none'; tried: string[]; base: string };

/** The URLs an OpenAPI document is looked for at, in order, without repeats. */
export function documentCandidates(baseUrl: string): string[] {
  const origin = new URL(baseUrl).origin;
  const base = baseUrl.replace(/\/+$/, '');
  return [...new Set([...OPENAPI_PATHS.map((p) => base + p), ...OPENAPI_PATHS.map((p) => origin + p)])];
}

/** True when a JSON body is an OpenAPI 3.x or Swagger 2.0 document. */
function isOpenApi(json: unknown): boolean {
  if (!isObject(json)) return false;
  return (
    (typeof json.openapi === 'string' && /^3\./.test(json.openapi)) ||
    (typeof json.swagger === 'string' && json.swagger.startsWith('2'))
  );
}

/**
 * The collections a base URL's answer links to: every string in its JSON body (HAL `_links`,
 * JSON:API `links`, plain `{"widgets": "/v1/widgets"}`, to a few levels deep) and every target of
 * its `Link` header that is one path segment below the base URL, on its origin. URI templates
 * (`{?page}`) are dropped. Returns collection paths relative to the base URL (`/widgets`).
 */
export function linkedCollections(baseUrl: string, json: unknown, linkHeader?: string): string[] {
  const base = new URL(`${baseUrl.replace(/\/+$/, '')}/`);
  const found = new Set<string>();
  const consider = (text: string): void => {
    const href = text.replace(/\{[^}]*\}/g, '').trim();
    if (href === '' || href.length > 2000 || !/^(https?:\/\/|\/)/i.test(href)) return;
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      return;
    }
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return;
    const rest = url.pathname.slice(base.pathname.length).replace(/\/+$/, '');
    // One segment: a collection directly under the base (not the base itself, not an item).
    if (/^[^/]+$/.test(rest) && !/^\.\.?$/.test(rest)) found.add(`/${decodeURIComponent(rest)}`);
  };
  const walk = (node: unknown, depth: number): void => {
    if (depth > 4) return;
    if (typeof node === 'string') consider(node);
    else if (Array.isArray(node)) node.slice(0, 200).forEach((item) => walk(item, depth + 1));
    else if (isObject(node))
      Object.values(node)
        .slice(0, 200)
        .forEach((item) => walk(item, depth + 1));
  };
  walk(json, 0);
  for (const m of (linkHeader ?? '').matchAll(/<([^>]*)>/g)) consider(m[1]);
  return [...found];
}

/** Looks for an OpenAPI document, then for links at the base URL (GET only). */
export async function discover(client: HttpClient, baseUrl: string): Promise<Discovery> {
  const tried = documentCandidates(baseUrl);
  for (const url of tried) {
    const answer = await client.send({ method: 'GET', path: url });
    if (answer.status === undefined && !client.everConnected)
      throw new UnreachableError(`cannot reach ${url}: ${answer.error?.message ?? 'no answer'}`);
    if (answer.status === 200 && isOpenApi(answer.json)) return { kind: 'openapi', url };
  }
  // The base URL as given, then with a trailing slash (services route one or the other).
  for (const url of [baseUrl, `${baseUrl}/`]) {
    const root = await client.send({ method: 'GET', path: url });
    if (root.status === undefined || root.status >= 300) continue;
    const collections = linkedCollections(baseUrl, root.json, root.headers.link);
    if (collections.length > 0) return { kind: 'links', collections };
    break;
  }
  return { kind: 'none', tried, base: baseUrl };
}
