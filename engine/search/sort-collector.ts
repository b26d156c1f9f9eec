// Sorting by fields (docs/api.md, "Search" `sort`): keeps the best k docs of a segment by up to three keys —
// a metadata field, the title, the id or the score — with ties broken by score, then id, and
// missing values last in either direction. Within a segment every key is an integer rank
// (value ordinal, id rank, title rank), so comparisons are cheap; the per-segment winners are
// then merged across segments by their actual values.

import type { SortKey } from '../sort/index.ts';
import type { FieldValue } from '../segment/field-index.ts';
import { compareCodePoints } from '../segment/term-order.ts';
import { compareFacetValues } from './facet-counter.ts';
import type { SegmentView } from './segment-view.ts';
import type { DocBitSet } from './doc-bitset.ts';
import type { HitSink } from './hit-sink.ts';

/** A kept doc with the values its keys sort by (null = missing). */
export interface SortedHit {
  segment: number;
  doc: number;
  score: number;
  values: (FieldValue | null)[];
}

/** The keys asked for, then score and id as tie-breakers when not already there. */
export function completeSortKeys(keys: readonly SortKey[]): SortKey[] {
  const complete = [...keys];
  if (!complete.some((key) => key.kind === 'score')) complete.push({ kind: 'score', direction: 'desc' });
  if (!complete.some((key) => key.kind === 'id')) complete.push({ kind: 'id', direction: 'asc' });
  return complete;
}

/** True when the keys are plain relevance: nothing, or score descending, optionally then id ascending. */
export function isRelevanceSort(keys: readonly SortKey[]): boolean {
  if (keys.length === 0) return true;
  if (keys[0].kind !== 'score' || keys[0].direction !== 'desc') return false;
  return keys.length === 1 || (keys.length === 2 && keys[1].kind === 'id' && keys[1].direction === 'asc');
}

const MISSING = -1;
const titleRanks = new WeakMap<object, Int32Array>();

/** Per doc: its position in title order, MISSING for untitled docs. */
function titleRank(view: SegmentView): Int32Array {
  let ranks = titleRanks.get(view.reader);
  if (ranks === undefined) {
    const { reader } = view;
    const titled: { doc: number; title: string }[] = [];
    for (let doc = 0; doc < reader.docCount; doc++) {
      const title = reader.title(doc);
      if (title !== null) titled.push({ doc, title });
    }
    titled.sort((a, b) => compareCodePoints(a.title, b.title));
    ranks = new Int32Array(reader.docCount).fill(MISSING);
    // Equal titles share a rank, so ties fall through to the next sort key.
    let rank = -1;
    titled.forEach(({ doc, title }, i) => {
      if (i === 0 || title !== titled[i - 1].title) rank++;
      ranks![doc] = rank;
    });
    titleRanks.set(view.reader, ranks);
  }
  return ranks;
}

/** Collects one segment's best k docs by the sort keys; scores every match (no skipping). */
export class SegmentSortCollector implements HitSink {
  readonly threshold = -Infinity;
  readonly rankedById = false;
  get capacity(): number {
    return this.k;
  }
  private readonly ranks: ((doc: number) => number)[];
  /** The rank row of the doc being offered; copied only when it is kept. */
  private readonly scratch: Float64Array;
  private readonly hits: { doc: number; score: number; ranks: Float64Array }[] = [];

  constructor(
    private readonly view: SegmentView,
    private readonly segment: number,
    private readonly keys: readonly SortKey[],
    private readonly k: number,
  ) {
    this.ranks = keys.map((key) => this.rankOf(key));
    this.scratch = new Float64Array(keys.length);
  }

  collect(doc: number, score: number): void {
    if (this.k === 0) return;
    const ranks = this.scratch;
    for (let i = 0; i < ranks.length; i++) ranks[i] = this.keys[i].kind === 'score' ? score : this.ranks[i](doc);
    const heap = this.hits;
    if (heap.length < this.k) {
      heap.push({ doc, score, ranks: ranks.slice() });
      this.siftUp(heap.length - 1);
    } else if (this.compare(ranks, heap[0].ranks) < 0) {
      heap[0] = { doc, score, ranks: ranks.slice() };
      this.siftDown(0);
    }
  }

