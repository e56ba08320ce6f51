// The fixed parts of a reproduction script: its prologue (variables, helpers, the cleanup trap) and its verdicts in shell.
import type { ReproCheck } from '../core/reproduce.js';
import { dq, sq } from '../http/curl.js';

/** A step of the script as the verdict sees it: its file stem, label, the status the audit saw. */
export interface StepRef {
  /** File stem of its answer in the script's temporary folder (`e0`, `s1`). */
  name: string;
  /** `GET /widgets/{id}`: what the script prints about it. */
  label: string;
  /** The status the audit saw ('000' for none). */
  seen: string;
  /** The shell variable holding the id its create captured, if it is a create the script names. */
  idVar?: string;
  /** The shell variable of the created item its URL names, if any. */
  urlVar?: string;
  /** Its literal item id otherwise, if its URL names an item. */
  urlId?: string;
  /** It reads a collection (its answer lists items, in any order). */
  list?: boolean;
}

// The shell quoting of curl lines, so a script and a pasted curl line quote alike.
export { dq, sq } from '../http/curl.js';

/** The shell expression of the origin (scheme://host:port) of the URL in shell variable `name`. */
export function originOf(name: string): string {
  return `$(printf '%s' "$${name}" | sed -E 's#^([A-Za-z][A-Za-z0-9+.-]*://[^/?#]*).*#\\1#')`;
}

/**
 * Helpers every script defines: `send` (one request: status, headers and body to files, a line
 * printed), `status`, `header` (a response header's last value), `body`, the cleanup list run by
 * the EXIT trap, and `verdict`.
 */
export function prologue(): string[] {
  return [
    'tmp=$(mktemp -d) || exit 2',
    'cleanup=()',
    '# Deletes what the script created (newest first), whatever happened before.',
    'finish() {',
    '  local i',
    '  for ((i = ${#cleanup[@]} - 1; i >= 0; i--)); do',
    '    "delete_${cleanup[i]%%:*}" "${cleanup[i]#*:}" || true',
    '  done',
    '  rm -rf "$tmp"',
    '}',
    'trap finish EXIT',
    'trap "exit 2" INT TERM',
    '# send NAME LABEL CURL-ARGS...: one request; its status, headers and body go to $tmp/NAME.*',
    '# A 429 is waited out as it says (Retry-After seconds, at most 30; 1 s if it names none) and sent again, up to 5 times (send_retries), as the audit does.',
    '# again NAME CODE TRIES: when NAME answered 429 and may be sent again, waits as its Retry-After says (true).',
    'again() {',
    '  local wait_s',
    '  if [ "$2" != 429 ] || [ "$3" -ge "${send_retries:-5}" ]; then return 1; fi',
    '  wait_s=$(header "$1" retry-after)',
    '  case "$wait_s" in \'\' | *[!0-9]*) wait_s=1 ;; esac',
    '  [ "$wait_s" -le 30 ] || wait_s=30',
    '  sleep "$wait_s"',
    '}',
    'send() {',
    '  local name=$1 label=$2 code tries=0',
    '  shift 2',
    '  while :; do',
    '    code=$(curl -sS -o "$tmp/$name.body" -D "$tmp/$name.head" -w \'%{http_code}\' "$@" 2>"$tmp/$name.err") || true',
    '    [ -n "$code" ] || code=000',
    '    again "$name" "$code" "$tries" || break',
    '    tries=$((tries + 1))',
    '  done',
    '  printf \'%s\\n\' "$code" >"$tmp/$name.status"',
    '  printf \'%s -> %s\\n\' "$label" "$code"',
    '}',
    'status() { cat "$tmp/$1.status"; }',
    '# header NAME FIELD: the value of a response header (the last one sent), without the CR.',
    'header() {',
    '  awk -v f="$2" \'{ sub(/\\r$/, ""); i = index($0, ":"); if (i > 0 && tolower(substr($0, 1, i - 1)) == tolower(f)) { v = substr($0, i + 1); sub(/^[ \\t]+/, "", v) } } END { print v }\' "$tmp/$1.head"',
    '}',
    'body() { cat "$tmp/$1.body"; }',
    '# verdict YES WHAT: prints the verdict and ends the script (1: reproduced, 0: not).',
    'verdict() {',
    '  if [ "$1" = yes ]; then echo "reproduced: $2"; exit 1; fi',
    '  echo "not reproduced: $2"',
    '  exit 0',
    '}',
  ];
}

