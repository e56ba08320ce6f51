// Example-API fixtures that show stored values in other spellings (valid) or store them changed (invalid).
import type { AuditConfig } from '../../src/core/types.js';
import type { Middleware } from '../../src/example-api/index.js';
import type { FixtureCase } from '../../src/testing/check-tester.js';
import { isInner, jsonOf, pathOf, replay, selfRequest } from './self-requests.js';

const WIDGETS = /^\/v1\/widgets(\/[^/]+)?$/;

/** Every member of a JSON value, at any depth, passed through `change` (members named in `names` only). */
function rewrite(value: unknown, names: string[], change: (v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, names, change));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, names.includes(k) ? change(v) : rewrite(v, names, change)]),
  );
}

/** `2024-03-01T09:00:00.000Z` as `2024-03-01T10:00:00+01:00`: the same instant, another spelling. */
function atPlusOne(stamp: unknown): unknown {
  if (typeof stamp !== 'string' || Number.isNaN(Date.parse(stamp))) return stamp;
  return `${new Date(Date.parse(stamp) + 3600_000).toISOString().slice(0, 19)}+01:00`;
}

/** Passes a widgets request to the API (key and body as sent) and lets `show` rewrite the answer. */
function widgetsThrough(send: (body: unknown) => unknown, show: (json: unknown) => unknown): Middleware {
  return async (req, res, raw) => {
    if (isInner(req) || !WIDGETS.test(pathOf(req))) return false;
    const key = req.headers['idempotency-key'];
    const body = raw.length > 0 ? jsonOf(raw) : undefined;
    if (raw.length > 0 && body === undefined) return false; // malformed bodies: the API's own answer
    const answer = await selfRequest(
      req,
      req.method ?? 'GET',
      req.url ?? '/',
      body === undefined ? undefined : send(body),
      typeof key === 'string' ? { 'idempotency-key': key } : {},
    );
    replay(res, answer, answer.json === undefined ? undefined : show(answer.json));
    return true;
  };
}

/** Widgets shown with prices as strings with two decimals and createdAt/updatedAt at +01:00. */
export const showsDecimalStrings: Middleware = widgetsThrough(
  (body) => body,
  (json) =>
    rewrite(
      rewrite(json, ['price'], (v) => (typeof v === 'number' ? v.toFixed(2) : v)),
      ['createdAt', 'updatedAt'],
      atPlusOne,
    ),
);

/** Widgets whose prices are stored rounded to two decimals (a decimal column too narrow). */
export const roundsPrices: Middleware = widgetsThrough(
  (body) => rewrite(body, ['price'], (v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v)),
  (json) => json,
);

/** The config with widgets payloads whose prices have three decimals. */
export function threeDecimalPrices(config: AuditConfig): AuditConfig {
  return {
    ...config,
    resources: config.resources.map((r) =>
      r.name === 'widgets'
        ? {
            ...r,
            sample: { name: 'bolt', price: 3.456 },
            replace: { name: 'nut', price: 4.5 },
            update: { price: 5.678 },
          }
        : r,
    ),
  };
}

/** A valid case: widgets whose decimals and date-times read back in other spellings. */
export const DECIMAL_STRINGS_CASE: FixtureCase = {
  name: 'prices read back as decimal strings ("3.00"), timestamps at +01:00',
  resource: 'widgets',
  api: { middleware: showsDecimalStrings },
};
