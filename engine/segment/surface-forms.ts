// The words behind a segment's stemmed terms (issue 14 point 6: prefixes on surface forms).
// Terms are stemmed ("running" is indexed as "run"), so a prefix over terms cannot find
// "running" from `runn*`. The segment therefore also keeps the folded words of its documents
// whose term a prefix query could otherwise miss ("running" → "run"), sorted, each with its
// term's place in the dictionary; a prefix looks up words and terms both. Words the term
// dictionary answers anyway are not kept: those equal to their term, and those every prefix
// of which is cut back to a prefix of their term ("dogs" → "dog"; see prefixCanMissTerm).
//
// Sections (segment-format.ts, layout 5): surface.bytes / surface.offsets (the words, sorted
// by code point, as terms are) and surface.terms (u32 per word: its term's index).

import { commonPrefix, foldTerm, prefixAgreeingWithStem } from '../analysis/index.ts';
import { u32View } from './segment-format.ts';
import { compareBytes, compareCodePoints } from './term-order.ts';
import { encodeUtf8Strings } from './utf8-strings.ts';

const encoder = new TextEncoder();

/**
 * Whether a prefix query could miss `term` for some prefix of `word` without the word kept.
 * A query cuts its prefix back to where it agrees with its own stem (prefixAgreeingWithStem), so
 * `dogs*` searches `dog…`: a prefix of the word whose cut-back is still a prefix of the term
 * finds the term by the dictionary alone. Only words with some other prefix are kept
 * (`runn*` → "runn", not a prefix of "run"): on GCIDE about 40 % of the words whose term
 * differs, which keeps the sections small.
 */
function prefixCanMissTerm(word: string, term: string, stem: (word: string) => string): boolean {
  for (let length = commonPrefix(word, term).length + 1; length <= word.length; length++) {
    const prefix = word.slice(0, length);
    if (!term.startsWith(prefixAgreeingWithStem(prefix, stem(prefix)))) return true;
  }
  return false;
}

/**
 * The surface sections of a batch: `rawTokens` (raw token → term id), `termIndex` (term id →
 * dictionary index), `stem` (a folded word's term, as queries analyze it).
 */
export function encodeSurfaceForms(
  rawTokens: ReadonlyMap<string, number>,
  terms: readonly string[],
  termIndex: Uint32Array,
  stem: (word: string) => string,
): { bytes: Uint8Array; offsets: Uint32Array; terms: Uint32Array } {
  const words = new Map<string, number>();
  const seen = new Set<string>();
  for (const [raw, id] of rawTokens) {
    const word = foldTerm(raw);
    const term = terms[id];
    if (word === term || word.length === 0 || seen.has(word)) continue;
    seen.add(word);
    if (prefixCanMissTerm(word, term, stem)) words.set(word, termIndex[id]);
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
