// A small JSON state file readable only by the server's user (mode 0600), replaced atomically
// and durably (temp → fsync → rename → fsync dir) on every write. Used by the API key and
// session stores. A missing file reads as `undefined`; unparsable JSON raises a
// CorruptFileError naming the file rather than being ignored.

import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicWith } from './atomic-file.ts';
import { CorruptFileError } from './errors.ts';

export const PRIVATE_FILE_MODE = 0o600;

/** The parsed contents of `filePath`, or `undefined` when it does not exist. */
export function readPrivateJsonFile(filePath: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CorruptFileError(filePath, `not valid JSON (${(error as Error).message})`);
  }
}

/** Replaces `filePath` with `value` as JSON, mode 0600, atomically and durably. */
export function writePrivateJsonFile(filePath: string, value: unknown): void {
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  const text = `${JSON.stringify(value, null, 2)}\n`;
  writeFileAtomicWith(filePath, (fd) => {
    // Restrict the temporary file before any byte is written; the rename keeps the mode.
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    fs.writeFileSync(fd, text, 'utf8');
  });
}
