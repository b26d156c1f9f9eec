// A segment's vectors for one embedder: a file beside the segment (named by the server)
// in the same checksummed container (storage/segment-file.ts), written once the segment's
// passages are embedded and memory-mapped by search workers like the segment. It holds, per
// passage in doc order: its doc, page and text span, its int8 codes and scale (what searches
// scan and the graph walks), its float32 vector (exact rescoring of the best candidates), and,
// from GRAPH_MIN_PASSAGES passages on, an HNSW graph over the passages (hnsw-graph.ts).

import { CorruptFileError, mapSegmentFile, writeSegmentFile } from '../../storage/index.ts';
import type { SegmentSection } from '../../storage/index.ts';
import { u32Bytes, u32View } from '../segment/segment-format.ts';
import { HNSW_SECTION, buildHnswGraph, decodeHnswGraph, encodeHnswGraph } from './hnsw-graph.ts';
import type { HnswGraph, QuantizedVectors } from './hnsw-graph.ts';
import type { Passage } from './passages.ts';
import { normalizeVector, quantizeInto } from './quantization.ts';

export const VECTOR_FILE_LAYOUT = 1;
/** Files with at least this many passages get an HNSW graph; smaller ones are always scanned. */
export const GRAPH_MIN_PASSAGES = 2_000;

const SECTION = {
  meta: 'vectors.meta',
  passageDocs: 'passages.docs',
  passagePages: 'passages.pages',
  passageSpans: 'passages.spans',
  codes: 'vectors.codes',
  scales: 'vectors.scales',
  floats: 'vectors.floats',
} as const;

interface VectorFileMeta {
  layoutVersion: number;
  embedder: string;
  /** What produced the vectors (`builtin:use-lite`, `openai:text-embedding-3-small`, `user`…). */
  model: string;
  dims: number;
  passages: number;
  /** Docs of the segment (every doc has at least one passage unless it was deleted when embedded). */
  docCount: number;
}

/** A passage with its vector as the model gave it (any length; normalised here). */
export interface EmbeddedPassage extends Passage {
  doc: number;
  vector: ArrayLike<number>;
}

export interface VectorFileInput {
  embedder: string;
  model: string;
  dims: number;
  docCount: number;
  /** In ascending doc order. */
  passages: readonly EmbeddedPassage[];
}

/** Writes the vector file atomically; returns its length in bytes. */
export function writeVectorFile(filePath: string, input: VectorFileInput): number {
  const { dims, passages } = input;
  const count = passages.length;
  const docs = new Uint32Array(count);
  const pages = new Int32Array(count);
  const spans = new Uint32Array(count * 2);
  const codes = new Int8Array(count * dims);
  const scales = new Float32Array(count);
  const floats = new Float32Array(count * dims);
  for (let row = 0; row < count; row++) {
    const passage = passages[row];
    if (passage.vector.length !== dims) throw new Error(`passage ${row} has ${passage.vector.length} dimensions, expected ${dims}`);
    if (row > 0 && passage.doc < docs[row - 1]) throw new Error('passages must be in ascending doc order');
    docs[row] = passage.doc;
    pages[row] = passage.page;
    spans[row * 2] = passage.start;
    spans[row * 2 + 1] = passage.end;
    const vector = normalizeVector(passage.vector);
    floats.set(vector, row * dims);
    quantizeInto(vector, codes, scales, row);
  }
  const meta: VectorFileMeta = { layoutVersion: VECTOR_FILE_LAYOUT, embedder: input.embedder, model: input.model, dims, passages: count, docCount: input.docCount };
  const sections: SegmentSection[] = [
    [SECTION.meta, new TextEncoder().encode(JSON.stringify(meta))],
    [SECTION.passageDocs, u32Bytes(docs)],
    [SECTION.passagePages, new Uint8Array(pages.buffer)],
    [SECTION.passageSpans, u32Bytes(spans)],
    [SECTION.codes, new Uint8Array(codes.buffer)],
    [SECTION.scales, new Uint8Array(scales.buffer)],
    [SECTION.floats, new Uint8Array(floats.buffer)],
  ];
  if (count >= GRAPH_MIN_PASSAGES) sections.push(...encodeHnswGraph(buildHnswGraph({ dims, count, codes, scales })));
  return writeSegmentFile(filePath, sections);
}

/** A vector file opened for search: typed-array views over the map, nothing copied. */
export class VectorReader {
  readonly path: string;
  readonly embedder: string;
  readonly model: string;
  readonly dims: number;
  readonly passageCount: number;
  readonly docCount: number;
  /** Per passage: its doc (ascending). */
  readonly passageDocs: Uint32Array;
  /** Per passage: its page index in the document, or -1. */
  readonly passagePages: Int32Array;
  /** Per passage: start and end (UTF-16 offsets in the document's text). */
  readonly passageSpans: Uint32Array;
  readonly codes: Int8Array;
  readonly scales: Float32Array;
  readonly floats: Float32Array;
  /** The passages' codes and scales as the graph and scans read them. */
  readonly quantized: QuantizedVectors;
  /** The HNSW graph over the passages, or null (a small file). */
  readonly graph: HnswGraph | null;

