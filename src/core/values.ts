// Comparing a value sent with the value read back by meaning: decimal strings, RFC 3339 spellings, dates at midnight UTC.
import { isObject, short } from './shapes.js';

/**
 * One place where what was read back does not mean what was sent.
 *
 * `path` names the member from the top of the compared payload (`price`, `build.number`,
 * `lines[1]`, `["odd key"]`); it is empty when the whole value differs.
 */
export interface ValueDifference {
  path: string;
  sent: unknown;
  /** The value read back (undefined when `gone`). */
  read: unknown;
  /** The read has no such member at all. */
  gone: boolean;
  /** What happened to the value when more can be said than "another value" ("rounded to 2 decimals"). */
  note?: string;
}

/**
 * Whether `read` shows the value `sent`, by meaning rather than by JSON type:
 *
 * - a number equals a string holding a JSON number of the same value (`3`, `"3"`, `"3.00"`,
 *   `"3.0e0"`); numbers are compared as the doubles a JSON parser makes of them, so `3.456` and
 *   `"3.46"` differ (the service rounded: see `valueDifferences`). Two strings are compared as
 *   text (`"1.0"` is not `"1"`: a string was sent, and another string came back);
 * - an RFC 3339 date-time equals the same instant in any other RFC 3339 spelling (`Z`, `+00:00`,
 *   another offset, a `t` or space separator, with or without fractional seconds), to the last
 *   digit of the fraction: `.5` and `.500` are the same, `.123456` and `.123` are not;
 * - a full date `YYYY-MM-DD` equals a date-time at midnight UTC of that day (either way round);
 * - a string or number sent and an object read: shown when the object is the record the value
 *   names (its `id`, `_id`, `uuid`, `documentId` or `pk`, also under `data`): a relation sent as
 *   an id and read back expanded;
 * - objects: every member sent must be shown with the same meaning; members the read adds are
 *   fine (an id, server-managed fields). A member sent as `null` may be absent from the read
 *   (many services leave nulls out). Arrays: same length, entries compared in order;
 * - nothing looser: `"bolt"` is not `"Bolt"`, `3` not `3.5`, `true` not `"true"`, `1` not `true`,
 *   and a member sent with a value but absent from the read is gone.
 *
 * Symmetric for scalars: `sameValue(a, b) === sameValue(b, a)` when neither is an object.
 */
export function sameValue(sent: unknown, read: unknown): boolean {
  return valueDifferences(sent, read).length === 0;
}

/**
 * Every place where `read` does not show `sent` (see `sameValue` for the rule), at most `limit`,
 * with paths below `path` (a prefix such as `data` when `sent` is the content of an envelope).
 * Empty when the read shows every value sent.
 */
export function valueDifferences(
  sent: unknown,
  read: unknown,
  path = '',
  limit = Number.POSITIVE_INFINITY,
): ValueDifference[] {
  const out: ValueDifference[] = [];
  collect(sent, read, path, out, limit);
  return out;
}

function collect(sent: unknown, read: unknown, path: string, out: ValueDifference[], limit: number): void {
  if (out.length >= limit) return;
  if (isObject(sent) && isObject(read)) {
    for (const [key, value] of Object.entries(sent)) {
      const at = memberPath(path, key);
      if (!Object.hasOwn(read, key) || read[key] === undefined) {
        if (value !== null && value !== undefined)
          out.push({ path: at, sent: value, read: undefined, gone: true });
      } else collect(value, read[key], at, out, limit);
      if (out.length >= limit) return;
    }
    return;
  }
  if (Array.isArray(sent) && Array.isArray(read) && sent.length === read.length) {
    for (let i = 0; i < sent.length && out.length < limit; i++)
      collect(sent[i], read[i], `${path}[${i}]`, out, limit);
    return;
  }
  if (sameScalar(sent, read) || referencedBy(sent, read)) return;
  const note = differenceNote(sent, read);
  out.push({ path, sent, read, gone: false, ...(note ? { note } : {}) });
}

/** Members that name the record an object is (a reference read back expanded carries one). */
const REFERENCE_IDS = ['id', '_id', 'uuid', 'documentId', 'pk'];

/**
 * Whether `read` is the record the scalar `sent` names: a relation sent as an id and read back
 * expanded (Strapi with `populate`: "widget": "ki3q…" is read as {"id": 1, "documentId": "ki3q…",
 * …}), also inside a `data` envelope. How a service shows a relation the conventions leave open.
 */
export function referencedBy(sent: unknown, read: unknown): boolean {
  if ((typeof sent !== 'string' && typeof sent !== 'number') || !isObject(read)) return false;
  const records = isObject(read.data) ? [read, read.data] : [read];
  return records.some((record) =>
    REFERENCE_IDS.some((key) => {
      const value = record[key];
      return (typeof value === 'string' || typeof value === 'number') && sameScalar(sent, value);
    }),
  );
}

/** Whether `later` is an RFC 3339 date-time or date at or after the one `earlier` is (both must be). */
export function notBefore(earlier: unknown, later: unknown): boolean {
  const a = instantOf(earlier);
  const b = instantOf(later);
  if (!a || !b) return false;
  if (a.seconds !== b.seconds) return b.seconds > a.seconds;
  return Number(`0.${b.fraction}0`) >= Number(`0.${a.fraction}0`);
}

