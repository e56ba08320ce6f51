// Breaks: switches that make the example API violate one convention one way, for tests of the audit.
import type { Reply } from './reply.js';

/**
 * Each flag breaks ONE rule one way. Breaks that change what a reply looks like are applied in
 * `applyReplyBreaks` below; breaks that change what the server does are checked where it does
 * it, each at one place marked `// break: <name>` (handlers.ts). Breaks never apply to the
 * internal `webhooks` collection.
 */
export interface Breaks {
  /** GET item answers 203 instead of 200 (MTH-READ). */
  readStatus?: boolean;
  /** GET collection answers 202 instead of 200 (MTH-READ). */
  listStatus?: boolean;
  /** POST answers 200 instead of 201; the item is created (MTH-CREATE). */
  createStatus200?: boolean;
  /** POST answers 201 with the item and a Location, but stores nothing: reading it back is 404 (MTH-CREATE). */
  createNotReadable?: boolean;
  /** POST answers 201 without a Location header (MTH-CREATE warning). */
  noLocation?: boolean;
  /** PUT and PATCH apply the change but answer 204 with no body (MTH-CHANGE). */
  changeStatus204?: boolean;
  /** PUT and PATCH answer 200 with the new representation but store nothing (MTH-CHANGE). */
  changeNotApplied?: boolean;
  /** DELETE answers 204 but the item stays readable (MTH-DELETE). */
  deleteNoop?: boolean;
  /** DELETE removes the item but answers 500 (MTH-DELETE, ERR-SERVER). */
  deleteStatus500?: boolean;
  /**
   * DELETE also removes the oldest other record of the collection (MTH-DELETE). A repeated DELETE
   * answers 404 and removes nothing more, so IDEM-DELETE (end state after one = after N) holds.
   */
  deleteOthers?: boolean;
  /** An unknown item id answers 200 with `{}` (ERR-NOT-FOUND). */
  notFound200?: boolean;
  /** An unknown item id answers 400 (ERR-NOT-FOUND). */
  notFound400?: boolean;
  /** An unknown item id answers 500 (ERR-NOT-FOUND, ERR-SERVER). */
  notFound500?: boolean;
  /** Every PATCH on an item answers 500 and changes nothing (ERR-SERVER, MTH-CHANGE). */
  serverError?: boolean;
  /** 4xx answers carry an HTML body with `Content-Type: text/html` (GEN-JSON, ERR-BODY). */
  htmlErrors?: boolean;
  /** 2xx answers with a body carry `Content-Type: text/plain` (the text is still JSON) (GEN-JSON). */
  textJson?: boolean;
  /** GET collection answers 200 `application/json` with the invalid JSON `{"data": [` (GEN-JSON). */
  badJson?: boolean;
  /** An unknown item id answers 200 `{ "error": { "code": 404, "message": "not found" } }` (ERR-STATUS). */
  errorIn200?: boolean;
  /** GET of an unknown item id answers 200 `{ "success": false, "message": "..." }` (ERR-STATUS). */
  successFalse?: boolean;
}

/** Every break with a one-line description (the catalogue tests and docs iterate over). */
export const BREAK_DESCRIPTIONS: Readonly<Record<keyof Breaks, string>> = {
  readStatus: 'GET item answers 203',
  listStatus: 'GET collection answers 202',
  createStatus200: 'POST answers 200 instead of 201',
  createNotReadable: 'POST answers 201 but the item cannot be read back (404)',
  noLocation: 'POST answers without a Location header (a warning: exit 0 unless --fail-on warning)',
  changeStatus204: 'PUT and PATCH answer 204 with no body',
  changeNotApplied: 'PUT and PATCH answer 200 but store nothing',
  deleteNoop: 'DELETE answers 204 but the item stays readable',
  deleteStatus500: 'DELETE removes the item but answers 500',
  deleteOthers: 'DELETE also removes the oldest other record of the collection',
  notFound200: 'an unknown id answers 200 {}',
  notFound400: 'an unknown id answers 400',
  notFound500: 'an unknown id answers 500',
  serverError: 'every PATCH answers 500',
  htmlErrors: '4xx answers are text/html',
  textJson: '2xx answers are text/plain (with JSON text)',
  badJson: 'GET collection answers invalid JSON',
  errorIn200: 'an unknown id answers 200 with an error body',
  successFalse: 'GET of an unknown id answers 200 {"success": false}',
};

/** The rules each break violates: where `conformance demo --break` shows its failure. */
export const BREAK_RULES: Readonly<Record<keyof Breaks, readonly string[]>> = {
  readStatus: ['MTH-READ'],
  listStatus: ['MTH-READ'],
  createStatus200: ['MTH-CREATE'],
  createNotReadable: ['MTH-CREATE'],
  noLocation: ['MTH-CREATE'],
  changeStatus204: ['MTH-CHANGE'],
  changeNotApplied: ['MTH-CHANGE'],
  deleteNoop: ['MTH-DELETE'],
  deleteStatus500: ['MTH-DELETE', 'ERR-SERVER'],
  deleteOthers: ['MTH-DELETE'],
  notFound200: ['ERR-NOT-FOUND'],
  notFound400: ['ERR-NOT-FOUND'],
  notFound500: ['ERR-NOT-FOUND', 'ERR-SERVER'],
  serverError: ['ERR-SERVER', 'MTH-CHANGE'],
  htmlErrors: ['GEN-JSON', 'ERR-BODY'],
  textJson: ['GEN-JSON'],
  badJson: ['GEN-JSON'],
  errorIn200: ['ERR-STATUS'],
  successFalse: ['ERR-STATUS'],
};

