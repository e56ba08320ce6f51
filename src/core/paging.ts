// Paged collections: whether a list answer is one page of several, and where the next page is.
import type { Exchange } from './check.js';
import { isObject, unwrapList } from './shapes.js';

/** List lengths that suggest a silent page limit on a bare array. */
const PAGE_SIZES = new Set([10, 20, 25, 30, 50, 100, 200, 250, 500, 1000]);

/** Why the list answer looks like one page of several, or undefined when it looks complete. */
export function pagingHint(x: Exchange): string | undefined {
  if (/rel="?next"?/i.test(x.headers.link ?? '')) return 'a Link rel="next" header';
  const body = x.json;
  const list = unwrapList(body) ?? [];
  // A list exactly as long as a usual page size may be cut silently, unless the body says it is whole.
  const pageSized = PAGE_SIZES.has(list.length) ? `a list of exactly ${list.length} items` : undefined;
  if (!isObject(body)) return pageSized;
  let complete = false;
  for (const [key, value] of flatFields(body)) {
    const k = key.toLowerCase().replace(/[_-]/g, '');
    if (['next', 'nextpage', 'nextcursor', 'nextpagetoken', 'nexttoken', 'cursor'].includes(k)) {
      if (value) return `"${key}" is set`;
      complete = true;
    }
    if (['hasmore', 'hasnext', 'hasnextpage', 'more'].includes(k)) {
      if (value === true) return `"${key}" is true`;
      complete = complete || value === false;
    }
    if (
      ['total', 'totalitems', 'totalcount', 'totalresults', 'count', 'totalelements'].includes(k) &&
      typeof value === 'number'
    ) {
      if (value > list.length) return `"${key}" is ${value} but the page holds ${list.length}`;
      complete = true;
    }
    if (['totalpages', 'pages', 'pagecount'].includes(k) && typeof value === 'number') {
      if (value > 1) return `"${key}" is ${value}`;
      complete = true;
    }
  }
  return complete ? undefined : pageSized;
}

/** Top-level members, and those of common paging envelopes (meta, links, paging, pagination). */
function flatFields(body: Record<string, unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = Object.entries(body);
  for (const key of ['meta', 'links', '_links', 'paging', 'pagination', 'page_info', 'pageInfo']) {
    const inner = body[key];
    // One by one: a hostile envelope of 200,000 members is more arguments than a call takes.
    if (isObject(inner)) for (const entry of Object.entries(inner)) out.push(entry);
  }
  return out;
}

/** The path of the next page: a Link rel="next", a "next" URL in the body, or page number + 1. */
export function nextPage(x: Exchange): string | undefined {
  const link = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(x.headers.link ?? '')?.[1];
  const body = isObject(x.json) ? flatFields(x.json) : [];
  const nextField = body.find(([k]) => /^next(page|url|link)?$/i.test(k));
  const nextUrl = link ?? (isObject(nextField?.[1]) ? nextField[1].href : nextField?.[1]);
  if (typeof nextUrl === 'string' && nextUrl !== '') {
    try {
      const target = new URL(nextUrl, x.url);
      // Only pages of the same origin: credentials never travel elsewhere.
      return target.origin === new URL(x.url).origin ? target.href : undefined;
    } catch {
      return undefined;
    }
  }
  // A "next" member that is empty says this is the last page.
  if (nextField !== undefined) return undefined;
  const page = body.find(([k]) => k === 'page')?.[1];
  if (typeof page === 'number' && Number.isInteger(page)) {
    const current = new URL(x.url);
    current.searchParams.set('page', String(page + 1));
    return current.href;
  }
  return undefined;
}
