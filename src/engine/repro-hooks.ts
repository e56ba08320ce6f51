// A webhook failure's script parts: a node receiver, the subscription as the audit made it, the wait and HOOK-* verdicts.
import { withReceiverUrl } from '../core/payloads.js';
import type { ReproCheck } from '../core/reproduce.js';
import type { AuditConfig } from '../core/types.js';
import { curlArgs, type Substitute } from '../http/curl.js';
import { urlSubstitute } from './repro-vars.js';
import { dq, sq, type StepRef } from './repro-shell.js';
import type { ReproDeps } from './reproduce.js';

/** The reproduction of a webhook failure (HOOK-DELIVERY, HOOK-SIGNATURE). */
export type HookRepro = Extract<ReproCheck, { kind: 'webhook' }>;

/** Deliveries the script's receiver keeps, and the bytes of each body (as the audit's receiver). */
const KEPT = 100;
const BODY_BYTES = 1024 * 1024;

/**
 * The receiver, in node (no single quote: it is a single-quoted shell word): listens on the host
 * and port given, writes each delivery's body then its headers (JSON, by rename: a `.head` file
 * means a whole delivery) to the folder, numbered, and the port it got to `port`.
 */
const RECEIVER_JS = [
  'const http = require("http"), fs = require("fs");',
  'const [dir, host, port] = process.argv.slice(1);',
  'let n = 0;',
  'const server = http.createServer((req, res) => {',
  '  const chunks = []; let size = 0;',
  `  req.on("data", (c) => { if (size < ${BODY_BYTES}) chunks.push(c); size += c.length; });`,
  '  req.on("end", () => {',
  '    res.writeHead(204).end();',
  `    if (n >= ${KEPT}) return;`,
  '    const f = dir + "/" + String(++n).padStart(4, "0");',
  `    fs.writeFileSync(f + ".body", Buffer.concat(chunks).subarray(0, ${BODY_BYTES}));`,
  '    fs.writeFileSync(f + ".tmp", JSON.stringify(req.headers));',
  '    fs.renameSync(f + ".tmp", f + ".head");',
  '  });',
  '});',
  'server.listen(Number(port), host, () => {',
  '  fs.writeFileSync(dir + "/port.tmp", String(server.address().port));',
  '  fs.renameSync(dir + "/port.tmp", dir + "/port");',
  '});',
].join('\n');

/**
 * Whether a delivery's signature is valid, in node, as HOOK-SIGNATURE judges (exit 0: valid): the
 * header's value, or one of its comma- or space-separated values, is the prefix then the HMAC of
 * the raw body with HOOK_SECRET (from the environment, never printed), compared in constant time.
 */
const VERIFY_JS = [
  'const c = require("crypto"), fs = require("fs");',
  'const [body, head, name, algo, enc, prefix] = process.argv.slice(1);',
  'const h = String(JSON.parse(fs.readFileSync(head, "utf8"))[name.toLowerCase()] || "").trim();',
  'const want = c.createHmac(algo.replace(/^hmac-/i, ""), process.env.HOOK_SECRET || "").update(fs.readFileSync(body)).digest();',
  'const re = enc === "hex" ? /^[0-9a-fA-F]+$/ : /^[A-Za-z0-9+/_-]+={0,2}$/;',
  'const ok = [h, ...h.split(/[\\s,]+/)].filter((v) => v.startsWith(prefix)).some((v) => {',
  '  const s = v.slice(prefix.length);',
  '  if (!re.test(s)) return false;',
  '  const g = Buffer.from(s, enc === "hex" ? "hex" : "base64");',
  '  return g.length === want.length && c.timingSafeEqual(g, want);',
  '});',
  'process.exit(ok ? 0 : 1);',
].join('\n');

/** jq: whether a delivery's body holds `$e` at the dotted path `$f` (a key holding a dot wins). */
const EVENT_TEST = sq(
  '(if type == "object" and has($f) then .[$f] else (try getpath($f | split(".") | map(tonumber? // .)) catch null) end) == $e',
);