  private constructor(path: string, section: (name: string) => Uint8Array, has: (name: string) => boolean) {
    this.path = path;
    let meta: VectorFileMeta;
    try {
      meta = JSON.parse(new TextDecoder().decode(section(SECTION.meta))) as VectorFileMeta;
    } catch {
      throw new CorruptFileError(path, 'unreadable vector metadata');
    }
    if (meta.layoutVersion !== VECTOR_FILE_LAYOUT) throw new CorruptFileError(path, `unsupported vector layout ${String(meta.layoutVersion)}`);
    this.embedder = meta.embedder;
    this.model = meta.model;
    this.dims = meta.dims;
    this.passageCount = meta.passages;
    this.docCount = meta.docCount;
    const count = meta.passages;
    this.passageDocs = u32View(section(SECTION.passageDocs));
    this.passagePages = int32View(section(SECTION.passagePages));
    this.passageSpans = u32View(section(SECTION.passageSpans));
    this.codes = int8View(section(SECTION.codes));
    this.scales = float32View(section(SECTION.scales));
    this.floats = float32View(section(SECTION.floats));
    const sizesAgree =
      Number.isSafeInteger(count) &&
      Number.isSafeInteger(meta.dims) &&
      meta.dims > 0 &&
      this.passageDocs.length === count &&
      this.passagePages.length === count &&
      this.passageSpans.length === count * 2 &&
      this.codes.length === count * meta.dims &&
      this.scales.length === count &&
      this.floats.length === count * meta.dims;
    if (!sizesAgree) throw new CorruptFileError(path, 'vector section sizes do not match its metadata');
    this.quantized = { dims: meta.dims, count, codes: this.codes, scales: this.scales };
    try {
      this.graph = has(HNSW_SECTION.meta) ? decodeHnswGraph((name) => (has(name) ? section(name) : null), count) : null;
    } catch (error) {
      throw new CorruptFileError(path, (error as Error).message);
    }
    for (let row = 0; row < count; row++) {
      if (this.passageDocs[row] >= meta.docCount || (row > 0 && this.passageDocs[row] < this.passageDocs[row - 1])) {
        throw new CorruptFileError(path, `passage ${row} names doc ${this.passageDocs[row]} out of order or range`);
      }
    }
  }

  /** Maps the file (the checksum verified unless the caller already did). */
  static open(filePath: string, options: { verifyChecksum?: boolean } = {}): VectorReader {
    const file = mapSegmentFile(filePath, options);
    return new VectorReader(filePath, (name) => file.section(name), (name) => file.has(name));
  }

  /** Passage rows of `doc`: [first, end). */
  passagesOf(doc: number): [number, number] {
    const docs = this.passageDocs;
    let low = 0;
    let high = docs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (docs[mid] < doc) low = mid + 1;
      else high = mid;
    }
    let end = low;
    while (end < docs.length && docs[end] === doc) end++;
    return [low, end];
  }

  /** The float vector of passage `row` (a view). */
  vector(row: number): Float32Array {
    return this.floats.subarray(row * this.dims, (row + 1) * this.dims);
  }
}

function int32View(bytes: Uint8Array): Int32Array {
  if (bytes.byteOffset % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  return new Int32Array(bytes.slice().buffer);
}

function float32View(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  return new Float32Array(bytes.slice().buffer);
}

function int8View(bytes: Uint8Array): Int8Array {
  return new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** One source segment of a merge: its vector file (null when not embedded) and deleted docs. */
export interface VectorMergeSource {
  vectors: VectorReader | null;
  docCount: number;
  isDeleted: (doc: number) => boolean;
}

/**
 * The vectors of a merged segment from its sources' (the merge keeps live docs in source order),
 * without embedding anything again; false (nothing written) when a source has no vectors.
 */
export function mergeVectorFiles(filePath: string, embedder: string, sources: readonly VectorMergeSource[]): boolean {
  if (sources.length === 0 || sources.some((source) => source.vectors === null)) return false;
  const first = sources[0].vectors!;
  if (sources.some((source) => source.vectors!.dims !== first.dims || source.vectors!.model !== first.model)) return false;
  const passages: EmbeddedPassage[] = [];
  let base = 0;
  for (const source of sources) {
    const vectors = source.vectors!;
    const newDoc = new Int32Array(source.docCount).fill(-1);
    let live = 0;
    for (let doc = 0; doc < source.docCount; doc++) if (!source.isDeleted(doc)) newDoc[doc] = base + live++;
    for (let row = 0; row < vectors.passageCount; row++) {
      const doc = newDoc[vectors.passageDocs[row]];
      if (doc < 0) continue;
      passages.push({ doc, page: vectors.passagePages[row], start: vectors.passageSpans[row * 2], end: vectors.passageSpans[row * 2 + 1], vector: vectors.vector(row) });
    }
    base += live;
  }
  writeVectorFile(filePath, { embedder, model: first.model, dims: first.dims, docCount: base, passages });
  return true;
}
