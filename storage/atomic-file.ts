// Durable, atomic file replacement: write a temporary file in the same directory, fsync it,
// rename it over the target, then fsync the directory so the rename itself survives a crash.
// Readers see either the old file or the new one, never a mix.

import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const TEMP_SUFFIX_BYTES = 6;

/** Prefix of temporary files written here; a crash can leave them behind, never half a target. */
export const ATOMIC_TEMP_PREFIX = '.tmp-';

/** Flushes a directory's entries (new, renamed or removed files) to disk. */
export function fsyncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Creates `filePath` atomically and durably, letting `writeContents` write the bytes to an
 * open descriptor of the temporary file (for large files written piece by piece).
 */
export function writeFileAtomicWith(filePath: string, writeContents: (fd: number) => void): void {
  const dir = path.dirname(filePath);
  const tempName = `${ATOMIC_TEMP_PREFIX}${path.basename(filePath)}-${randomBytes(TEMP_SUFFIX_BYTES).toString('hex')}`;
  const tempPath = path.join(dir, tempName);
  const fd = fs.openSync(tempPath, 'wx');
  try {
    try {
      writeContents(fd);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tempPath, filePath);
  } catch (error) {
    fs.rmSync(tempPath, { force: true });
    throw error;
  }
  fsyncDirectory(dir);
}

/** Writes `data` to `filePath` atomically and durably (synchronous). */
export function writeFileAtomic(filePath: string, data: Uint8Array | string): void {
  writeFileAtomicWith(filePath, (fd) => {
    fs.writeFileSync(fd, data);
  });
}
