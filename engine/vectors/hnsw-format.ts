// The HNSW graph's data and file format: the vectors it indexes, its parameters, the graph as
// plain typed arrays (a node's neighbour list is a block of `1 + capacity` Uint32s: its degree,
// then the ids), its header layout and limits, and its encoding as named byte sections that are
// read back zero-copy and checked (hnsw-graph.ts is the door; see it for the design).

import { endianness } from 'node:os';

export interface QuantizedVectors {
  dims: number;
  count: number;
  /** count × dims, row-major. */
  codes: Int8Array;
  scales: Float32Array;
}

export interface HnswParams {
  /** Neighbours per node on the upper layers (2·m on layer 0). */
  m: number;
  /** Candidates kept while searching for a new node's neighbours. */
  efConstruction: number;
  /** Seeds the PRNG that draws node levels. */
  seed: number;
}

export const DEFAULT_HNSW_PARAMS: HnswParams = Object.freeze({ m: 16, efConstruction: 100, seed: 1 });

/**
 * The graph as plain typed arrays, so it can be written to a file and read back zero-copy.
 * A node's neighbour list is a block of `1 + capacity` Uint32s: its degree, then the ids.
 */
export interface HnswGraph {
  /** [format version, node count, m, layer-0 capacity (2·m), entry point, top level]. */
  meta: Uint32Array;
  /** Level of each node (0 = layer 0 only); the array is padded to a multiple of 4 bytes. */
  levels: Uint8Array;
  /** Layer 0: node n's block starts at n · (layer-0 capacity + 1). */
  layer0: Uint32Array;
  /** count + 1 offsets into `upper`: node n's layers 1…levels[n] as consecutive (m + 1)-slot blocks. */
  upperOffsets: Uint32Array;
  upper: Uint32Array;
}

export interface HnswResult {
  /** Best first. */
  nodes: Uint32Array;
  scores: Float32Array;
}

export const HNSW_FORMAT_VERSION = 1;

export const HNSW_SECTION = {
  meta: 'hnsw.meta',
  levels: 'hnsw.levels',
  layer0: 'hnsw.layer0',
  upperOffsets: 'hnsw.upper-offsets',
  upper: 'hnsw.upper',
} as const;

export const META_VERSION = 0;
export const META_COUNT = 1;
export const META_M = 2;
export const META_M0 = 3;
export const META_ENTRY = 4;
export const META_TOP_LEVEL = 5;
export const META_LENGTH = 6;

/** The entry point of an empty graph. */
export const NO_NODE = 0xffffffff;
/** Levels are drawn from an exponential distribution; this caps the (astronomically rare) tail. */
export const MAX_LEVEL = 24;
export const MAX_M = 1024;
export const INT32_MAX = 0x7fffffff;
export const MAX_CODE = 127;
/** Code-against-code sums (127² a dimension) stay within int32 up to this many dims. */
export const MAX_DIMS = 65536;
/** Codes read as 32-bit words assume little-endian byte order. */
export const LITTLE_ENDIAN = endianness() === 'LE';

// ---------------------------------------------------------------------------------------------
// Layout helpers.

export function metaOf(graph: HnswGraph): { count: number; m: number; m0: number; entry: number; topLevel: number } {
  const meta = graph.meta;
  return { count: meta[META_COUNT], m: meta[META_M], m0: meta[META_M0], entry: meta[META_ENTRY], topLevel: meta[META_TOP_LEVEL] };
}

export function corrupt(detail: string): never {
  throw new Error(`HNSW graph is corrupt: ${detail}`);
}


export function checkVectors(vectors: QuantizedVectors): void {
  const { dims, count, codes, scales } = vectors;
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) throw new Error(`HNSW: dims must be an integer in 1…${MAX_DIMS}, got ${dims}`);
  if (!Number.isInteger(count) || count < 0 || count >= NO_NODE) throw new Error(`HNSW: invalid vector count ${count}`);
  if (codes.length < count * dims) throw new Error(`HNSW: ${codes.length} codes for ${count} vectors of ${dims} dims`);
  if (scales.length < count) throw new Error(`HNSW: ${scales.length} scales for ${count} vectors`);
}

// ---------------------------------------------------------------------------------------------
// Files.