/** jq: the id a subscription's answer names, as the audit reads it (the item, in an envelope or not). */
const SUBSCRIPTION_ID = sq(
  '(if type == "array" and length == 1 then .[0] else . end) | if type == "object" then (if has("id") then . else ([.[] | objects | select(has("id"))] | first) end) else null end | .id? // empty | select(type == "string" or type == "number")',
);

/** The env variable that holds the webhook secret, if the config read it from one. */
function secretVar(config: AuditConfig): string | undefined {
  const secret = config.webhooks?.signature?.secret;
  return config.secrets.find((s) => s.value === secret && s.envVar)?.envVar;
}

/** Whether a script can reproduce the failure: webhooks configured, and a signature's secret in an env variable. */
export function hookScriptable(config: AuditConfig, check: HookRepro): boolean {
  if (!config.webhooks) return false;
  return check.judge === 'delivery' || secretVar(config) !== undefined;
}

/** Every occurrence of `text` as the shell expression `shell`. */
function occurrences(needle: string, shell: string): Substitute {
  return (text) => {
    const spans: Array<{ start: number; end: number; shell: string }> = [];
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      spans.push({ start: at, end: at + needle.length, shell });
    }
    return spans;
  };
}

/**
 * The lines before the trigger: the receiver started (killed by the EXIT trap), its URL, the
 * subscription sent as the audit sent it with that URL, and its deletion put on the cleanup list.
 */
export function hookSetupLines(deps: ReproDeps, check: HookRepro): string[] {
  const hooks = deps.config.webhooks!;
  const where = hooks.receiver ?? {};
  const host = where.host ?? '127.0.0.1';
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const { redactor, connection, baseUrl } = deps.client;
  const origin = new URL(baseUrl).origin;
  const method = hooks.subscribe.method ?? 'POST';
  const input = deps.client.request({
    method,
    path: hooks.subscribe.path,
    json: withReceiverUrl(hooks.subscribe.body, check.receiverUrl),
  });
  const args = curlArgs(input, redactor, connection, {
    url: urlSubstitute(baseUrl, origin, []),
    body: occurrences(check.receiverUrl, '${receiver_url}'),
  });
  const del = deps.client.request({ method: 'DELETE', path: hooks.subscribe.path });
  const delArgs = curlArgs(del, redactor, connection, {
    url: (text) => [{ start: 0, end: text.length, shell: '$1' }],
  });
  const collection = hooks.subscribe.path.replace(/\/+$/, '');
  const url =
    where.publicUrl !== undefined ? sq(where.publicUrl) : `"http://${dq(hostPart)}:$(cat "$tmp/hook/port")/"`;
  return [
    '# The webhook receiver (node): each delivery, headers and body, goes to a file in $tmp/hook.',
    `receiver=${sq(RECEIVER_JS)}`,
    'mkdir "$tmp/hook"',
    `node -e "$receiver" "$tmp/hook" ${sq(host)} ${where.port ?? 0} 2>"$tmp/receiver.err" &`,
    'delete_receiver() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }',
    'cleanup+=("receiver:$!")',
    'for _ in $(seq 50); do [ -s "$tmp/hook/port" ] && break; sleep 0.1; done',
    `[ -s "$tmp/hook/port" ] || { echo "could not start the webhook receiver on ${dq(host)}:${where.port ?? 0}: $(head -c 300 "$tmp/receiver.err")"; exit 2; }`,
    `receiver_url=${url}`,
    '# Subscribe the receiver as the audit did ({{receiverUrl}}: the receiver URL).',
    `send sub ${sq(`${method} ${hooks.subscribe.path} (subscribe the receiver)`)} ${args.join(' ')}`,
    `case "$(status sub)" in 2??) ;; *) echo "could not set up: subscribing the receiver answered $(status sub)"; exit 2 ;; esac`,
    `delete_unsubscribe() { curl -sS -o /dev/null ${delArgs.join(' ')} 2>/dev/null; } # deletes the subscription`,
    'sub_url=',
    'sub_loc=$(header sub location)',
    'case "$sub_loc" in',
    '  "$BASE_URL"/*) sub_url=$sub_loc ;;',
    `  /*) case "\${ORIGIN}$sub_loc" in "$BASE_URL"/*) sub_url="\${ORIGIN}$sub_loc" ;; esac ;;`,
    'esac',
    ...(method === 'POST'
      ? [
          `sub_id=$(jq -r ${SUBSCRIPTION_ID} "$tmp/sub.body" 2>/dev/null | head -n 1)`,
          `[ -n "$sub_url" ] || [ -z "$sub_id" ] || sub_url="\${BASE_URL}${dq(collection)}/$sub_id"`,
        ]
      : []),
    '[ -z "$sub_url" ] || cleanup+=("unsubscribe:$sub_url")',
  ];
}

