// Counts facet values over the docs that match a search (all of them, not one page). Per
// segment it picks the cheaper strategy by the size of the match set: a small set is counted
// by scanning the matched docs' value ordinals (the column); a large one by counting, for each
// value, its docs that are in the match bitmap (the value's postings against the bitmap).
// Counts merge across segments by value; numeric fields also report their min and max.

import type { FieldIndex, FieldValue } from '../segment/field-index.ts';
import type { DocBitSet } from './doc-bitset.ts';

/** Default and largest number of values returned per facet field. */
export const DEFAULT_FACET_LIMIT = 100;
export const MAX_FACET_LIMIT = 1000;
/** Column scan when matched postings are fewer than this share of the field's postings. */
const COLUMN_SCAN_SHARE = 0.25;

export interface FacetValueCount {
  value: FieldValue;
  count: number;
}

/** Counts of one facet field, merged across segments. */
export class FacetAccumulator {
  readonly counts = new Map<string, FacetValueCount>();
  min = Infinity;
  max = -Infinity;

  constructor(readonly field: string) {}

  /** Adds the counts of one segment's matches. */
  addSegment(index: FieldIndex, matches: DocBitSet, matchCount: number): void {
    const perOrd = new Uint32Array(index.distinct);
    const postings = index.docsByValue.length;
    const docCount = index.docStarts.length - 1;
    const expectedMatchedPostings = docCount === 0 ? 0 : (matchCount * postings) / docCount;
    if (expectedMatchedPostings < postings * COLUMN_SCAN_SHARE) countByColumn(index, matches, perOrd);
    else countByPostings(index, matches, perOrd);
    for (let ord = 0; ord < perOrd.length; ord++) {
      const count = perOrd[ord];
      if (count === 0) continue;
      const value = index.value(ord);
      const key = String(value);
      const entry = this.counts.get(key);
      if (entry === undefined) this.counts.set(key, { value, count });
      else entry.count += count;
      if (typeof value === 'number') {
        if (value < this.min) this.min = value;
        if (value > this.max) this.max = value;
      }
    }
  }

  /** The `limit` most frequent values, by count then value. */
  top(limit: number): Record<string, number> {
    const ranked = [...this.counts.entries()].sort(([, a], [, b]) => b.count - a.count || compareFacetValues(a.value, b.value));
    const result: Record<string, number> = {};
    for (const [key, { count }] of ranked.slice(0, limit)) result[key] = count;
    return result;
  }

  /** min/max of the numeric values among the matches, or null when there are none. */
  stats(): { min: number; max: number } | null {
    return this.min <= this.max ? { min: this.min, max: this.max } : null;
  }
}

/** Numbers before strings before booleans; within a kind, natural order. */
export function compareFacetValues(a: FieldValue, b: FieldValue): number {
  const rank = (v: FieldValue): number => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Walks the matched docs and counts their ordinals. */
function countByColumn(index: FieldIndex, matches: DocBitSet, perOrd: Uint32Array): void {
  const { docStarts, docOrds } = index;
  const words = matches.words;
  for (let w = 0; w < words.length; w++) {
    let word = words[w];
    while (word !== 0) {
      const doc = (w << 5) | (31 - Math.clz32(word & -word));
      word &= word - 1;
      for (let k = docStarts[doc], end = docStarts[doc + 1]; k < end; k++) perOrd[docOrds[k]]++;
    }
  }
}

/** For every value, counts its docs present in the match bitmap. */
function countByPostings(index: FieldIndex, matches: DocBitSet, perOrd: Uint32Array): void {
  const { valueStarts, docsByValue } = index;
  const words = matches.words;
  for (let ord = 0; ord < perOrd.length; ord++) {
    let count = 0;
    for (let k = valueStarts[ord], end = valueStarts[ord + 1]; k < end; k++) {
      const doc = docsByValue[k];
      count += (words[doc >>> 5] >>> (doc & 31)) & 1;
    }
    perOrd[ord] = count;
  }
}
