// The words behind a segment's stemmed terms (issue 14 point 6: prefixes on surface forms).
// Terms are stemmed ("running" is indexed as "run"), so a prefix over terms cannot find
// "running" from `runn*`. The segment therefore also keeps every folded word of its documents
// whose term differs from it ("running" → "run"), sorted, each with its term's place in the
// dictionary; a prefix looks up words and terms both. Words equal to their term are not kept:
// the term dictionary already has them.
//
// Sections (segment-format.ts, layout 5): surface.bytes / surface.offsets (the words, sorted
// by code point, as terms are) and surface.terms (u32 per word: its term's index).

import { foldTerm } from '../analysis/index.ts';
import { u32View } from './segment-format.ts';
import { compareBytes, compareCodePoints } from './term-order.ts';
import { encodeUtf8Strings } from './utf8-strings.ts';

const encoder = new TextEncoder();

/** The surface sections of a batch: `rawTokens` (raw token → term id), `termIndex` (term id → dictionary index). */
export function encodeSurfaceForms(
  rawTokens: ReadonlyMap<string, number>,
  terms: readonly string[],
  termIndex: Uint32Array,
): { bytes: Uint8Array; offsets: Uint32Array; terms: Uint32Array } {
  const words = new Map<string, number>();
  for (const [raw, id] of rawTokens) {
    const word = foldTerm(raw);
    if (word !== terms[id] && word.length > 0) words.set(word, termIndex[id]);
  }
  const sorted = [...words.keys()].sort(compareCodePoints);
  const { bytes, offsets } = encodeUtf8Strings(sorted.length, (index) => sorted[index]);
  return { bytes, offsets, terms: Uint32Array.from(sorted, (word) => words.get(word)!) };
}

/** Reads the surface sections: the term indexes of the words starting with a prefix. */
export class SurfaceForms {
  private readonly offsets: Uint32Array;
  private readonly termIndexes: Uint32Array;
  readonly size: number;

  constructor(
    private readonly bytes: Uint8Array,
    offsets: Uint8Array,
    termIndexes: Uint8Array,
  ) {
    this.offsets = u32View(offsets);
    this.termIndexes = u32View(termIndexes);
    this.size = this.offsets.length - 1;
  }

  /** Term indexes (distinct, in word order) of the words starting with `prefix`, at most `limit`. */
  termsOfWordsWithPrefix(prefix: string, limit: number): number[] {
    const key = encoder.encode(prefix);
    const { bytes, offsets } = this;
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareBytes(bytes, offsets[mid], offsets[mid + 1], key) < 0) low = mid + 1;
      else high = mid;
    }
    const found: number[] = [];
    for (let index = low; index < this.size && found.length < limit; index++) {
      const start = offsets[index];
      if (offsets[index + 1] - start < key.length || compareBytes(bytes, start, start + key.length, key) !== 0) break;
      const term = this.termIndexes[index];
      if (!found.includes(term)) found.push(term);
    }
    return found;
  }
}
