// The memory-map binding (@riaskov/mmap-io, CommonJS with a native part), loaded once per thread:
// read-only maps of segment files (mapped-file.ts) and anonymous maps for large scratch arrays
// (large-arrays.ts).

import { createRequire } from 'node:module';

export interface MmapBinding {
  map(size: number, protection: number, flags: number, fd: number, offset?: number, advise?: number): Buffer;
  readonly PROT_READ: number;
  readonly PROT_WRITE: number;
  readonly MAP_SHARED: number;
  readonly MAP_PRIVATE: number;
  readonly MADV_RANDOM: number;
  readonly MADV_DONTNEED: number;
  advise(buffer: Uint8Array, advise: number): void;
}

// Each thread that loads it gets its own instance.
export const mmap = createRequire(import.meta.url)('@riaskov/mmap-io') as MmapBinding;
