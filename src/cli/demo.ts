// `conformance demo`: start the bundled example API on a free loopback port (optionally with breaks) and audit it.
import { join } from 'node:path';
import type { Check } from '../core/check.js';
import { ConformanceError } from '../core/errors.js';
import { packagePath } from '../core/paths.js';
import { loadConfig } from '../config/load.js';
import { didYouMean } from '../config/suggest.js';
import { RULES } from '../core/rules.js';
import {
  BREAK_ALSO_FAILS,
  BREAK_DESCRIPTIONS,
  BREAK_NAMES,
  BREAK_RULES,
  breakFlagName,
  breakNamed,
  type Breaks,
} from '../example-api/breaks.js';
import { createExampleApi, strictRateLimit, type RateLimitOptions } from '../example-api/index.js';
import { auditAndReport, type AuditFlags, type Io } from './audit.js';

/** Environment that config/example.yaml reads, filled with the example API's credentials. */
export function exampleEnv(api: {
  tokens: { full: string; limited: string };
  webhookSecret?: string;
}): NodeJS.ProcessEnv {
  return {
    CONFORMANCE_TOKEN: api.tokens.full,
    CONFORMANCE_LIMITED_TOKEN: api.tokens.limited,
    CONFORMANCE_WEBHOOK_SECRET: api.webhookSecret ?? 'no-webhook-secret',
  };
}

/**
 * `conformance demo --list-breaks`: one line per break (name, rules it breaks, what it does, the
 * rules that fail with it in a full audit), then the rules no break shows.
 */
export function renderBreakList(): string {
  const names = BREAK_NAMES.map(breakFlagName);
  const width = Math.max(...names.map((n) => n.length));
  const rules = BREAK_NAMES.map((name) => BREAK_RULES[name].join(','));
  const rulesWidth = Math.max(...rules.map((r) => r.length));
  const lines = BREAK_NAMES.map((name, i) => {
    const also = BREAK_ALSO_FAILS[name];
    const more = also.length > 0 ? `; also fails: ${also.join(', ')}` : '';
    return `  ${names[i].padEnd(width)}  ${rules[i].padEnd(rulesWidth)}  ${BREAK_DESCRIPTIONS[name]}${more}`;
  });
  const shown = new Set(BREAK_NAMES.flatMap((name) => [...BREAK_RULES[name], ...BREAK_ALSO_FAILS[name]]));
  const unshown = RULES.map((r) => r.id).filter((id) => !shown.has(id));
  return [
    'Breaks of the example API: each makes it break the rules named, one way; "also fails" names the',
    'rules of checks that meet what it breaks in a full audit. `conformance demo --break <name>[,<name>...]`',
    'shows the failures in every report.',
    '',
    ...lines,
    '',
    ...(unshown.length > 0
      ? [
          `No break of the example API makes these rules fail (it keeps them under every break): ${unshown.join(', ')}.`,
          '',
        ]
      : []),
  ].join('\n');
}

/** The breaks named by `--break` (comma-separated, repeatable); an unknown name is exit 2 with a suggestion. */
export function parseBreaks(values: readonly string[]): Breaks {
  const breaks: Breaks = {};
  const known = BREAK_NAMES.map(breakFlagName);
  const problems: string[] = [];
  for (const text of values.flatMap((v) => String(v).split(',')).map((v) => v.trim())) {
    if (text === '') continue;
    const name = breakNamed(text);
    if (name) breaks[name] = true;
    else
      problems.push(
        `--break ${text}: no such break${didYouMean(text, known)} (conformance demo --list-breaks shows them)`,
      );
  }
  if (problems.length > 0) throw new ConformanceError('E_ARGS', problems[0], problems);
  return breaks;
}

/** `--rate-limit <n>` (and `--no-rate-limit-headers`): the example API's limit; undefined keeps its default. */
export function parseRateLimit(rps: number | undefined, headers = true): RateLimitOptions | undefined {
  if (rps === undefined) return undefined;
  if (!Number.isInteger(rps) || rps < 1 || rps > 100_000) {
    throw new ConformanceError(
      'E_ARGS',
      `--rate-limit ${rps}: give a whole number of requests per second, 1 to 100000`,
    );
  }
  return strictRateLimit(rps, headers);
}

/**
 * `--serve`: after the audit, the example API (breaks and all) keeps answering at the same URL
 * until the signal (Ctrl-C), so the failures' scripts and curl lines can be tried on it.
 */
async function serveUntil(signal: AbortSignal, baseUrl: string, flags: AuditFlags, io: Io): Promise<void> {
  const repro = flags.reporter.includes('repro') ? ` the scripts in ${join(flags.out, 'repro')} and` : '';
  io.stdout.write(
    `Still serving the example API on ${baseUrl} until Ctrl-C:${repro} the curl lines above try it as they are, with CONFORMANCE_TOKEN=demo-full-token (the demo's token) in the environment\n`,
  );
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  io.stdout.write('Stopped serving the example API; the audit was over before, its reports stand\n');
}

/**
 * Starts the example API with `breaks` (and `rateLimit`, else its default limit), audits it with
 * config/example.yaml, returns the exit code; with `serve`, keeps the API up until `signal` (and
 * sets `serve.served` once the audit is over).
 */
export async function runDemo(
  catalogue: Check[],
  flags: AuditFlags,
  io: Io,
  signal?: AbortSignal,
  breaks: Breaks = {},
  rateLimit?: RateLimitOptions,
  serve?: { served: boolean },
): Promise<number> {
  // The example API keeps the audit's time (a test's fake clock; else the real one).
  const api = createExampleApi({ breaks, rateLimit, ...(io.clock ? { now: io.clock.now } : {}) });
  const { baseUrl } = await api.listen(0, '127.0.0.1');
  try {
    const config = await loadConfig({
      path: packagePath('config', 'example.yaml'),
      baseUrl,
      env: { ...io.env, ...exampleEnv(api) },
    });
    if (!flags.quiet) {
      const chosen = BREAK_NAMES.filter((name) => breaks[name]);
      const broken =
        chosen.length === 0
          ? ''
          : ` with ${chosen.length === 1 ? 'a break' : `${chosen.length} breaks`}: ${chosen
              .map(
                (name) =>
                  `${breakFlagName(name)} (${BREAK_DESCRIPTIONS[name]}: ${BREAK_RULES[name].join(', ')})`,
              )
              .join('; ')}`;
      const limited = rateLimit
        ? `, limited to ${rateLimit.limit} requests per second (429 with Retry-After: 0${rateLimit.advertise === false ? ', no RateLimit-* headers' : ''})`
        : '';
      io.stdout.write(
        `Example API listening on ${baseUrl}${limited}${broken}; auditing it with config/example.yaml\n`,
      );
    }
    const { code } = await auditAndReport(config, catalogue, flags, io, signal);
    if (serve && signal && !signal.aborted) {
      // Ctrl-C from now on ends the serving, not the audit: the caller keeps the audit's code.
      serve.served = true;
      await serveUntil(signal, baseUrl, flags, io);
    }
    return code;
  } finally {
    await api.close();
  }
}
