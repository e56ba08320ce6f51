// Reading a user's text file (config, OpenAPI document, a file its $refs name) with a size cap and one-line reasons.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** A file could not be read: `message` is one line naming the file (as the user wrote it) and why. */
export class ReadProblem extends Error {}

/**
 * Reads `file` as UTF-8, refusing a folder, anything that is not a regular file (a FIFO or a
 * device would block or never end) and a file over `maxBytes`. `shown` names the file in messages
 * and `noun` says what it is ("config file"). Throws ReadProblem, never anything else.
 */
export async function readCappedFile(
  file: string,
  shown: string,
  noun: string,
  maxBytes: number,
): Promise<string> {
  const what = `the ${noun}`;
  let handle;
  try {
    // Non-blocking: opening a FIFO must not wait for a writer (it is refused just below).
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new ReadProblem(`${shown}: cannot read ${what}: ${reasonOf(error)}`);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new ReadProblem(`${shown}: cannot read ${what}: it is a directory`);
    if (!info.isFile()) throw new ReadProblem(`${shown}: cannot read ${what}: not a regular file`);
    if (info.size > maxBytes)
      throw new ReadProblem(`${shown}: ${noun} too large (${info.size} bytes, at most ${maxBytes})`);
    // Read at most one byte past the cap: a file that grows after stat() is still bounded.
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes)
        throw new ReadProblem(`${shown}: ${noun} too large (more than ${maxBytes} bytes)`);
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof ReadProblem) throw error;
    throw new ReadProblem(`${shown}: cannot read ${what}: ${reasonOf(error)}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return String(code ?? (error as Error)?.message ?? error);
}
