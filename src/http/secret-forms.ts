// The spellings of one secret that an echo may carry: other case, reversed, hex, base64 (inside longer data too).
import { SPACE_CLASS } from './decoded-view.js';

/** Secrets shorter than this are redacted only where they appear exactly (see README, Safety). */
export const MIN_FUZZY_LENGTH = 8;
/** In a body that does not parse, this many characters in a row of a longer secret are redacted. */
export const FRAGMENT_LENGTH = 12;
/** Only secrets longer than this have their fragments redacted (a fragment must not be most of it). */
export const FRAGMENT_SECRET_MIN = 16;

/** A string to look for in a decoded view (see decoded-view.ts). */
export interface Form {
  text: string;
  /** Looked for as is (base64); otherwise in the lower-cased view. */
  cased: boolean;
}

/** Lower-cases one code unit at a time, as the decoded view does, so positions stay aligned. */
export function lowerUnits(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return text
    .split('')
    .map((c) => (c.toLowerCase().length === 1 ? c.toLowerCase() : c))
    .join('');
}

const SPACES = new RegExp(SPACE_CLASS, 'g');

/** The secret as the decoded view reads it: whitespace left out (see decoded-view.ts). */
export function viewed(value: string): string {
  return value.replace(SPACES, '');
}

/**
 * Every form of a secret of MIN_FUZZY_LENGTH or more characters: in any case, reversed, its UTF-8
 * bytes in hex, and the part of its base64 and base64url encodings that does not depend on what
 * precedes it, for each of the three alignments, so `user:secret` (or `secret:`) encoded whole is
 * found too. Shorter secrets have none: their other spellings are ordinary text.
 */
export function formsOf(value: string): Form[] {
  const plain = lowerUnits(viewed(value));
  if (plain.length < MIN_FUZZY_LENGTH) return [];
  const forms: Form[] = [
    { text: plain, cased: false },
    { text: [...plain].reverse().join(''), cased: false },
    { text: Buffer.from(value, 'utf8').toString('hex'), cased: false },
  ];
  for (const core of base64Cores(Buffer.from(value, 'utf8'))) {
    forms.push({ text: core, cased: true });
    const url = core.replace(/\+/g, '-').replace(/\//g, '_');
    if (url !== core) forms.push({ text: url, cased: true });
  }
  const seen = new Set<string>();
  return forms.filter((f) => {
    const key = `${f.cased ? 'c' : 'l'}${f.text}`;
    if (seen.has(key) || f.text.length < MIN_FUZZY_LENGTH) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The base64 characters that encode only the secret's own bits, when it starts at byte offset 0, 1
 * or 2 of a 3-byte group: the characters mixing in neighbouring bytes are left out at both ends.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const whole = Math.floor((shift + bytes.length) / 3) * 4;
    cores.push(encoded.slice([0, 2, 3][shift], whole));
  }
  return cores;
}

/** The runs a fragment can start with: each FRAGMENT_LENGTH-character piece of a long secret, lower-cased. */
export function fragmentsOf(value: string): string[] {
  const plain = lowerUnits(viewed(value));
  if (plain.length <= FRAGMENT_SECRET_MIN) return [];
  const pieces: string[] = [];
  for (let i = 0; i + FRAGMENT_LENGTH <= plain.length; i++) pieces.push(plain.slice(i, i + FRAGMENT_LENGTH));
  return pieces;
}