/**
 * `send_primed NAME LABEL PRIMER-ARGS... -- CURL-ARGS...`: as `send`, the request sent by the same
 * curl right after the primer, on the connection the primer used; a 429 is waited out as `send`
 * does and the pair sent again (the audit's client waits out a 429 the same way).
 */
export function primedFunction(): string[] {
  return [
    '# send_primed NAME LABEL PRIMER-ARGS... -- CURL-ARGS...: the request on the connection an authenticated request used just before.',
    'send_primed() {',
    '  local name=$1 label=$2 code primer=() tries=0',
    '  shift 2',
    '  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do primer+=("$1"); shift; done',
    '  shift',
    '  while :; do',
    '    code=$(curl -sS -o /dev/null "${primer[@]}" --next -o "$tmp/$name.body" -D "$tmp/$name.head" -w \'%{http_code}\' "$@" 2>"$tmp/$name.err") || true',
    '    [ -n "$code" ] || code=000',
    '    again "$name" "$code" "$tries" || break',
    '    tries=$((tries + 1))',
    '  done',
    '  printf \'%s\\n\' "$code" >"$tmp/$name.status"',
    '  printf \'%s -> %s (on the connection of an authenticated GET)\\n\' "$label" "$code"',
    '}',
  ];
}

/** The id a create answered, read from its body (jq path) or its Location header (last path segment). */
export function captureId(step: string, at: { body: string } | 'location', all = false): string {
  if (at === 'location') {
    return `$(header ${step} location | sed -e 's/[?#].*//' -e 's#/*$##' -e 's#.*/##')`;
  }
  return `$(jq -r ${sq(`(if type == "array" then .[] else . end) | ${at.body} // empty | select(type == "string" or type == "number")`)} "$tmp/${step}.body" 2>/dev/null${all ? '' : ' | head -n 1'})`;
}

/** Stands for the shell word of a `shows` check's sent value (the caller renders it with its variables). */
export const SENT_WORD = '@SENT@';

/**
 * jq (1.6 and later): `same($s)`, whether `.` means the scalar `$s` as src/core/values.ts judges
 * it (sameValue): numbers by value, also a string holding a JSON number (`3`, `"3.00"`); RFC 3339
 * date-times as instants in any spelling (fractions to the last digit), a full date as midnight
 * UTC; a relation sent as an id and read back expanded, an object whose id, _id, uuid,
 * documentId or pk (also under `data`) is that value; anything else only when equal (`true` is not
 * `"true"`).
 */
