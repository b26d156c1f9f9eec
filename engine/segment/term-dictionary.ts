// Reads a segment's term dictionary: exact lookup and prefix ranges by binary search over the
// sorted UTF-8 term bytes, and each term's document frequency and first skip entry.

import { TERM_INFO_WORDS, TermInfoField, u32View } from './segment-format.ts';
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

  term(index: number): string {
    return decoder.decode(this.bytes.subarray(this.offsets[index], this.offsets[index + 1]));
  }

  docFreq(index: number): number {
    return this.info[index * TERM_INFO_WORDS + TermInfoField.docFreq];
  }

  firstSkip(index: number): number {
    return this.info[index * TERM_INFO_WORDS + TermInfoField.firstSkip];
  }

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
