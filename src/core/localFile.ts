/**
 * Reading a file the user named (a script's step file, a DAR, a commands file) without trusting it to be
 * one: a FIFO would block the read forever and `/dev/zero` would fill the memory, so only a regular file
 * is read, and only up to a limit.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** A commands, vetting or script file: far more than any hand-written or generated one. */
export const MAX_JSON_FILE_BYTES = 32 * 1024 * 1024;
/** A DAR: its packages with their dependencies, with room to spare. */
export const MAX_DAR_BYTES = 256 * 1024 * 1024;

/** A file that is not read: not a regular file, or larger than the limit. */
export class FileRefusedError extends Error {
  override readonly name = 'FileRefusedError';
  constructor(
    readonly path: string,
    readonly reason: 'not-a-file' | 'too-large',
    readonly limitBytes: number,
  ) {
    super(reason === 'not-a-file' ? `${path} is not a regular file (a FIFO, a device or a directory): not read` : `${path} is larger than ${mebibytes(limitBytes)}: not read`);
  }
}

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/** The bytes of a regular file of at most `maxBytes`; FileRefusedError for anything else. */
export async function readRegularFile(path: string, maxBytes: number): Promise<Uint8Array> {
  // Non-blocking, so that opening a FIFO with no writer returns at once (and is then refused).
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new FileRefusedError(path, 'not-a-file', maxBytes);
    if (stat.size > maxBytes) throw new FileRefusedError(path, 'too-large', maxBytes);
    // The size said is not trusted (the file may grow while it is read): never more than one byte past the limit.
    let buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw new FileRefusedError(path, 'too-large', maxBytes);
        const bigger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(bigger);
        buffer = bigger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw new FileRefusedError(path, 'too-large', maxBytes);
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