export const SAME_DEF = [
  'def num: if type == "number" then . + 0 elif type == "string" and test("^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?[0-9]+)?$") then tonumber + 0 else null end;',
  'def civil($y; $m; $d): (if $y % 4 == 0 and ($y % 100 != 0 or $y % 400 == 0) then 29 else 28 end) as $feb',
  ' | if $m < 1 or $m > 12 or $d < 1 or $d > ([31, $feb, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] | .[$m - 1]) then null',
  ' else (if $m <= 2 then $y - 1 else $y end) as $yy | ($yy / 400 | floor) as $era | ($yy - $era * 400) as $yoe',
  ' | (((153 * ($m + (if $m > 2 then -3 else 9 end)) + 2) / 5 | floor) + $d - 1) as $doy',
  ' | $era * 146097 + $yoe * 365 + ($yoe / 4 | floor) - ($yoe / 100 | floor) + $doy - 719468 end;',
  'def instant: if type != "string" then null',
  ' elif test("^[0-9]{4}-[0-9]{2}-[0-9]{2}$") then (split("-") | map(tonumber)) as $p | civil($p[0]; $p[1]; $p[2]) | if . == null then null else [. * 86400, ""] end',
  ' else (capture("^(?<y>[0-9]{4})-(?<mo>[0-9]{2})-(?<d>[0-9]{2})[Tt ](?<h>[0-9]{2}):(?<mi>[0-9]{2}):(?<s>[0-9]{2})([.](?<f>[0-9]+))?([Zz]|(?<sign>[+-])(?<oh>[0-9]{2}):(?<om>[0-9]{2}))$") // null)',
  ' | if . == null then null else . as $c | ($c.h | tonumber) as $h | ($c.mi | tonumber) as $mi | ($c.s | tonumber) as $sec',
  ' | (($c.oh // "0") | tonumber) as $oh | (($c.om // "0") | tonumber) as $om | civil($c.y | tonumber; $c.mo | tonumber; $c.d | tonumber) as $days',
  ' | if $days == null or $h > 23 or $mi > 59 or $sec > 60 or $oh > 23 or $om > 59 then null',
  ' else [$days * 86400 + $h * 3600 + $mi * 60 + $sec - (if $c.sign == "-" then -1 else 1 end) * ($oh * 3600 + $om * 60), (($c.f // "") | sub("0+$"; ""))] end end end;',
  'def same($s): . as $r | if $r == $s then true',
  ' elif ($r | type) == "object" then (($s | type) == "string" or ($s | type) == "number")',
  ' and any($r, ($r.data | objects); . as $o | any("id", "_id", "uuid", "documentId", "pk"; . as $k | ($o[$k] | type) as $t | ($t == "string" or $t == "number") and ($o[$k] | same($s))))',
  ' elif ($s | type) == "number" or ($r | type) == "number" then ($s | num) as $a | ($r | num) as $b | $a != null and $b != null and $a == $b',
  ' else ($s | instant) as $a | ($r | instant) as $b | $a != null and $b != null and $a == $b end;',
].join('');

/**
 * jq: whether `.` shows the values of `$s`, as the audit's valuesNotShown judges: objects, every
 * member sent (a member sent as null may be absent); arrays entry for entry; scalars by `same`.
 */
export const SHOWS_DEF = `${SAME_DEF}def shows($s): . as $r | if ($s | type) == "object" then ($r | type) == "object" and all($s | to_entries[]; .key as $k | .value as $v | if ($r | has($k)) then ($r[$k] | shows($v)) else $v == null end) elif ($s | type) == "array" then ($r | type) == "array" and ($r | length) == ($s | length) and all(range(0; $s | length); . as $i | $r[$i] | shows($s[$i])) else same($s) end;`;

/**
 * jq: `canon($list)`, a body as the audit compares two reads of it (deepEqual): members in any
 * order and numbers by value (jq's `==` does both); a collection read's items in any order (the
 * audit sorts them by id), at the top or in an envelope member.
 */
export const CANON_DEF =
  'def items: if type == "array" and all(.[]; type == "object") then sort else . end; def canon($list): if $list | not then . elif type == "array" then sort elif type == "object" then map_values(items) else . end;';

/** jq, quoted: the distinct values of the `$f` members of a list's items (its ids), one a line. */
export const LISTED_IDS = sq(
  `[.. | objects | .[$f]? | select(type == "string" or type == "number") | tostring] | unique | .[]`,
);

