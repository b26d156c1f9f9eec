// Reads a segment's term dictionary: exact lookup and prefix ranges by binary search over the
// sorted UTF-8 term bytes, the terms an automaton accepts (walked in order, seeking past dead
// prefixes), and each term's document frequency and first skip entry.

import { TERM_INFO_WORDS, TermInfoField, u32View } from './segment-format.ts';
import { DEAD_STATE } from './term-automaton.ts';
import type { TermAutomaton } from './term-automaton.ts';
import { compareBytes } from './term-order.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Term lookups remembered per dictionary (cleared when full). */
const FIND_CACHE_ENTRIES = 4096;

export class TermDictionary {
  private readonly offsets: Uint32Array;
  private readonly info: Uint32Array;
  readonly size: number;
  private readonly found = new Map<string, number>();
  /** Scratch for seek keys (a term's prefix plus one code point), made by the first walk. */
  private seekScratch: Uint8Array | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    offsets: Uint8Array,
    info: Uint8Array,
  ) {
    this.offsets = u32View(offsets);
    this.info = u32View(info);
    this.size = this.offsets.length - 1;
  }

  /**
   * Index of `term`, or -1. A search looks the same terms up several times (statistics,
   * scorers, hits), so answers are remembered; the dictionary never changes, so they stay true.
   */
  find(term: string): number {
    let index = this.found.get(term);
    if (index === undefined) {
      if (this.found.size >= FIND_CACHE_ENTRIES) this.found.clear();
      index = this.search(term);
      this.found.set(term, index);
    }
    return index;
  }

  /** Tells `find` where `term` is (-1: absent), as a walk over this dictionary found it. */
  remember(term: string, index: number): void {
    if (this.found.size >= FIND_CACHE_ENTRIES) this.found.clear();
    this.found.set(term, index);
  }

  private search(term: string): number {
    const key = encoder.encode(term);
    const index = this.lowerBound(key);
    if (index < this.size && compareBytes(this.bytes, this.offsets[index], this.offsets[index + 1], key) === 0) return index;
    return -1;
  }

  /** Index of the first term ≥ `text` in code-point order (`size` when none is). */
  lowerBoundOf(text: string): number {
    return this.lowerBound(encoder.encode(text));
  }

  /**
   * Calls `visit(index)` for each term in [from, to) that contains `needle` (UTF-8 bytes; a
   * byte match is a character match, UTF-8 being self-synchronising). Compares bytes in place.
   */
  forEachContaining(from: number, to: number, needle: Uint8Array, visit: (index: number) => void): void {
    const { bytes, offsets } = this;
    const first = needle[0];
    const length = needle.length;
    for (let index = from; index < to; index++) {
      const end = offsets[index + 1] - length;
      search: for (let at = offsets[index]; at <= end; at++) {
        if (bytes[at] !== first) continue;
        for (let k = 1; k < length; k++) if (bytes[at + k] !== needle[k]) continue search;
        visit(index);
        break;
      }
    }
  }

  /** Indexes of the terms starting with `prefix`, in order, at most `limit` of them. */
  withPrefix(prefix: string, limit: number): number[] {
    const key = encoder.encode(prefix);
    const found: number[] = [];
    for (let index = this.lowerBound(key); index < this.size && found.length < limit; index++) {
      const start = this.offsets[index];
      if (this.offsets[index + 1] - start < key.length) break;
      if (compareBytes(this.bytes, start, start + key.length, key) !== 0) break;
      found.push(index);
    }
    return found;
  }

  /**
   * Calls `visit(index, state)` for each term `automaton` accepts, in term order, with the
   * state the term ends in, until `visit` returns false. A term is read code point by code
   * point; where its prefix goes dead, the walk seeks by binary search to the smallest string
   * past every term with that prefix that the automaton can still follow (Lucene's
   * AutomatonTermsEnum), so the ranges of terms no match can lie in are never read. At most
   * `maxTermsRead` terms are read: returns false when that bound cut the walk short.
   */
  intersect(automaton: TermAutomaton, visit: (index: number, state: number) => boolean | void, maxTermsRead: number): boolean {
    const { bytes, offsets, size } = this;
    // The term read last: where each of its code points starts (relative to the term), the
    // code points, and the state after each (`stateAfter[0]` is the start). Sorted neighbours
    // share long prefixes, so the next term resumes from the state at their common prefix.
    const starts: number[] = [0];
    const codePoints: number[] = [];
    const stateAfter: number[] = [automaton.start];
    let known = 0;
    let previous = -1;
    let index = 0;
    let read = 0;
    while (index < size) {
      if (read++ >= maxTermsRead) return false;
      const begin = offsets[index];
      const end = offsets[index + 1];
      // Code points shared with the previous term, whose states are known.
      let count = 0;
      if (previous >= 0) {
        const previousBegin = offsets[previous];
        const limit = Math.min(end - begin, offsets[previous + 1] - previousBegin);
        let common = 0;
        while (common < limit && bytes[begin + common] === bytes[previousBegin + common]) common++;
        count = known;
        while (count > 0 && starts[count] > common) count--;
      }
      let state = stateAfter[count];
      let at = begin + starts[count];
      while (at < end && state !== DEAD_STATE) {
        const lead = bytes[at];
        let codePoint: number;
        if (lead < 0x80) {
          codePoint = lead;
          at += 1;
        } else if (lead < 0xe0) {
          codePoint = ((lead & 0x1f) << 6) | (bytes[at + 1] & 0x3f);
          at += 2;
        } else if (lead < 0xf0) {
          codePoint = ((lead & 0x0f) << 12) | ((bytes[at + 1] & 0x3f) << 6) | (bytes[at + 2] & 0x3f);
          at += 3;
        } else {
          codePoint = ((lead & 0x07) << 18) | ((bytes[at + 1] & 0x3f) << 12) | ((bytes[at + 2] & 0x3f) << 6) | (bytes[at + 3] & 0x3f);
          at += 4;
        }
        codePoints[count] = codePoint;
        state = automaton.step(state, codePoint);
        count++;
        starts[count] = at - begin;
        stateAfter[count] = state;
      }
      known = count;
      previous = index;
      if (state !== DEAD_STATE) {
        if (automaton.accepts(state) && visit(index, state) === false) return true;
        index++;
        continue;
      }
      // The prefix of `count` code points is dead: find the last position j where a larger code
      // point keeps the automaton alive; every term before prefix[0..j) + that code point is
      // skipped by a binary search over the terms after this one.
      let next = -1;
      for (let j = count - 1; j >= 0 && next < 0; j--) {
        const codePoint = automaton.nextLiveCodePoint(stateAfter[j], codePointAfter(codePoints[j]));
        if (codePoint >= 0) next = this.lowerBoundAfterPrefix(index + 1, begin, starts[j], codePoint);
      }
      if (next < 0) return true;
      index = next;
    }
    return true;
  }

  term(index: number): string {
    return decoder.decode(this.bytes.subarray(this.offsets[index], this.offsets[index + 1]));
  }

  docFreq(index: number): number {
    return this.info[index * TERM_INFO_WORDS + TermInfoField.docFreq];
  }

  /** The term's first impact group (layout 6; see segment-format.ts postings.groupImpacts). */
  firstImpactGroup(index: number): number {
    return this.info[index * TERM_INFO_WORDS + TermInfoField.firstImpactGroup];
  }

  firstSkip(index: number): number {
    return this.info[index * TERM_INFO_WORDS + TermInfoField.firstSkip];
  }

  /** Index of the first term ≥ `key` (bytes), or `size`. */
  private lowerBound(key: Uint8Array): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareBytes(this.bytes, this.offsets[mid], this.offsets[mid + 1], key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * Index of the first term from `low` on that is ≥ the key `bytes[prefixStart, prefixStart +
   * prefixLength)` + UTF-8 of `codePoint`, compared in place (a seek allocates nothing).
   */
  private lowerBoundAfterPrefix(low: number, prefixStart: number, prefixLength: number, codePoint: number): number {
    const key = this.seekScratch ?? (this.seekScratch = this.makeSeekScratch());
    for (let i = 0; i < prefixLength; i++) key[i] = this.bytes[prefixStart + i];
    const keyLength = prefixLength + encodeCodePoint(codePoint, key, prefixLength);
    // Seeks mostly land near: gallop from `low` to bracket the answer, then bisect.
    let step = 1;
    let high = low;
    while (high < this.size && this.compareWithKey(high, key, keyLength) < 0) {
      low = high + 1;
      high += step;
      step *= 2;
    }
    if (high > this.size) high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compareWithKey(mid, key, keyLength) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Term `index` compared with `key[0, keyLength)` as unsigned bytes. */
  private compareWithKey(index: number, key: Uint8Array, keyLength: number): number {
    const { bytes, offsets } = this;
    const start = offsets[index];
    const termLength = offsets[index + 1] - start;
    const length = Math.min(termLength, keyLength);
    for (let i = 0; i < length; i++) {
      const diff = bytes[start + i] - key[i];
      if (diff !== 0) return diff;
    }
    return termLength - keyLength;
  }

  private makeSeekScratch(): Uint8Array {
    let longest = 0;
    for (let i = 0; i < this.size; i++) longest = Math.max(longest, this.offsets[i + 1] - this.offsets[i]);
    return new Uint8Array(longest + 4);
  }
}

/** Writes the UTF-8 bytes of `codePoint` at `at`; returns how many. */
function encodeCodePoint(codePoint: number, into: Uint8Array, at: number): number {
  if (codePoint < 0x80) {
    into[at] = codePoint;
    return 1;
  }
  if (codePoint < 0x800) {
    into[at] = 0xc0 | (codePoint >> 6);
    into[at + 1] = 0x80 | (codePoint & 0x3f);
    return 2;
  }
  if (codePoint < 0x10000) {
    into[at] = 0xe0 | (codePoint >> 12);
    into[at + 1] = 0x80 | ((codePoint >> 6) & 0x3f);
    into[at + 2] = 0x80 | (codePoint & 0x3f);
    return 3;
  }
  into[at] = 0xf0 | (codePoint >> 18);
  into[at + 1] = 0x80 | ((codePoint >> 12) & 0x3f);
  into[at + 2] = 0x80 | ((codePoint >> 6) & 0x3f);
  into[at + 3] = 0x80 | (codePoint & 0x3f);
  return 4;
}

/** The code point after `codePoint` in code-point order, skipping the surrogates (never in a term). */
function codePointAfter(codePoint: number): number {
  return codePoint === 0xd7ff ? 0xe000 : codePoint + 1;
}