/** `price`, `build.number`, `meta["x y"]`. */
function memberPath(parent: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

function sameScalar(sent: unknown, read: unknown): boolean {
  if (sent === read) return true;
  if (typeof sent === 'number' || typeof read === 'number') {
    const a = numberOf(sent);
    const b = numberOf(read);
    return a !== undefined && b !== undefined && a === b;
  }
  const a = instantOf(sent);
  const b = instantOf(read);
  return a !== undefined && b !== undefined && a.seconds === b.seconds && a.fraction === b.fraction;
}

/** The text of a JSON number (RFC 8259 §6): no leading zeros, no leading `+`, no bare `.5` or `5.`. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A finite number, or a string holding a JSON number, as a number. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !JSON_NUMBER.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Digits after the decimal point as written (`"3.50"` has 2); undefined in exponent notation. */
function decimalsOf(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : undefined;
  if (text === undefined || /[eE]/.test(text)) return undefined;
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** An instant: whole seconds since 1970 (UTC) and the fraction's digits without trailing zeros. */
interface Instant {
  seconds: number;
  fraction: string;
  /** Fraction digits as written (`.500` has 3). */
  digits: number;
  /** A full date (`YYYY-MM-DD`), read as midnight UTC. */
  dateOnly: boolean;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An RFC 3339 date-time or full date as an instant; undefined for anything else. */
function instantOf(value: unknown): Instant | undefined {
  if (typeof value !== 'string') return undefined;
  const date = FULL_DATE.exec(value);
  if (date) {
    const days = civilDays(+date[1], +date[2], +date[3]);
    return days === undefined
      ? undefined
      : { seconds: days * 86400, fraction: '', digits: 0, dateOnly: true };
  }
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const days = civilDays(+m[1], +m[2], +m[3]);
  const [hour, minute, second] = [+m[4], +m[5], +m[6]];
  // Second 60 is a leap second (RFC 3339 §5.7); offsets stay within a day.
  if (days === undefined || hour > 23 || minute > 59 || second > 60) return undefined;
  const offset = m[8] ? (m[8] === '-' ? -1 : 1) * (+m[9] * 3600 + +m[10] * 60) : 0;
  if (m[8] && (+m[9] > 23 || +m[10] > 59)) return undefined;
  const fraction = (m[7] ?? '').replace(/0+$/, '');
  return {
    seconds: days * 86400 + hour * 3600 + minute * 60 + second - offset,
    fraction,
    digits: (m[7] ?? '').length,
    dateOnly: false,
  };
}

/** Days since 1970-01-01 of a valid proleptic Gregorian date (H. Hinnant's days_from_civil). */
function civilDays(year: number, month: number, day: number): number | undefined {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > lengths[month - 1]) return undefined;
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Why two values that are not the same are close: a number rounded, a time cut to a coarser precision. */
function differenceNote(sent: unknown, read: unknown): string | undefined {
  if (typeof sent === 'number' || typeof read === 'number') {
    const a = numberOf(sent);
    const b = numberOf(read);
    const shown = decimalsOf(read);
    const given = decimalsOf(sent);
    if (a === undefined || b === undefined || shown === undefined) return undefined;
    if (given !== undefined && given <= shown) return undefined;
    const unit = 10 ** -shown;
    const diff = Math.abs(a - b);
    const to = shown === 0 ? 'a whole number' : `${shown} decimal${shown === 1 ? '' : 's'}`;
    // A relative slack for the binary error of decimal fractions (12.345 is 12.3449999...).
    const slack = 1e-9 * Math.max(1, Math.abs(a));
    if (diff <= unit / 2 + slack) return `rounded to ${to}`;
    if (diff < unit && Math.abs(b) < Math.abs(a)) return `cut to ${to}`;
    return undefined;
  }
  const a = instantOf(sent);
  const b = instantOf(read);
  if (!a || !b) return undefined;
  if (!a.dateOnly && b.dateOnly && a.seconds - b.seconds >= 0 && a.seconds - b.seconds < 86400) {
    return 'read back as a date, without the time of day';
  }
  if (a.dateOnly || b.dateOnly || a.fraction.length <= b.digits) return undefined;
  const scale = Math.max(a.fraction.length, b.fraction.length);
  const total = (i: Instant): bigint =>
    BigInt(i.seconds) * 10n ** BigInt(scale) + BigInt(i.fraction.padEnd(scale, '0') || '0');
  const diff = total(a) > total(b) ? total(a) - total(b) : total(b) - total(a);
  const unit = 10n ** BigInt(scale - b.digits);
  const to =
    b.digits === 0
      ? 'whole seconds'
      : b.digits === 3
        ? 'milliseconds'
        : b.digits === 6
          ? 'microseconds'
          : `${b.digits} fractional digits`;
  if (diff * 2n <= unit) return `rounded to ${to}`;
  if (diff < unit && total(b) < total(a)) return `cut to ${to}`;
  return undefined;
}

/** `price: sent 3, read "3.50"`; `lines: sent ["a"], gone`; `price: sent 3.456, read "3.46" (rounded to 2 decimals)`. */
export function describeDifference(d: ValueDifference): string {
  const where = d.path === '' ? 'the body' : d.path;
  const read = d.gone ? 'gone' : `read ${short(d.read)}`;
  return `${where}: sent ${short(d.sent)}, ${read}${d.note ? ` (${d.note})` : ''}`;
}

/** The first `limit` differences side by side, `; `-separated, and how many more there are. */
export function describeDifferences(differences: ValueDifference[], limit = 5): string {
  const shown = differences.slice(0, limit).map(describeDifference);
  if (differences.length > limit) shown.push(`and ${differences.length - limit} more`);
  return shown.join('; ');
}