/** The shell lines of a verdict over the replayed steps (`evidence`: the steps of the evidence, in order). */
export function verdictLines(check: ReproCheck, evidence: StepRef[]): string[] {
  const at = (i: number | undefined): StepRef =>
    evidence[i ?? evidence.length - 1] ?? evidence[evidence.length - 1];
  switch (check.kind) {
    case 'status': {
      const seen = evidence.map((s) => `$(status ${s.name})`).join(' ');
      const expected = evidence.map((s) => s.seen).join(' ');
      const what = evidence.map((s) => `${dq(s.label)} answered $(status ${s.name})`).join('; ');
      return [
        `seen="${seen}"`,
        `if [ "$seen" = ${sq(expected)} ]; then verdict yes "${what} (as in the audit)"; fi`,
        `verdict no "${what} (the audit saw ${evidence.map((s) => s.seen).join(', ')})"`,
      ];
    }
    case 'not-json': {
      const s = at(check.at);
      return [
        `media=$(header ${s.name} content-type | cut -d ';' -f 1 | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')`,
        `if [ ! -s "$tmp/${s.name}.body" ]; then verdict no "${dq(s.label)} answered $(status ${s.name}) with no body"; fi`,
        'case "$media" in application/json | *+json) ;; *) verdict yes ' +
          `"${dq(s.label)} answered $(status ${s.name}) with Content-Type \${media:-none}, not JSON" ;; esac`,
        `if ! jq empty "$tmp/${s.name}.body" >/dev/null 2>&1; then verdict yes "${dq(s.label)} answered $(status ${s.name}) with a $media body that does not parse as JSON"; fi`,
        `verdict no "${dq(s.label)} answered $(status ${s.name}) with JSON ($media)"`,
      ];
    }
    case 'no-header': {
      const s = at(check.at);
      const name = check.header.toLowerCase();
      const value = `$(header ${s.name} ${sq(name)})`;
      const lines = [`value="${value}"`];
      // The rule is about answers of that status (a 401's challenge): another status is not the failure.
      lines.push(
        `if [ "$(status ${s.name})" != ${sq(s.seen)} ]; then verdict no "${dq(s.label)} answered $(status ${s.name}), not ${s.seen}"; fi`,
      );
      lines.push(
        `if [ -z "$value" ]; then verdict yes "${dq(s.label)} answered $(status ${s.name}) without ${check.header}"; fi`,
      );
      if (check.not !== undefined) {
        lines.push(
          `if ! printf '%s' "$value" | grep -Eqi ${sq(check.not)}; then verdict yes "${dq(s.label)} answered $(status ${s.name}) with ${check.header}: $value"; fi`,
        );
      }
      lines.push(`verdict no "${dq(s.label)} answered $(status ${s.name}) with ${check.header}: $value"`);
      return lines;
    }
    case 'jq': {
      const s = at(check.at);
      const shows = `$(jq -r ${sq(check.shows)} "$tmp/${s.name}.body" 2>/dev/null | head -c 300)`;
      // A schema finding is about a 2xx body: an error answer (a correct refusal) shows nothing.
      const ok = check.ok2xx
        ? [
            `case "$(status ${s.name})" in 2??) ;; *) verdict no "${dq(s.label)} answered $(status ${s.name}), not 2xx" ;; esac`,
          ]
        : [];
      return [
        ...ok,
        `shows="${shows}"`,
        `if jq -e ${sq(check.test)} "$tmp/${s.name}.body" >/dev/null 2>&1; then verdict yes "${dq(s.label)} answered $(status ${s.name}): $shows"; fi`,
        `verdict no "${dq(s.label)} answered $(status ${s.name}): $shows"`,
      ];
    }
    case 'differ': {
      const [a, b] = [at(check.at[0]), at(check.at[1])];
      const drop = (check.ignore ?? []).map((k) => `.[${JSON.stringify(k)}]?`).join(', ');
      const norm = drop === '' ? '.' : `del(.. | ${drop})`;
      const read = (s: StepRef): string =>
        `$(jq -cS ${sq(norm)} "$tmp/${s.name}.body" 2>/dev/null || body ${s.name})`;
      const ignoring = check.ignore?.length ? ` (leaving out ${check.ignore.join(', ')})` : '';
      const list = a.list === true && b.list === true;
      // Compared as the audit compares (by meaning: deepEqual); bodies that are not JSON, as text.
      const same = sq(
        `${CANON_DEF} ($a | map(${norm} | canon(${list}))) == ($b | map(${norm} | canon(${list})))`,
      );
      return [
        `first="${read(a)}"`,
        `second="${read(b)}"`,
        `if [ "$(status ${a.name})" != "$(status ${b.name})" ]; then verdict yes "${dq(a.label)} answered $(status ${a.name}), then ${dq(b.label)} answered $(status ${b.name})"; fi`,
        `if jq empty "$tmp/${a.name}.body" "$tmp/${b.name}.body" >/dev/null 2>&1; then`,
        `  same=$(jq -n --slurpfile a "$tmp/${a.name}.body" --slurpfile b "$tmp/${b.name}.body" ${same})`,
        `elif [ "$first" = "$second" ]; then same=true; else same=false; fi`,
        `if [ "$same" != true ]; then verdict yes "${dq(b.label)} differs from ${dq(a.label)}${ignoring}: $(printf '%s' "$first" | head -c 200) then $(printf '%s' "$second" | head -c 200)"; fi`,
        `verdict no "${dq(a.label)} and ${dq(b.label)} answered the same${ignoring}"`,
      ];
    }
    case 'ids-differ': {
      const [a, b] = [at(check.at[0]), at(check.at[1])];
      const [va, vb] = [a.idVar ?? 'none', b.idVar ?? 'none'];
      return [
        `if [ -n "\${${va}:-}" ] && [ -n "\${${vb}:-}" ] && [ "$${va}" != "$${vb}" ]; then verdict yes "the two creates made two items: $${va} and $${vb}"; fi`,
        `verdict no "the two creates named \${${va}:-no id} and \${${vb}:-no id}"`,
      ];
    }
    case 'in-list': {
      const item = at(check.item);
      const id = item.idVar ? `$${item.idVar}` : item.urlVar ? `$${item.urlVar}` : (item.urlId ?? '');
      const lists = check.lists.map((i) => at(i));
      const test = sq('any(.. | scalars; tostring == $id)');
      const names = `${lists.map((s) => dq(s.label)).join(', ')} (answered ${lists.map((s) => `$(status ${s.name})`).join(', ')})`;
      const listed = check.fails === 'absent' ? 'no' : 'yes';
      const unlisted = check.fails === 'absent' ? 'yes' : 'no';
      return [
        item.idVar || item.urlVar ? `id="${id}"` : `id=${sq(id)}`,
        'if [ -z "$id" ]; then verdict no "no item to look for"; fi',
        ...lists.map(
          (s) =>
            `if jq -e --arg id "$id" ${test} "$tmp/${s.name}.body" >/dev/null 2>&1; then verdict ${listed} "${dq(s.label)} lists the item $id"; fi`,
        ),
        `verdict ${unlisted} "${names} does not list the item $id"`,
      ];
    }
    case 'others-gone': {
      const [before, after, del] = [at(check.before), at(check.after), at(check.deleted)];
      const gone = del.urlVar ? `"$${del.urlVar}"` : sq(del.urlId ?? '');
      return [
        `jq -r --arg f ${sq(check.idField)} ${LISTED_IDS} "$tmp/${before.name}.body" 2>/dev/null | grep -vxF -- ${gone} >"$tmp/before.ids"`,
        `jq -r --arg f ${sq(check.idField)} ${LISTED_IDS} "$tmp/${after.name}.body" 2>/dev/null >"$tmp/after.ids"`,
        `missing=$(grep -vxF -f "$tmp/after.ids" "$tmp/before.ids" | head -n 5 | tr '\n' ' ')`,
        `if [ -n "$missing" ]; then verdict yes "after ${dq(del.label)}, items listed before are gone: $missing"; fi`,
        `verdict no "after ${dq(del.label)}, every other item listed before is still listed"`,
      ];
    }
    case 'new-items': {
      const [before, after] = [at(check.before), at(check.after)];
      return [
        `jq -r --arg f ${sq(check.idField)} ${LISTED_IDS} "$tmp/${before.name}.body" 2>/dev/null >"$tmp/before.ids"`,
        `jq -r --arg f ${sq(check.idField)} ${LISTED_IDS} "$tmp/${after.name}.body" 2>/dev/null >"$tmp/after.ids"`,
        `grep -vxF -f "$tmp/before.ids" "$tmp/after.ids" >"$tmp/new.ids" || true`,
        // What the requests made is deleted at the end, named or not.
        `while read -r made; do cleanup+=("${check.delete}:$made"); done <"$tmp/new.ids"`,
        `new=$(wc -l <"$tmp/new.ids" | tr -d ' ')`,
        `if [ "$new" -gt ${check.expected} ]; then verdict yes "${dq(after.label)} lists $new new items, ${check.expected} expected: $(tr '\n' ' ' <"$tmp/new.ids")"; fi`,
        `verdict no "${dq(after.label)} lists $new new item(s), ${check.expected} expected"`,
      ];
    }
    case 'shows': {
      const s = at(check.at);
      return [
        `if jq -e --argjson sent ${SENT_WORD} ${sq(`${SHOWS_DEF} [.. | objects | select(shows($sent))] | length == 0`)} "$tmp/${s.name}.body" >/dev/null 2>&1; then verdict yes "${dq(s.label)} answered $(status ${s.name}) without the values sent: $(head -c 300 "$tmp/${s.name}.body")"; fi`,
        `verdict no "${dq(s.label)} answered $(status ${s.name}) showing the values sent"`,
      ];
    }
    case 'error-body':
      return errorBodyLines(evidence);
    case 'remembered':
      return rememberedLines(at(check.ok), at(check.refused), check.via === 'cookies');
    case 'none':
      return [`verdict no ${sq(check.why)}`];
    case 'base-url':
      return [
        'case "$BASE_URL" in',
        `  */v[0-9]* | */v[0-9]*/*) verdict no "the base URL $BASE_URL has a /v<N> segment" ;;`,
        `  *) verdict yes "the base URL $BASE_URL has no /v<N> segment" ;;`,
        'esac',
      ];
    case 'burst':
      return [`verdict no "a burst is replayed by the burst block above"`];
    case 'webhook':
      return [`verdict no "a webhook failure is judged by its own lines (repro-hooks)"`];
  }
}

