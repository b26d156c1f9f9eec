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

  private search(term: string): number {
    const key = encoder.encode(term);
    const index = this.lowerBound(key);
    if (index < this.size && compareBytes(this.bytes, this.offsets[index], this.offsets[index + 1], key) === 0) return index;
    return -1;
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
    const { bytes, offsets } = this;
    /** The code points of the term being read, and the state before each. */
    const codePoints: number[] = [];
    const states: number[] = [];
    let index = 0;
    let read = 0;
    while (index < this.size) {
      if (read++ >= maxTermsRead) return false;
      const end = offsets[index + 1];
      let state = automaton.start;
      let count = 0;
      for (let at = offsets[index]; at < end && state !== DEAD_STATE; count++) {
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
        states[count] = state;
        state = automaton.step(state, codePoint);
      }
      if (state !== DEAD_STATE) {
        if (automaton.accepts(state) && visit(index, state) === false) return true;
        index++;
        continue;
      }
      // The prefix codePoints[0..count) is dead: find the last position j where a larger code
      // point keeps the automaton alive; every term before prefix[0..j) + that code point is skipped.
      let next = -1;
      for (let j = count - 1; j >= 0 && next < 0; j--) {
        const codePoint = automaton.nextLiveCodePoint(states[j], codePointAfter(codePoints[j]));
        if (codePoint >= 0) next = this.lowerBound(encoder.encode(String.fromCodePoint(...codePoints.slice(0, j), codePoint)));
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
}

/** The code point after `codePoint` in code-point order, skipping the surrogates (never in a term). */
function codePointAfter(codePoint: number): number {
  return codePoint === 0xd7ff ? 0xe000 : codePoint + 1;
}