/** The verdict: the wait for the event (the audit's webhooks.timeoutMs), then what the rule judges. */
export function hookVerdictLines(config: AuditConfig, check: HookRepro, trigger: StepRef): string[] {
  const hooks = config.webhooks!;
  const wait = Math.max(1, Math.ceil(hooks.timeoutMs / 100));
  const secs = `${Number((hooks.timeoutMs / 1000).toFixed(1))} s`;
  const event = JSON.stringify(check.event);
  const said = `${dq(trigger.label)} answered $(status ${trigger.name})`;
  const lines = [
    `case "$(status ${trigger.name})" in 2??) ;; *) echo "could not run: ${said}, the operation failed"; exit 2 ;; esac`,
    `# Wait up to ${secs} for a delivery whose ${hooks.eventField} is ${event}.`,
    'found=',
    `for _ in $(seq ${wait}); do`,
    '  for h in "$tmp"/hook/*.head; do',
    '    [ -e "$h" ] || continue',
    `    if jq -e --arg f ${sq(hooks.eventField)} --argjson e ${sq(event)} ${EVENT_TEST} "\${h%.head}.body" >/dev/null 2>&1; then found=\${h%.head}; break 2; fi`,
    '  done',
    '  sleep 0.1',
    'done',
  ];
  if (check.judge === 'delivery') {
    return [
      ...lines,
      'arrived=$(find "$tmp/hook" -name "*.head" | wc -l | tr -d " ")',
      `if [ -z "$found" ]; then verdict yes "after ${said}, no delivery had ${dq(hooks.eventField)} = ${dq(event)} within ${secs} ($arrived other deliveries arrived)"; fi`,
      `verdict no "after ${said}, a delivery had ${dq(hooks.eventField)} = ${dq(event)}"`,
    ];
  }
  const sig = hooks.signature!;
  const name = sig.header.toLowerCase();
  return [
    ...lines,
    '# Failing the declared event, whatever arrived first is judged (as the audit does).',
    '[ -n "$found" ] || { for h in "$tmp"/hook/*.head; do [ -e "$h" ] && found=${h%.head} && break; done; }',
    `[ -n "$found" ] || { echo "could not judge: after ${said}, no delivery arrived within ${secs}"; exit 2; }`,
    `value=$(jq -r --arg h ${sq(name)} '.[$h] // empty' "$found.head")`,
    `if [ -z "$value" ]; then verdict yes "the delivery carries no ${dq(sig.header)} header"; fi`,
    `verify=${sq(VERIFY_JS)}`,
    `if HOOK_SECRET="\${${secretVar(config)}}" node -e "$verify" "$found.body" "$found.head" ${sq(sig.header)} ${sq(sig.algorithm)} ${sq(sig.encoding)} ${sq(sig.prefix)}; then`,
    `  verdict no "${dq(sig.header)} $(printf '%s' "$value" | head -c 160) is the ${dq(sig.algorithm)} of the raw body with the webhook secret"`,
    'fi',
    `verdict yes "${dq(sig.header)} $(printf '%s' "$value" | head -c 160) is not the ${dq(sig.algorithm)} of the raw body with the webhook secret, ${sig.encoding}-encoded after the prefix ${dq(JSON.stringify(sig.prefix))}"`,
  ];
}
