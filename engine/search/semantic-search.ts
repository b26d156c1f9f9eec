// Search by meaning over a snapshot's segments: the nearest documents to a query vector, a
// document scoring as its best passage. Filters and deletes are applied before ranking (a
// document outside them is never a candidate, so no hit is lost to a post-filter). A segment
// with an HNSW graph is searched through it (rejected passages walked through, never returned);
// one without, or one whose filter admits few docs, is scanned exactly on its int8 codes —
// every admissible passage scored. Either way the best candidates are rescored on their float
// vectors, so the order of the hits found is exact.

import type { FilterNode } from '../filter/index.ts';
import { DocBitSet } from './doc-bitset.ts';
import { evaluateFilter } from './filter-evaluator.ts';
import { deletedDocs } from './segment-view.ts';
import type { SegmentView } from './segment-view.ts';
import { scoreQuantizedRows, searchHnswGraph } from '../vectors/hnsw-graph.ts';
import { floatDot } from '../vectors/quantization.ts';
import type { VectorReader } from '../vectors/vector-file.ts';

/** Candidates rescored exactly per segment: this many times the hits wanted (at least RESCORE_MIN). */
export const RESCORE_FACTOR = 4;
export const RESCORE_MIN = 50;
/**
 * A segment with a graph is searched through it unless the filter admits less than this share
 * of its docs: then the admissible passages are few enough to scan, and a graph walk would
 * visit mostly rejected nodes.
 */
export const GRAPH_MIN_ADMISSIBLE_SHARE = 0.1;
/** Layer-0 candidates of a graph search per passage wanted (before the share's adjustment), and the most. */
export const GRAPH_EF_FACTOR = 2;
export const GRAPH_MAX_EF = 2_048;

export interface SemanticHit {
  segment: number;
  doc: number;
  /** Cosine similarity of the query and the document's best passage (−1…1). */
  score: number;
  /** The best passage's row in the segment's vector file. */
  passage: number;
}

export interface SemanticResult {
  /** Best first; ties by segment then doc. */
  hits: SemanticHit[];
  /** Admissible live docs that have vectors: the documents a semantic search ranks. */
  candidates: number;
  /** Live docs (admissible or not) in segments with vectors, and in all segments: `semantic_coverage`. */
  embeddedDocs: number;
  liveDocs: number;
}

/** The segment's vectors for `embedder`, or null while the segment is not embedded. */
export function segmentVectors(view: SegmentView, embedder: string): VectorReader | null {
  return view.vectors?.get(embedder) ?? null;
}

/** The `k` documents nearest to `query` (normalised, of the embedder's dimensions). */
export function semanticSearch(
  views: readonly SegmentView[],
  embedder: string,
  query: Float32Array,
  k: number,
  filter: FilterNode | null,
  excludeIds: readonly string[] = [],
): SemanticResult {
  const heap = new HitHeap(k);
  let candidates = 0;
  let embeddedDocs = 0;
  let liveDocs = 0;
  views.forEach((view, segment) => {
    const deleted = deletedDocs(view);
    const live = view.reader.docCount - (deleted === null ? 0 : deleted.count());
    liveDocs += live;
    const vectors = segmentVectors(view, embedder);
    if (vectors === null) return;
    if (vectors.dims !== query.length) return;
    embeddedDocs += live;
    let admissible: DocBitSet | null = filter === null ? null : evaluateFilter(filter, view.reader);
    if (deleted !== null) {
      admissible ??= DocBitSet.full(view.reader.docCount);
      admissible.removeAll(deleted);
    }
    for (const id of excludeIds) {
      const doc = view.reader.findDoc(id);
      if (doc >= 0) (admissible ??= DocBitSet.full(view.reader.docCount)).remove(doc);
    }
    const admitted = admissible === null ? live : admissible.count();
    candidates += admitted;
    const window = Math.max(k * RESCORE_FACTOR, RESCORE_MIN);
    const share = view.reader.docCount === 0 ? 0 : admitted / view.reader.docCount;
    const found =
      vectors.graph !== null && share >= GRAPH_MIN_ADMISSIBLE_SHARE
        ? walkGraph(vectors, query, window, admissible, share)
        : scanSegment(vectors, query, window, admissible);
    for (const hit of found) {
      heap.offer(segment, hit.doc, hit.score, hit.passage);
    }
  });
  return { hits: heap.sorted(), candidates, embeddedDocs, liveDocs };
}

interface SegmentHit {
  doc: number;
  score: number;
  passage: number;
}

/**
 * One segment through its graph: the best passages of admissible docs (the graph walks through
 * the others without returning them), grouped by doc, the best `window` docs rescored.
 */
