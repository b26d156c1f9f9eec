// Read-only memory maps of immutable files (segments): the OS page cache holds their bytes, so a
// collection bigger than RAM still works and threads that map the same file share its pages.
// The mapping lives as long as the returned buffer: it is unmapped when the buffer is garbage
// collected (the binding has no explicit unmap), so callers drop every view to release it.
// Never write to a mapping: it is PROT_READ and a write kills the process.

import fs from 'node:fs';
import { CorruptFileError } from './errors.ts';
import { mmap } from './mmap-binding.ts';

/** Maps the whole file at `path` read-only; throws CorruptFileError for an empty file. */
export function mapFileReadOnly(path: string): Uint8Array {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) throw new CorruptFileError(path, 'empty file');
    // Searches read a few blocks here and there: tell the kernel not to read ahead.
    const buffer = mmap.map(size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0, mmap.MADV_RANDOM);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  } finally {
    // The mapping stays valid after the descriptor is closed.
    fs.closeSync(fd);
  }
}

/**
 * Drops the pages of `mapping` (a whole map from mapFileReadOnly) from this process's resident
 * set: they stay in the OS page cache, and a later read faults them back in. For a map whose
 * reading is done but which the garbage collector has not unmapped yet (a merge's sources).
 */
export function releaseResidentPages(mapping: Uint8Array): void {
  mmap.advise(mapping, mmap.MADV_DONTNEED);
}
