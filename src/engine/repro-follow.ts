// URLs a reproduction script follows as the audit did: every next page of a collection it looks in, the Location a create answered.
import type { ReproCheck } from '../core/reproduce.js';
import type { Evidence } from '../core/types.js';
import { originOf, sq } from './repro-shell.js';

/** Pages a script reads at most per collection read. */
const MAX_PAGES = 50;

/** Query parameters that pick a page (the first page is read without them). */
const PAGE_PARAM =
  /^(page|cursor|offset|after|before|start|starting_after|ending_before|page_?token|pagetoken|page\[[a-z]+\])$/i;

/** The evidence steps a verdict reads as whole collections (lists where an item is looked for or counted). */
export function listSteps(check: ReproCheck): number[] {
  switch (check.kind) {
    case 'in-list':
      return check.lists;
    case 'others-gone':
    case 'new-items':
      return [check.before, check.after];
    default:
      return [];
  }
}

/** The URL of a collection's first page: the page it names without the parameters that choose a page. */
export function firstPage(url: string): string {
  try {
    const u = new URL(url);
    for (const name of [...u.searchParams.keys()]) if (PAGE_PARAM.test(name)) u.searchParams.delete(name);
    return u.href;
  } catch {
    return url;
  }
}

/**
 * jq over a page's body: where the next page is, as src/core/paging.ts finds it in a body: `url
 * <next>` (a `next`/`nextPage`/`nextUrl`/`nextLink` member, at the top or in meta, links, _links,
 * paging, pagination, page_info, pageInfo: a string or an object's href; empty on the last page),
 * or `page <n+1>` from a numeric `page` member. Nothing when the body names no next page.
 */
const NEXT_DEFS =
  'def flat: to_entries + ([.meta, .links, ._links, .paging, .pagination, .page_info, .pageInfo] | map(select(type == "object") | to_entries) | add // []); ';
const NEXT_EXPR =
  'if type != "object" then empty else (flat | map(select(.key | test("^next(page|url|link)?$"; "i"))) | .[0]) as $n ' +
  '| if $n != null then "url " + ($n.value | if type == "object" then .href else . end | if type == "string" then . else "" end) ' +
  'elif (.page | type) == "number" then "page \\(.page + 1)" else empty end end';
const NEXT_IN_BODY = sq(NEXT_DEFS + NEXT_EXPR);

/**
 * jq over `$tmp/NAME.all` then a page's body (one process where two would do the same): prints
 * the first line NEXT_IN_BODY prints over the page (an empty line if none), then the array of all
 * the values in NAME.all, as `jq -s .` prints it.
 */
const PAGE_READ = sq(
  `${NEXT_DEFS}def hint: ${NEXT_EXPR}; ` +
    'reduce inputs as $v ({all: [], page: []}; if input_filename == $all then .all += [$v] else .page += [$v] end) ' +
    '| ([.page[] | hint | . + "\\n"] | add // "" | split("\\n")[0] // ""), .all',
);

/**
 * The shell functions `next_page` (the absolute URL of the page after step NAME read from URL, on
 * the same origin only: credentials never travel elsewhere) and `pages` (a collection read and its
 * next pages, at most MAX_PAGES: each page's answer printed; the body of step NAME becomes the
 * JSON array of the pages' bodies, its status and headers those of the first page).
 */
