// `node bench/redaction.mjs` (after `npm run build`): what redaction costs, in an audit and per text.
//
// 1. Audits of the example API with N resources, with every Redactor entry point timed: the CPU the
//    run spent redacting against its whole CPU. With no echoes (the example API never echoes a
//    secret, and passes every check) evidence is never built, so redaction runs only on messages.
//    With --har, every exchange's evidence is built (as `--reporter har` does), the worst case.
// 2. The cost of redacting one text: an 8 KB HTML page and a 300-byte JSON body, with and
//    without an echoed token, for the run's four secrets.
//
//   node bench/redaction.mjs [--sizes 2,10,50] [--har]
import { parseArgs } from 'node:util';
import { createExampleApi } from '../dist/src/example-api/index.js';
import { runAudit } from '../dist/src/engine/run.js';
import { Redactor } from '../dist/src/http/redact.js';
import { catalogue } from '../dist/suites/index.js';
import { benchConfig } from './config.mjs';

const { values: args } = parseArgs({
  options: { sizes: { type: 'string', default: '2,10,50' }, har: { type: 'boolean', default: false } },
});

// Time spent inside the redactor's entry points (nested calls counted once).
let depth = 0;
let spent = 0;
let calls = 0;
for (const name of ['text', 'body', 'json', 'headers', 'excerpt', 'spans']) {
  const original = Redactor.prototype[name];
  if (typeof original !== 'function') continue;
  Redactor.prototype[name] = function timed(...a) {
    if (depth > 0) return original.apply(this, a);
    depth++;
    calls++;
    const started = performance.now();
    try {
      return original.apply(this, a);
    } finally {
      spent += performance.now() - started;
      depth--;
    }
  };
}

const rows = [];
for (const resources of args.sizes.split(',').map(Number)) {
  const api = createExampleApi({ extraResources: resources - 2, rateLimit: false });
  const { baseUrl } = await api.listen(0, '127.0.0.1');
  const config = await benchConfig({
    baseUrl,
    tokens: api.tokens,
    webhookSecret: api.webhookSecret,
    resources,
    burst: { maxRequests: 20, expected: false },
  });
  spent = 0;
  calls = 0;
  const cpu = process.cpuUsage();
  const result = await runAudit(config, {
    catalogue,
    concurrency: 8,
    ...(args.har ? { onExchange: (x) => void x.evidence } : {}),
  });
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  await api.close();
  rows.push(
    `| ${resources} | ${result.summary.requests} | ${calls} | ${spent.toFixed(1)} ms | ${cpuMs.toFixed(0)} ms | ${((100 * spent) / cpuMs).toFixed(2)} % |`,
  );
}

const secrets = [
  { value: 'SafetyTok-7f3c9e1b.d0/Zq+K7w_X~42==', envVar: 'T' },
  { value: 'SafetyLim-2a8e44c1.f9/Pn+R3v_Y~17==', envVar: 'L' },
  { value: 'SafetyHook-c0ffee.b4/Dm+S6u_Z~99==', envVar: 'W' },
  { value: 'EchoKey-5e2b7c91d4f0a3.Q_x~', envVar: 'K' },
];
const redactor = new Redactor(secrets);
const page = (echo) =>
  `<!DOCTYPE html><html><body><h1>500</h1><pre>${'at handler (/srv/app/routes/widgets.js:42:13)\n'.repeat(170)}${echo}</pre></body></html>`.slice(
    0,
    8192,
  );
const json = (echo) =>
  JSON.stringify({
    id: 7,
    name: 'bolt',
    price: 3,
    tags: ['metal', 'small'],
    note: echo,
    createdAt: new Date(0),
  });
const texts = [
  ['8 KB HTML page, no secret', page(''), false],
  ['8 KB HTML page, echoed token', page(`token: ${secrets[0].value.toUpperCase()}`), false],
  ['300 B JSON body, no secret', json('leave at the door'), true],
  ['300 B JSON body, echoed token', json(secrets[0].value), true],
];
const perText = texts.map(([what, text, parsed]) => {
  const runs = 2000;
  const started = performance.now();
  for (let i = 0; i < runs; i++) redactor.body(text, parsed);
  return `| ${what} | ${(((performance.now() - started) / runs) * 1000).toFixed(0)} µs |`;
});

process.stdout.write(
  [
    `Redaction during audits of the example API (no echoes${args.har ? '; every exchange redacted, as --reporter har does' : ''})`,
    '',
    '| N | requests | redactor calls | time redacting | run CPU | share |',
    '|---|----------|----------------|----------------|---------|-------|',
    ...rows,
    '',
    'Redacting one text (4 secrets, every spelling; median machine noise applies)',
    '',
    '| text | per call |',
    '|------|----------|',
    ...perText,
    '',
  ].join('\n'),
);
