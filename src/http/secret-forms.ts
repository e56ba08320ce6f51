// The spellings of one secret that an echo may carry: other case, reversed, hex, base64 (inside longer data too).
import { lowerUnits, SPACE_CLASS } from './decoded-view.js';

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

/** Length of the anchors a fragment is found by: every run of FRAGMENT_LENGTH holds one whole. */
export const ANCHOR_LENGTH = 4;

/**
 * The pieces a fragment of a long secret is found by: its lower-cased characters in blocks of
 * ANCHOR_LENGTH, from offset 0. A run of FRAGMENT_LENGTH characters starting at any offset holds
 * one of them whole, so searching for them (natively) and extending each hit both ways finds it.
 */
export function anchorsOf(value: string): Array<{ text: string; offset: number }> {
  const plain = lowerUnits(viewed(value));
  if (plain.length <= FRAGMENT_SECRET_MIN) return [];
  const anchors: Array<{ text: string; offset: number }> = [];
  for (let offset = 0; offset + ANCHOR_LENGTH <= plain.length; offset += ANCHOR_LENGTH) {
    anchors.push({ text: plain.slice(offset, offset + ANCHOR_LENGTH), offset });
  }
  return anchors;
}
