// Parsing JSON from a service within a nesting limit, so no body can make the audit recurse without bound.
import { NOT_JSON, NOT_UTF8 } from '../core/check.js';
import { HELD_FROM } from './body.js';

/**
 * Deepest nesting of arrays and objects the audit parses. Real payloads stay far below it; a
 * deeper body (`[[[[…` a million levels down) would make every recursive walk over it (comparison,
 * redaction, schema validation, report rendering) overflow the stack or stall the event loop.
 */
export const MAX_JSON_DEPTH = 512;

/** What became of a body parsed as JSON: the value, or why there is none. */
export type JsonParse = { ok: true; value: unknown } | { ok: false; problem: string };

/** The next bracket, brace or quote. */
const STRUCTURE = /[[\]{}"]/g;
/** The rest of a string after its opening quote, escapes included, up to its closing quote. */
const STRING_REST = /[^"\\]*(?:\\[\s\S][^"\\]*)*"/y;

/**
 * True when the text nests arrays or objects deeper than `limit`. One pass from bracket to
 * bracket, strings skipped whole (regular expressions, so a body of megabytes costs milliseconds);
 * it stops as soon as the limit is passed, and costs far less than the parse it spares (V8 takes
 * a second to parse a body of four million nested brackets, and what walks the result recurses).
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  // Each level takes at least one character.
  if (text.length <= limit) return false;
  let depth = 0;
  STRUCTURE.lastIndex = 0;
  for (let m = STRUCTURE.exec(text); m !== null; m = STRUCTURE.exec(text)) {
    const c = m[0];
    if (c === '"') {
      STRING_REST.lastIndex = STRUCTURE.lastIndex;
      if (!STRING_REST.test(text)) return false; // an unterminated string: JSON.parse refuses it
      STRUCTURE.lastIndex = STRING_REST.lastIndex;
    } else if (c === '[' || c === '{') {
      if (++depth > limit) return true;
    } else depth--;
  }
  return false;
}

/** The sentence the audit uses for a body nested deeper than it parses. */
export function tooDeepProblem(limit: number = MAX_JSON_DEPTH): string {
  return `nests arrays or objects more than ${limit} levels deep: not usable JSON (the audit parses no deeper)`;
}

/**
 * Parses JSON text, refusing text nested deeper than `limit` before parsing it. Never throws.
 * `problem` completes "the body …" in a sentence.
 */
export function parseJson(text: string, limit: number = MAX_JSON_DEPTH): JsonParse {
  if (nestsDeeperThan(text, limit)) return { ok: false, problem: tooDeepProblem(limit) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: NOT_JSON };
  }
}

/** A body read as text and, when it is JSON, as a value. */
export interface BodyValue {
  text: string;
  json: unknown;
  isJson: boolean;
  /** Why a complete, non-empty body is not usable JSON (see Exchange.jsonProblem). */
  problem?: string;
  /** False when a complete body is not valid UTF-8. */
  validUtf8: boolean;
  /** About the memory the text and value take, in bytes (the memory budget counts it). */
  cost: number;
  /** Of `cost`, what the JSON value takes (0 when there is none). */
  jsonCost: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a body as UTF-8 and parses it as JSON. Only a complete body is judged: one cut short may
 * end inside a character or a value. `unusable` is why the body cannot be used whatever it holds
 * (compressed and undecodable).
 */
export function bodyValue(bytes: Buffer, complete: boolean, unusable?: string): BodyValue {
  let text: string;
  let validUtf8 = true;
  try {
    text = complete ? strictUtf8.decode(bytes) : bytes.toString('utf8');
  } catch {
    validUtf8 = false;
    text = bytes.toString('utf8');
  }
  const out: BodyValue = { text, json: undefined, isJson: false, validUtf8, cost: text.length, jsonCost: 0 };
  if (complete && unusable !== undefined) return { ...out, problem: unusable };
  // The value without the whitespace around it (a slice of the text, not a copy).
  const value = text.trim();
  if (!complete || value.length === 0) return out;
  if (!validUtf8) return { ...out, problem: NOT_UTF8 };
  const parsed = parseJson(text);
  if (!parsed.ok) return { ...out, problem: parsed.problem };
  const jsonCost = valueCost(value, text.length);
  return { ...out, json: parsed.value, isJson: true, cost: text.length + jsonCost, jsonCost };
}

const COMMA = 0x2c;
const COLON = 0x3a;
const BRACE = 0x7b;

/**
 * About the memory a parsed value takes, from its text without the whitespace around it (`value`;
 * the body's whole text is `bodyChars` long): its characters, plus 8 bytes per array element or
 * member (a slot in V8: a dense `[1,2,3,…]` costs twice its characters) and 24 per object. Commas
 * and colons inside strings count too: an overestimate errs on the side of the memory bound.
 * Counted only for bodies the budget watches; the padding around a value is not read again.
 */
function valueCost(value: string, bodyChars: number): number {
  if (bodyChars < HELD_FROM) return value.length;
  let separators = 0;
  let objects = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === COMMA || c === COLON) separators++;
    else if (c === BRACE) objects++;
  }
  return value.length + 8 * separators + 24 * objects;
}