/**
 * The verdict of `remembered`: `ok` is 2xx where `refused` is not. With cookies, the names of those
 * in the jar are printed (Netscape format: the name is the sixth field), never their values.
 */
function rememberedLines(ok: StepRef, refused: StepRef, cookies: boolean): string[] {
  const jar = cookies ? ' with the cookies $names' : '';
  const what = `${dq(ok.label)} answered $(status ${ok.name})${jar}, ${dq(refused.label)} answered $(status ${refused.name})`;
  return [
    ...(cookies
      ? [
          `names=$(awk -F '\t' 'NF >= 7 && ($1 !~ /^#/ || $1 ~ /^#HttpOnly_/) { print $6 }' "$tmp/jar" 2>/dev/null | sort -u | paste -sd, -)`,
          'names=${names:-(none set)}',
        ]
      : []),
    `case "$(status ${ok.name})" in 2??) case "$(status ${refused.name})" in 2??) ;; *) verdict yes "${what}" ;; esac ;; esac`,
    `verdict no "${what}"`,
  ];
}

/** jq: an error body's shape, as ERR-BODY groups them: its top-level members with their JSON types. */
const SHAPE = sq(
  'if type == "object" then to_entries | map("\\(.key):\\(.value | type)") else ["(\\(type))"] end',
);

