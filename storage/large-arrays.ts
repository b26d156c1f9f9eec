// Typed arrays of a megabyte or more in their own anonymous memory maps, whose pages can be
// given back to the operating system. Through malloc, a freed large array stays in the
// thread's glibc arena: after the first large free, glibc raises its mmap threshold to that
// size (up to 32 MiB), so every later array below it comes from the arena, and an arena keeps
// what its peak held. An index thread's builds and merges allocate and drop hundreds of
// megabytes of such arrays; through malloc, each index thread kept 100–150 MiB of freed memory
// resident for the life of the server (benchmarks/README.md, "glibc's arenas"). Small arrays
// stay with malloc, which reuses them without a page fault.
// A map is unmapped only once its array is collected and then the owning thread's event loop
// turns (Node runs external buffers' free callbacks there), which a long build or merge never
// lets happen: `growArray`, the way a growing buffer moves to a larger one, gives the old map's
// pages back at once.

import { mmap } from './mmap-binding.ts';

/** Arrays this large or larger get their own map. */
export const LARGE_ARRAY_MIN_BYTES = 1024 * 1024;
/** Linux's MAP_ANONYMOUS (the binding exports no constant for it). */
const MAP_ANONYMOUS = 0x20;
/** The binding takes the size as a 32-bit signed integer. */
const MAX_MAP_BYTES = 0x7fff_0000;

const anonymousMaps = process.platform === 'linux';
/** The buffers of this thread's maps (for `growArray` to give back). */
const mappedBuffers = new WeakSet<ArrayBufferLike>();
/** The maps made while `releaseLargeArraysAfter` runs its work (null: it is not running). */
let region: ArrayBufferLike[] | null = null;

/** The typed arrays `growArray` takes. */
export type GrowableArray = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A typed array constructor (Uint8Array, Uint32Array, Float64Array…). */
export interface TypedArrayType<T> {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** A zero-filled array of `length` elements; in its own anonymous map when it is large. */
export function newArray<T>(type: TypedArrayType<T>, length: number): T {
  const bytes = length * type.BYTES_PER_ELEMENT;
  if (!anonymousMaps || bytes < LARGE_ARRAY_MIN_BYTES || bytes > MAX_MAP_BYTES) return new type(length);
  let map: Buffer;
  try {
    map = mmap.map(bytes, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  } catch {
    // Out of maps or address space: malloc's answer (and its RangeError) is the one to give.
    return new type(length);
  }
  mappedBuffers.add(map.buffer);
  region?.push(map.buffer);
  return new type(map.buffer as ArrayBuffer, map.byteOffset, length);
}

/**
 * A new array of `length` elements holding `array`'s first `used` (zeros after them). `array`
 * must not be used again, nor any view of it: a map's pages are given back now and read as
 * zeros afterwards.
 */
export function growArray<T extends GrowableArray>(array: T, length: number, used: number = array.length): T {
  const grown = newArray(array.constructor as TypedArrayType<T>, length);
  grown.set(used === array.length ? array : (array.subarray(0, used) as T));
  releaseArray(array);
  return grown;
}

/** Gives `array`'s pages back now if it has a map of its own; it must not be used again, nor any view of it. */
export function releaseArray(array: ArrayBufferView): void {
  if (mappedBuffers.has(array.buffer)) discardPages(array.buffer);
}

/** Drops a map's pages from the resident set; the map reads as zeros afterwards. */
function discardPages(buffer: ArrayBufferLike): void {
  mmap.advise(new Uint8Array(buffer), mmap.MADV_DONTNEED);
}

/**
 * Runs `work` and then gives back the pages of every map it made, so a build's or a merge's
 * arrays leave the resident set when it ends rather than whenever they are collected. For work
 * whose large arrays are all scratch: what it returns, and anything that outlives it, must hold
 * none (an index thread's build or merge returns the size of the file it wrote).
 */
export function releaseLargeArraysAfter<T>(work: () => T): T {
  if (region !== null) return work();
  region = [];
  try {
    return work();
  } finally {
    for (const buffer of region) discardPages(buffer);
    region = null;
  }
}