export function bytesOf(array: Uint32Array | Uint8Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** The graph as named byte sections, each a view (no copy) of 4-byte aligned data. */
export function encodeHnswGraph(graph: HnswGraph): Array<readonly [string, Uint8Array]> {
  return [
    [HNSW_SECTION.meta, bytesOf(graph.meta)],
    [HNSW_SECTION.levels, bytesOf(graph.levels)],
    [HNSW_SECTION.layer0, bytesOf(graph.layer0)],
    [HNSW_SECTION.upperOffsets, bytesOf(graph.upperOffsets)],
    [HNSW_SECTION.upper, bytesOf(graph.upper)],
  ];
}

export function section(sections: (name: string) => Uint8Array | null, name: string): Uint8Array {
  const bytes = sections(name);
  if (bytes === null) corrupt(`section '${name}' is missing`);
  return bytes;
}

export function u32Section(sections: (name: string) => Uint8Array | null, name: string, expectedLength: number | null): Uint32Array {
  const bytes = section(sections, name);
  if (bytes.byteOffset % 4 !== 0) corrupt(`section '${name}' starts at byte ${bytes.byteOffset}, not 4-byte aligned`);
  if (bytes.byteLength % 4 !== 0) corrupt(`section '${name}' is ${bytes.byteLength} bytes, not a whole number of Uint32s`);
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  if (expectedLength !== null && view.length !== expectedLength) corrupt(`section '${name}' holds ${view.length} Uint32s, expected ${expectedLength}`);
  return view;
}

/**
 * Reads a graph back from its sections' bytes without copying. Checks the header, the sizes and
 * the levels against the upper-layer offsets (one pass over 5 bytes a node); neighbour ids are
 * bounds-checked as searches read them.
 */
export function decodeHnswGraph(sections: (name: string) => Uint8Array | null, count: number): HnswGraph {
  const meta = u32Section(sections, HNSW_SECTION.meta, null);
  if (meta.length < META_LENGTH) corrupt(`header holds ${meta.length} values, expected ${META_LENGTH}`);
  if (meta[META_VERSION] !== HNSW_FORMAT_VERSION) corrupt(`format version ${meta[META_VERSION]}, this build reads ${HNSW_FORMAT_VERSION}`);
  if (meta[META_COUNT] !== count) corrupt(`graph of ${meta[META_COUNT]} nodes for ${count} vectors`);
  const m = meta[META_M];
  const m0 = meta[META_M0];
  if (m < 1 || m > MAX_M || m0 < m || m0 > 2 * MAX_M) corrupt(`neighbour capacities m=${m}, layer 0 ${m0}`);
  const entry = meta[META_ENTRY];
  const topLevel = meta[META_TOP_LEVEL];
  if (count === 0 ? entry !== NO_NODE : entry >= count) corrupt(`entry point ${entry} for ${count} nodes`);
  if (topLevel > MAX_LEVEL) corrupt(`top level ${topLevel}`);

  const levels = section(sections, HNSW_SECTION.levels);
  if (levels.byteLength < count) corrupt(`section '${HNSW_SECTION.levels}' is ${levels.byteLength} bytes for ${count} nodes`);
  const layer0 = u32Section(sections, HNSW_SECTION.layer0, count * (m0 + 1));
  const upperOffsets = u32Section(sections, HNSW_SECTION.upperOffsets, count + 1);
  const upper = u32Section(sections, HNSW_SECTION.upper, null);
  const block = m + 1;
  if (upperOffsets[0] !== 0) corrupt(`upper-layer offsets start at ${upperOffsets[0]}`);
  for (let node = 0; node < count; node++) {
    const level = levels[node];
    if (level > topLevel) corrupt(`node ${node} is on level ${level}, above the top level ${topLevel}`);
    if (upperOffsets[node + 1] - upperOffsets[node] !== level * block) corrupt(`node ${node}'s upper-layer offsets do not match its level ${level}`);
  }
  if (upperOffsets[count] !== upper.length) corrupt(`upper layers hold ${upper.length} Uint32s, the offsets say ${upperOffsets[count]}`);
  if (count > 0 && levels[entry] !== topLevel) corrupt(`entry point ${entry} is on level ${levels[entry]}, not the top level ${topLevel}`);
  return { meta, levels, layer0, upperOffsets, upper };
}

