// URL templates of items and collections (`/widgets/{id}/`, `/widgets?id=eq.{id}`): filling them and reading ids back.
import type { ResourceConfig } from './types.js';

/** The placeholder of the item's own id in an item template. */
export const ID = 'id';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Names of the `{placeholders}` in a template, in order of appearance. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/** The default item template of a collection path: the path without its trailing slash, plus `/{id}`. */
export function defaultItemTemplate(path: string): string {
  return `${path.replace(/\/+$/, '')}/{${ID}}`;
}

/** The item template of a resource: the declared `item`, else the default of its path. */
export function itemTemplate(r: Pick<ResourceConfig, 'item' | 'path'>): string {
  return r.item ?? defaultItemTemplate(r.path);
}

/** True when the template addresses the item by a query parameter (`/widgets?id=eq.{id}`). */
export function byQuery(template: string): boolean {
  const q = template.indexOf('?');
  return q >= 0 && template.slice(q).includes(`{${ID}}`);
}

/** Whether a value can be sent as one path segment: not empty, and no "." or ".." (also between "/" or "\"). */
export function addressable(id: string): boolean {
  return id !== '' && !id.split(/[/\\]/).some((segment) => segment === '.' || segment === '..');
}

/**
 * Fills a template: each value percent-encoded as one path segment in the path, as a query value
 * in the query. Placeholders without a value stay as they are (a template bound to its parents
 * keeps `{id}`). Undefined when a value given is empty, or (in the path) a dot segment: no URL of
 * the template can name it, and a write must never go to what is left of it.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string | undefined {
  const q = template.indexOf('?');
  const path = q < 0 ? template : template.slice(0, q);
  const query = q < 0 ? '' : template.slice(q);
  let bad = false;
  const fill =
    (inPath: boolean) =>
    (whole: string, name: string): string => {
      const value = values[name];
      if (value === undefined) return whole;
      if (value === '' || (inPath && !addressable(value))) bad = true;
      return encodeURIComponent(value);
    };
  const out = path.replace(PLACEHOLDER, fill(true)) + query.replace(PLACEHOLDER, fill(false));
  return bad ? undefined : out;
}

/** Escapes a literal for a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Patterns made so far, by value pattern and part: every request is matched against every resource. */
const patterns = new Map<string, { re: RegExp; names: string[] }>();
/** Patterns kept at most (templates come from the config; bound nested forms are many more). */
const MAX_PATTERNS = 1000;

/** A regular expression of one template part: literals as they are, placeholders as one value. */
function partPattern(part: string, value: string): { re: RegExp; names: string[] } {
  const key = `${value} ${part}`;
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    pattern = makePattern(part, value);
    patterns.set(key, pattern);
  }
  return pattern;
}

function makePattern(part: string, value: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const m of part.matchAll(PLACEHOLDER)) {
    source += literal(part.slice(last, m.index)) + value;
    names.push(m[1]);
    last = (m.index ?? 0) + m[0].length;
  }
  source += literal(part.slice(last));
  return { re: new RegExp(`^${source}$`), names };
}

/**
 * The values a URL (its path relative to the base URL, and its query) gives the template's
 * placeholders, decoded; undefined when it is not a URL of the template. A trailing slash on
 * either side is no difference (the audit sends the template exactly; services redirect or
 * answer both); query parameters the template does not name are allowed.
 */
export function matchTemplate(
  template: string,
  relativePath: string,
  search: URLSearchParams,
): Record<string, string> | undefined {
  const q = template.indexOf('?');
  const tPath = (q < 0 ? template : template.slice(0, q)).replace(/\/+$/, '');
  const path = relativePath.replace(/\/+$/, '');
  const values: Record<string, string> = {};
  const { re, names } = partPattern(tPath, '([^/]+)');
  const m = re.exec(path);
  if (!m) return undefined;
  try {
    names.forEach((name, i) => (values[name] = decodeURIComponent(m[i + 1])));
  } catch {
    return undefined;
  }
  if (q >= 0) {
    for (const [key, pattern] of new URLSearchParams(template.slice(q + 1))) {
      const got = search.get(key);
      if (got === null) return undefined;
      const part = partPattern(pattern, '(.*)');
      const pm = part.re.exec(got);
      if (!pm) return undefined;
      part.names.forEach((name, i) => (values[name] = pm[i + 1]));
    }
  }
  return values;
}

/**
 * The item URL of a resource for an id (path and query, relative to the base URL); undefined for
 * an id no URL of the template can name (empty, or a dot segment in a path).
 */
export function itemUrl(r: Pick<ResourceConfig, 'item' | 'path'>, id: string): string | undefined {
  const url = fillTemplate(itemTemplate(r), { [ID]: id });
  return url === undefined || placeholders(url).includes(ID) ? undefined : url;
}

/**
 * The resource a URL names among `resources` (templates may keep placeholders: they match any
 * value): one of its items (with the id, decoded), or its collection. An item addressed by a query
 * filter is told from its collection by the filter; otherwise a collection path wins over an item
 * of a shorter one (`/a/b`: the collection b, not the item b of /a). `basePath`: the base URL's
 * path without trailing slash.
 */
export function targetIn(
  resources: readonly ResourceConfig[],
  basePath: string,
  url: string,
): { r: ResourceConfig; id?: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const path = parsed.pathname;
  if (!path.startsWith(`${basePath}/`)) return undefined;
  const relative = path.slice(basePath.length);
  const item = (query: boolean): { r: ResourceConfig; id?: string } | undefined => {
    for (const r of resources) {
      const template = itemTemplate(r);
      if (byQuery(template) !== query) continue;
      const id = matchTemplate(template, relative, parsed.searchParams)?.[ID];
      if (id !== undefined) return { r, id };
    }
    return undefined;
  };
  const none = new URLSearchParams();
  const collection = resources.find((r) => matchTemplate(r.path, relative, none) !== undefined);
  return item(true) ?? (collection ? { r: collection } : item(false));
}

/** The path of a base URL without its trailing slash ('' for an origin), as `targetIn` takes it. */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}