  /**
   * Offers every admissible doc with score 0 (a query without text). When the first key is a
   * metadata field, docs are offered in that field's value order — each at its deciding value
   * (smallest ascending, largest descending) — stopping once k are kept and the current value's
   * ties are all offered: the rest cannot win. Otherwise every doc is offered.
   */
  offerAll(admissible: DocBitSet): void {
    const first = this.keys[0];
    const field = first.kind === 'field' ? this.view.reader.field(first.field) : null;
    if (field === null) {
      admissible.forEach((doc) => this.collect(doc, 0));
      return;
    }
    const { valueStarts, docsByValue, docStarts, docOrds } = field;
    const ascending = first.direction === 'asc';
    for (let step = 0; step < field.distinct; step++) {
      if (this.hits.length >= this.k) return;
      const ord = ascending ? step : field.distinct - 1 - step;
      for (let i = valueStarts[ord]; i < valueStarts[ord + 1]; i++) {
        const doc = docsByValue[i];
        const deciding = ascending ? docOrds[docStarts[doc]] : docOrds[docStarts[doc + 1] - 1];
        if (deciding === ord && admissible.has(doc)) this.collect(doc, 0);
      }
    }
    if (this.hits.length >= this.k) return;
    // Then the docs without the field, which sort last.
    admissible.forEach((doc) => {
      if (docStarts[doc] === docStarts[doc + 1]) this.collect(doc, 0);
    });
  }

  /** The kept docs with their sort values. */
  results(): SortedHit[] {
    const { reader } = this.view;
    return this.hits.map(({ doc, score }) => ({
      segment: this.segment,
      doc,
      score,
      values: this.keys.map((key): FieldValue | null => {
        switch (key.kind) {
          case 'score':
            return score;
          case 'id':
            return reader.docId(doc);
          case 'title':
            return reader.title(doc);
          case 'field': {
            const field = reader.field(key.field);
            if (field === null || field.docStarts[doc] === field.docStarts[doc + 1]) return null;
            const ord = key.direction === 'asc' ? field.docOrds[field.docStarts[doc]] : field.docOrds[field.docStarts[doc + 1] - 1];
            return field.value(ord);
          }
        }
      }),
    }));
  }

  /** Negative when rank row `a` sorts before `b`. Missing (-1) sorts last either way. */
  private compare(a: Float64Array, b: Float64Array): number {
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x === y) continue;
      const kind = this.keys[i].kind;
      if (kind !== 'score') {
        if (x === MISSING) return 1;
        if (y === MISSING) return -1;
      }
      return this.keys[i].direction === 'asc' ? x - y : y - x;
    }
    return 0;
  }

  /** The heap keeps the worst kept hit at its root. */
  private worse(i: number, j: number): boolean {
    return this.compare(this.hits[i].ranks, this.hits[j].ranks) > 0;
  }

  private siftUp(index: number): void {
    const heap = this.hits;
    while (index > 0) {
      const parent = (index - 1) >>> 1;
      if (!this.worse(index, parent)) break;
      [heap[index], heap[parent]] = [heap[parent], heap[index]];
      index = parent;
    }
  }

  private siftDown(index: number): void {
    const heap = this.hits;
    for (;;) {
      const left = index * 2 + 1;
      let worst = index;
      if (left < heap.length && this.worse(left, worst)) worst = left;
      if (left + 1 < heap.length && this.worse(left + 1, worst)) worst = left + 1;
      if (worst === index) return;
      [heap[index], heap[worst]] = [heap[worst], heap[index]];
      index = worst;
    }
  }

  private rankOf(key: SortKey): (doc: number) => number {
    switch (key.kind) {
      case 'score':
        return () => 0;
      case 'id': {
        const ranks = this.view.reader.idRanks();
        return (doc) => ranks[doc];
      }
      case 'title': {
        const ranks = titleRank(this.view);
        return (doc) => ranks[doc];
      }
      case 'field': {
        const field = this.view.reader.field(key.field);
        if (field === null) return () => MISSING;
        const { docStarts, docOrds } = field;
        // Ascending sorts a doc by its smallest value, descending by its largest.
        return key.direction === 'asc'
          ? (doc) => (docStarts[doc] === docStarts[doc + 1] ? MISSING : docOrds[docStarts[doc]])
          : (doc) => (docStarts[doc] === docStarts[doc + 1] ? MISSING : docOrds[docStarts[doc + 1] - 1]);
      }
    }
  }
}

/** Orders hits of any segments by their values (the same order each segment used). */
export function compareSortedHits(keys: readonly SortKey[], a: SortedHit, b: SortedHit): number {
  for (let i = 0; i < keys.length; i++) {
    const x = a.values[i];
    const y = b.values[i];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const order = keys[i].kind === 'score' ? (x as number) - (y as number) : compareFacetValues(x, y);
    if (order !== 0) return keys[i].direction === 'asc' ? order : -order;
  }
  return 0;
}