export function pagesFunctions(): string[] {
  return [
    '# next_page NAME URL [HINT]: the URL of the page after the one step NAME read from URL (empty: none);',
    "# HINT: what its body says of the next page, when pages has read it already (jq's first line).",
    'next_page() {',
    '  local url=$2 next origin',
    `  origin=${originOf('url')}`,
    "  next=$(header \"$1\" link | tr ',' '\\n' | grep -Ei 'rel=\"?next\"?' | sed -nE 's/.*<([^>]*)>.*/\\1/p' | head -n 1)",
    '  if [ -z "$next" ]; then',
    `    if [ $# -ge 3 ]; then next=$3; else next=$(jq -r ${NEXT_IN_BODY} "$tmp/$1.body" 2>/dev/null | head -n 1); fi`,
    '    case "$next" in',
    '      "url "*) next=${next#url } ;;',
    '      "page "*)',
    '        local n=${next#page }',
    '        if printf \'%s\' "$url" | grep -Eq \'[?&]page=\'; then next=$(printf \'%s\' "$url" | sed -E "s/([?&]page=)[^&#]*/\\\\1$n/")',
    '        else case "$url" in *\\?*) next="$url&page=$n" ;; *) next="$url?page=$n" ;; esac; fi ;;',
    '      *) next="" ;;',
    '    esac',
    '  fi',
    '  case "$next" in',
    "    '') ;;",
    '    http://* | https://*) ;;',
    '    /*) next="$origin$next" ;;',
    '    \\?*) next="${url%%\\?*}$next" ;;',
    '    *) next="${url%/*}/$next" ;;',
    '  esac',
    '  case "$next" in "$origin" | "$origin"/* | "$origin"\\?*) printf \'%s\' "$next" ;; esac',
    '}',
    `# pages NAME LABEL URL CURL-ARGS...: a collection read and its next pages (at most ${MAX_PAGES}); $tmp/NAME.body: the array of their bodies.`,
    'pages() {',
    '  local name=$1 label=$2 url=$3 n=0 seen=" " hinted hint',
    '  shift 3',
    '  : >"$tmp/$name.all"',
    `  while [ -n "$url" ] && [ "$n" -lt ${MAX_PAGES} ]; do`,
    '    case "$seen" in *" $url "*) break ;; esac',
    '    seen="$seen$url "',
    '    send "$name.p$n" "$label (page $((n + 1)))" "$url" "$@"',
    '    { cat "$tmp/$name.p$n.body"; echo; } >>"$tmp/$name.all"',
    "    # One jq: the pages so far as one array (NAME's body if this page is the last) and this page's next-page hint.",
    '    hinted=no',
    `    if jq -rn --arg all "$tmp/$name.all" ${PAGE_READ} "$tmp/$name.all" "$tmp/$name.p$n.body" >"$tmp/$name.read" 2>/dev/null; then`,
    '      { IFS= read -r hint; cat >"$tmp/$name.body"; } <"$tmp/$name.read"',
    '      hinted=yes',
    '    fi',
    '    [ "$(status "$name.p$n")" = 200 ] || break',
    '    if [ "$hinted" = yes ]; then url=$(next_page "$name.p$n" "$url" "$hint"); else url=$(next_page "$name.p$n" "$url"); fi',
    '    n=$((n + 1))',
    '  done',
    '  [ "${hinted:-no}" = yes ] || jq -s . "$tmp/$name.all" >"$tmp/$name.body" 2>/dev/null || cp "$tmp/$name.p0.body" "$tmp/$name.body"',
    '  cp "$tmp/$name.p0.status" "$tmp/$name.status"',
    '  cp "$tmp/$name.p0.head" "$tmp/$name.head"',
    '}',
  ];
}

/** The absolute URL an answer's Location header names, if it has one that parses. */
export function locationOf(e: Evidence): string | undefined {
  const header = Object.entries(e.response?.headers ?? {}).find(([k]) => k.toLowerCase() === 'location')?.[1];
  if (header === undefined) return undefined;
  try {
    return new URL(header, e.request.url).href;
  } catch {
    return undefined;
  }
}

/** Shell: `loc` set to the absolute URL the Location of step `step`'s answer names (as the audit resolved it). */
export function followLines(loc: string, step: string): string[] {
  return [
    `${loc}=$(header ${step} location)`,
    `case "$${loc}" in`,
    `  http://* | https://*) ;;`,
    `  /*) ${loc}="\${ORIGIN}$${loc}" ;;`,
    `  *) ${loc}="\${BASE_URL%/}/$${loc}" ;;`,
    'esac',
  ];
}