/**
 * The rules that fail too under a break, in a full audit, because checks of other rules meet what
 * it breaks: a created item read back with 203, a deleted item (an unknown id now) answering 200,
 * an item that cannot be read back. `conformance demo --list-breaks` shows them; a test runs every
 * break and checks that exactly BREAK_RULES and these fail.
 */
export const BREAK_ALSO_FAILS: Readonly<Record<keyof Breaks, readonly string[]>> = {
  readStatus: ['MTH-CREATE', 'MTH-CHANGE'],
  listStatus: [],
  createStatus200: [],
  createNotReadable: ['RES-ITEM', 'MTH-READ', 'MTH-CHANGE', 'MTH-DELETE', 'ERR-MALFORMED', 'HOOK-DELIVERY'],
  noLocation: [],
  changeStatus204: [],
  changeNotApplied: [],
  deleteNoop: [],
  deleteStatus500: [],
  deleteOthers: [],
  notFound200: ['MTH-DELETE', 'DOC-SCHEMA'],
  notFound400: ['MTH-DELETE'],
  notFound500: ['MTH-DELETE', 'IDEM-DELETE'],
  serverError: ['ERR-NOT-FOUND', 'ERR-MALFORMED'],
  htmlErrors: [],
  textJson: [],
  badJson: [],
  errorIn200: ['MTH-DELETE', 'ERR-NOT-FOUND', 'DOC-SCHEMA'],
  successFalse: ['MTH-DELETE', 'ERR-NOT-FOUND', 'DOC-SCHEMA'],
};

/** The names of every break. */
export const BREAK_NAMES = Object.keys(BREAK_DESCRIPTIONS) as Array<keyof Breaks>;

/** A break's name as the command line spells it: `deleteNoop` -> `delete-noop`, `notFound200` -> `not-found-200`. */
export function breakFlagName(name: keyof Breaks): string {
  return name.replace(/([a-z])([A-Z0-9])/g, '$1-$2').toLowerCase();
}

/** The break a command-line name means (`delete-noop`, `deleteNoop`, `DELETE_NOOP`), or undefined. */
export function breakNamed(text: string): keyof Breaks | undefined {
  const key = text.toLowerCase().replace(/[-_\s]/g, '');
  return BREAK_NAMES.find((name) => name.toLowerCase() === key);
}

/**
 * Applies the breaks that change how a reply looks (statuses, headers, bodies). Called once per
 * request, on the final reply (also on an idempotent replay). `op`/`unknownId` are unset on
 * replies of internal collections, so only the API-wide content breaks reach those.
 */
export function applyReplyBreaks(reply: Reply, breaks: Breaks): Reply {
  let r: Reply = { ...reply, headers: { ...reply.headers } };
  if (r.unknownId) {
    if (breaks.successFalse && r.op === 'read') {
      r = { ...r, status: 200, error: undefined, body: { success: false, message: 'Resource not found' } };
    } else if (breaks.errorIn200) {
      r = { ...r, status: 200, error: undefined, body: { error: { code: 404, message: 'not found' } } };
    } else if (breaks.notFound200) {
      r = { ...r, status: 200, error: undefined, body: {} };
    } else if (breaks.notFound400) {
      r = { ...r, status: 400 };
    } else if (breaks.notFound500) {
      r = { ...r, status: 500 };
    }
  }
  const ok = r.status >= 200 && r.status < 300;
  if (ok && r.op === 'read' && breaks.readStatus) r.status = 203;
  if (ok && r.op === 'list' && breaks.listStatus) r.status = 202;
  if (ok && r.op === 'create' && breaks.createStatus200) r.status = 200;
  if (ok && r.op === 'create' && breaks.noLocation) delete r.headers.Location;
  if (ok && (r.op === 'replace' || r.op === 'update') && breaks.changeStatus204) {
    r = { ...r, status: 204, body: undefined };
  }
  if (ok && r.op === 'delete' && breaks.deleteStatus500) {
    r = { ...r, status: 500, body: undefined, error: { code: 'internal_error', message: 'Delete failed' } };
  }
  if (ok && r.op === 'list' && breaks.badJson) {
    r.raw = { contentType: 'application/json; charset=utf-8', text: '{"data": [' };
  }
  if (ok && breaks.textJson && r.body !== undefined && !r.raw && r.status !== 204) {
    r.raw = { contentType: 'text/plain; charset=utf-8', text: JSON.stringify(r.body) };
  }
  if (breaks.htmlErrors && r.error && r.status >= 400 && r.status < 500) {
    const detail = escapeHtml(r.error.message);
    r.raw = {
      contentType: 'text/html; charset=utf-8',
      text: `<!doctype html><html><body><h1>Error ${r.status}</h1><p>${detail}</p></body></html>`,
    };
  }
  return r;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
