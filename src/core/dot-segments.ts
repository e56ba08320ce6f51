// Dot segments ("." and "..") in a path, written plainly or percent-encoded: they could lead a request out of the base URL.

/** Rounds of percent-decoding tried: `%252e` is `%2e` after one, `.` after two; more is needless. */
const DECODE_ROUNDS = 4;

/** One round of percent-decoding, byte by byte, never throwing on a malformed escape. */
function decodeOnce(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The first dot segment of `path` as written (`..`, `%2e%2E`, `%252e%252e`, `.%2e;x`...), or
 * undefined when there is none. A server may decode a path once or twice and may split it at an
 * encoded `/` or at `\`, and some drop a `;parameter` from a segment, so every spelling that
 * some server turns into `.` or `..` counts.
 */
export function dotSegmentIn(path: string): string | undefined {
  // Split as written first, so the message can quote the segment the user wrote.
  for (const written of path.split(/[/\\]/)) {
    let decoded = written;
    for (let round = 0; round <= DECODE_ROUNDS; round++) {
      for (const part of decoded.split(/[/\\]/)) {
        const bare = part.split(';')[0];
        if (bare === '.' || bare === '..') return written;
      }
      const next = decodeOnce(decoded);
      if (next === decoded) break;
      decoded = next;
    }
  }
  return undefined;
}

/** The problem with a path that holds a dot segment, or undefined when it holds none. */
export function dotSegmentProblem(path: string): string | undefined {
  const segment = dotSegmentIn(path);
  if (segment === undefined) return undefined;
  const shown = segment === '.' || segment === '..' ? segment : `${segment}, which decodes to a dot segment`;
  return `must not contain a dot segment (${shown}): it could lead requests out of the base URL (got ${JSON.stringify(path)})`;
}
