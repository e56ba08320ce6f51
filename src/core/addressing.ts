// URL templates of items and collections (`/widgets/{id}/`, `/widgets?id=eq.{id}`): filling them and reading ids back.
import { escapeRegExp } from './regexp.js';
import type { ResourceConfig } from './types.js';

/** The placeholder of the item's own id in an item template. */
export const ID = 'id';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Whether two paths are the same but for trailing slashes (`/widgets`, `/widgets/`). */
export function sameButSlash(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** Names of the `{placeholders}` in a template, in order of appearance. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/** The default item template of a collection path: the path without its trailing slash, plus `/{id}`. */
export function defaultItemTemplate(path: string): string {
  return `${trimSlashes(path)}/{${ID}}`;
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

/** A template compiled once: the values a URL gives its placeholders, undefined when it is not one of its URLs. */
type Matcher = (relativePath: string, search: URLSearchParams) => Record<string, string> | undefined;

/** Matchers made so far, by template (`matchTemplate` is called with a handful of templates). */
const matchers = new Map<string, Matcher>();
/** Matchers kept at most (templates come from the config; bound nested forms are many more). */
const MAX_MATCHERS = 1000;

/** A regular expression of one template part: literals as they are, placeholders as one value. */
function partPattern(part: string, value: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const m of part.matchAll(PLACEHOLDER)) {
    source += escapeRegExp(part.slice(last, m.index)) + value;
    names.push(m[1]);
    last = (m.index ?? 0) + m[0].length;
  }
  source += escapeRegExp(part.slice(last));
  return { re: new RegExp(`^${source}$`), names };
}

/** A path without its trailing slashes (a loop: the regular expression was a hot spot at scale). */
function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** The path part of a template (before any `?`), without trailing slashes. */
function templatePath(template: string): string {
  const q = template.indexOf('?');
  return trimSlashes(q < 0 ? template : template.slice(0, q));
}

/**
 * The path matcher of a template whose segments are each a literal or one whole placeholder
 * (`/c/{customerId}/o/{id}`), by segments: no regular expression, which at thousands of resources
 * cost more memory (its compiled code) than the rest of the index. Undefined for other templates.
 */
function segmentMatcher(
  path: string,
): ((relative: string) => Record<string, string> | undefined) | undefined {
  const segments = path.split('/').map((s) => {
    const name = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(s)?.[1];
    return name === undefined ? { literal: s } : { name };
  });
  if (segments.some((s) => s.literal?.includes('{'))) return undefined;
  return (relative) => {
    const got = relative.split('/');
    if (got.length !== segments.length) return undefined;
    const values: Record<string, string> = {};
    for (let i = 0; i < got.length; i++) {
      const { literal, name } = segments[i];
      if (name === undefined) {
        if (got[i] !== literal) return undefined;
      } else {
        if (got[i] === '') return undefined;
        try {
          values[name] = decodeURIComponent(got[i]);
        } catch {
          return undefined;
        }
      }
    }
    return values;
  };
}

/** The path matcher of any template: by segments when it can be, else a regular expression. */
function pathMatcher(path: string): (relative: string) => Record<string, string> | undefined {
  const bySegments = segmentMatcher(path);
  if (bySegments) return bySegments;
  const { re, names } = partPattern(path, '([^/]+)');
  return (relative) => {
    const m = re.exec(relative);
    if (!m) return undefined;
    const values: Record<string, string> = {};
    try {
      names.forEach((name, i) => (values[name] = decodeURIComponent(m[i + 1])));
    } catch {
      return undefined;
    }
    return values;
  };
}

/** Compiles a template into its matcher (see `matchTemplate`). */
function compileTemplate(template: string): Matcher {
  const q = template.indexOf('?');
  const path = pathMatcher(templatePath(template));
  const query =
    q < 0
      ? []
      : [...new URLSearchParams(template.slice(q + 1))].map(([key, p]) => ({
          key,
          ...partPattern(p, '(.*)'),
        }));
  return (relativePath, search) => {
    const values = path(trimSlashes(relativePath));
    if (!values) return undefined;
    for (const part of query) {
      const got = search.get(part.key);
      if (got === null) return undefined;
      const pm = part.re.exec(got);
      if (!pm) return undefined;
      part.names.forEach((name, i) => (values[name] = pm[i + 1]));
    }
    return values;
  };
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
  return cachedMatcher(template)(relativePath, search);
}

/** The matcher of a template, compiled once while it is among the last `MAX_MATCHERS` used. */
function cachedMatcher(template: string): Matcher {
  let matcher = matchers.get(template);
  if (matcher === undefined) {
    if (matchers.size >= MAX_MATCHERS) matchers.clear();
    matcher = compileTemplate(template);
    matchers.set(template, matcher);
  }
  return matcher;
}

/**
 * The item URL of a resource for an id (path and query, relative to the base URL); undefined for
 * an id no URL of the template can name (empty, or a dot segment in a path).
 */
export function itemUrl(r: Pick<ResourceConfig, 'item' | 'path'>, id: string): string | undefined {
  const url = fillTemplate(itemTemplate(r), { [ID]: id });
  return url === undefined || placeholders(url).includes(ID) ? undefined : url;
}

/** What a URL names: one of a resource's items (with the id, decoded), or its collection. */
export type Target = { r: ResourceConfig; id?: string };

/** One template of a resource in a `TargetIndex`, with the resource's place in the list. */
interface Entry {
  r: ResourceConfig;
  order: number;
  match: Matcher;
}

/**
 * Templates filed by the first path segment they can match (a literal one), so that a URL is
 * matched against the few templates of its own first segment, not against every resource; those
 * whose first segment is a placeholder (or that have none) are tried for every URL.
 */
class Bucketed {
  private readonly byFirst = new Map<string, Entry[]>();
  private readonly anywhere: Entry[] = [];

  add(template: string, entry: Entry): void {
    const path = templatePath(template);
    const first = path.startsWith('/') ? path.slice(1).split('/')[0] : undefined;
    if (first === undefined || first.includes('{')) {
      this.anywhere.push(entry);
      return;
    }
    const list = this.byFirst.get(first);
    if (list) list.push(entry);
    else this.byFirst.set(first, [entry]);
  }

  /** The first entry in list order whose template the URL matches, with the values it gives. */
  find(
    first: string,
    relative: string,
    search: URLSearchParams,
  ): { entry: Entry; values: Record<string, string> } | undefined {
    const a = firstMatch(this.byFirst.get(first), relative, search);
    const b = this.anywhere.length > 0 ? firstMatch(this.anywhere, relative, search) : undefined;
    if (a && b) return a.entry.order < b.entry.order ? a : b;
    return a ?? b;
  }
}

function firstMatch(
  entries: readonly Entry[] | undefined,
  relative: string,
  search: URLSearchParams,
): { entry: Entry; values: Record<string, string> } | undefined {
  for (const entry of entries ?? []) {
    const values = entry.match(relative, search);
    if (values !== undefined) return { entry, values };
  }
  return undefined;
}

/**
 * The resources of a run, indexed to tell which one a URL names (see `find`) in time that does not
 * grow with their number: every request the audit sends is looked up, several times.
 */
export class TargetIndex {
  private readonly byQuery = new Bucketed();
  private readonly collections = new Bucketed();
  private readonly items = new Bucketed();

  /**
   * `basePath`: the base URL's path without trailing slash (`basePathOf`). `compile` makes a
   * template's matcher (the shared cache suits one-off lookups among a few resources).
   */
  constructor(
    resources: readonly ResourceConfig[],
    private readonly basePath: string,
    compile: (template: string) => Matcher = compileTemplate,
  ) {
    resources.forEach((r, order) => {
      const template = itemTemplate(r);
      const matchItem = compile(template);
      // An item is named only with its id: a URL of the template that gives none names no item.
      const match: Matcher = (relative, search) => {
        const values = matchItem(relative, search);
        return values?.[ID] === undefined ? undefined : values;
      };
      (byQuery(template) ? this.byQuery : this.items).add(template, { r, order, match });
      this.collections.add(r.path, { r, order, match: compile(r.path) });
    });
  }

  /**
   * The resource a URL names (templates may keep placeholders: they match any value): one of its
   * items (with the id, decoded), or its collection. An item addressed by a query filter is told
   * from its collection by the filter; otherwise a collection path wins over an item of a shorter
   * one (`/a/b`: the collection b, not the item b of /a).
   */
  find(url: string): Target | undefined {
    // The same URL is looked up several times per request (the context, custody, observers...).
    if (this.recent.has(url)) {
      const hit = this.recent.get(url);
      return hit && { ...hit };
    }
    const found = this.lookUp(url);
    if (this.recent.size >= RECENT_URLS) this.recent.clear();
    this.recent.set(url, found);
    return found && { ...found };
  }

  /** URLs looked up lately, and what they name. */
  private readonly recent = new Map<string, Target | undefined>();

  private lookUp(url: string): Target | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const path = parsed.pathname;
    if (!path.startsWith(`${this.basePath}/`)) return undefined;
    const relative = path.slice(this.basePath.length);
    const first = trimSlashes(relative).slice(1).split('/')[0];
    const item = (bucket: Bucketed): Target | undefined => {
      const found = bucket.find(first, relative, parsed.searchParams);
      return found && { r: found.entry.r, id: found.values[ID] };
    };
    const collection = this.collections.find(first, relative, NO_QUERY);
    return item(this.byQuery) ?? (collection ? { r: collection.entry.r } : item(this.items));
  }
}

const NO_QUERY = new URLSearchParams();
/** URLs a TargetIndex remembers (then it forgets them all at once). */
const RECENT_URLS = 1024;

/**
 * The resource a URL names among `resources` (see `TargetIndex.find`, which a caller that looks
 * up many URLs among the same resources keeps instead). `basePath`: the base URL's path without
 * trailing slash.
 */
export function targetIn(
  resources: readonly ResourceConfig[],
  basePath: string,
  url: string,
): Target | undefined {
  return new TargetIndex(resources, basePath, cachedMatcher).find(url);
}

/** The path of a base URL without its trailing slash ('' for an origin), as `targetIn` takes it. */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}