/** The verdict of `error-body`: each error answer has a JSON body, and they share a top-level member. */
function errorBodyLines(steps: StepRef[]): string[] {
  const lines = [': >"$tmp/shapes"'];
  for (const s of steps.filter((x) => !x.label.startsWith('HEAD '))) {
    const said = `${dq(s.label)} answered $(status ${s.name})`;
    lines.push(
      `case "$(status ${s.name})" in 4?? | 5??)`,
      `  if [ -z "$(tr -d '[:space:]' <"$tmp/${s.name}.body")" ]; then verdict yes "${said} with an empty body"; fi`,
      `  media=$(header ${s.name} content-type | cut -d ';' -f 1 | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')`,
      `  case "$media" in application/json | *+json) ;; *) verdict yes "${said} with Content-Type \${media:-none}, not JSON" ;; esac`,
      `  jq empty "$tmp/${s.name}.body" >/dev/null 2>&1 || verdict yes "${said} with a $media body that does not parse as JSON"`,
      `  jq -c ${SHAPE} "$tmp/${s.name}.body" >>"$tmp/shapes" ;;`,
      'esac',
    );
  }
  return [
    ...lines,
    "shapes=$(tr '\\n' ' ' <\"$tmp/shapes\")",
    'if [ "$(wc -l <"$tmp/shapes")" -gt 1 ] && jq -s -e \'reduce .[1:][] as $s (.[0]; . - (. - $s)) | length == 0\' "$tmp/shapes" >/dev/null; then verdict yes "the error bodies share no top-level member: $shapes"; fi',
    'verdict no "the error answers carry JSON bodies with a top-level member in common: ${shapes:-no error answer}"',
  ];
}