function walkGraph(vectors: VectorReader, query: Float32Array, window: number, admissible: DocBitSet | null, share: number): SegmentHit[] {
  const { passageDocs } = vectors;
  // Documents have several passages: ask for more passages than documents wanted.
  const wanted = Math.min(vectors.passageCount, window * 2);
  const ef = Math.min(GRAPH_MAX_EF, Math.ceil((wanted * GRAPH_EF_FACTOR) / Math.min(1, share)));
  const accept = admissible === null ? null : (node: number) => admissible.has(passageDocs[node]);
  const { nodes } = searchHnswGraph(vectors.graph!, vectors.quantized, query, wanted, ef, accept);
  const docs: number[] = [];
  const seen = new Set<number>();
  for (const node of nodes) {
    const doc = passageDocs[node];
    if (seen.has(doc)) continue;
    seen.add(doc);
    docs.push(doc);
    if (docs.length === window) break;
  }
  return rescore(vectors, query, docs);
}

/** Passages scored per call when a segment is scanned. */
const SCAN_BLOCK = 256;

/**
 * One segment: every admissible passage scored on its codes (in blocks, SIMD where the thread
 * holds a copy), the best `window` documents kept, then each of those rescored on the float
 * vectors of all its passages. A document's passages are consecutive rows.
 */
function scanSegment(vectors: VectorReader, query: Float32Array, window: number, admissible: DocBitSet | null): SegmentHit[] {
  const { passageDocs, passageCount } = vectors;
  const heap = new HitHeap(window);
  const rows = new Uint32Array(SCAN_BLOCK);
  const scores = new Float64Array(SCAN_BLOCK);
  let pending = 0;
  let doc = -1;
  let best = -Infinity;
  let bestRow = 0;
  const scorePending = (): void => {
    scoreQuantizedRows(vectors.quantized, query, rows, pending, scores);
    for (let i = 0; i < pending; i++) {
      const rowDoc = passageDocs[rows[i]];
      if (rowDoc !== doc) {
        if (doc >= 0) heap.offer(0, doc, best, bestRow);
        doc = rowDoc;
        best = -Infinity;
      }
      if (scores[i] > best) {
        best = scores[i];
        bestRow = rows[i];
      }
    }
    pending = 0;
  };
  let row = 0;
  while (row < passageCount) {
    const rowDoc = passageDocs[row];
    const admitted = admissible === null || admissible.has(rowDoc);
    for (; row < passageCount && passageDocs[row] === rowDoc; row++) {
      if (!admitted) continue;
      rows[pending++] = row;
      if (pending === SCAN_BLOCK) scorePending();
    }
  }
  scorePending();
  if (doc >= 0) heap.offer(0, doc, best, bestRow);
  return rescore(
    vectors,
    query,
    heap.sorted().map(({ doc }) => doc),
  );
}

/** Each doc's best passage by the float vectors of all its passages. */
function rescore(vectors: VectorReader, query: Float32Array, docs: readonly number[]): SegmentHit[] {
  return docs.map((doc) => {
    const [first, end] = vectors.passagesOf(doc);
    let best = -Infinity;
    let passage = first;
    for (let r = first; r < end; r++) {
      const score = floatDot(query, vectors.floats, r);
      if (score > best) {
        best = score;
        passage = r;
      }
    }
    return { doc, score: best, passage };
  });
}

/** A bounded min-heap of the best hits (score, then segment and doc ascending). */
class HitHeap {
  private readonly capacity: number;
  private readonly items: SemanticHit[] = [];

  constructor(capacity: number) {
    this.capacity = Math.max(0, capacity);
  }

  offer(segment: number, doc: number, score: number, passage: number): void {
    if (this.capacity === 0) return;
    const items = this.items;
    if (items.length === this.capacity) {
      if (!better(score, segment, doc, items[0])) return;
      items[0] = { segment, doc, score, passage };
      this.siftDown(0);
      return;
    }
    items.push({ segment, doc, score, passage });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(items[parent].score, items[parent].segment, items[parent].doc, items[i])) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }

  sorted(): SemanticHit[] {
    return [...this.items].sort((a, b) => b.score - a.score || a.segment - b.segment || a.doc - b.doc);
  }

  private siftDown(i: number): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < items.length && better(items[worst].score, items[worst].segment, items[worst].doc, items[left])) worst = left;
      if (right < items.length && better(items[worst].score, items[worst].segment, items[worst].doc, items[right])) worst = right;
      if (worst === i) return;
      [items[worst], items[i]] = [items[i], items[worst]];
      i = worst;
    }
  }
}

/** Whether (score, segment, doc) ranks above `other`. */
function better(score: number, segment: number, doc: number, other: SemanticHit): boolean {
  if (score !== other.score) return score > other.score;
  if (segment !== other.segment) return segment < other.segment;
  return doc < other.doc;
}
