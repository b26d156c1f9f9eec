// Dense integer ids for the distinct terms of one indexing batch (a segment build): the
// inverter keys its postings by these ids instead of by strings. Each interner has its own
// epoch, so the analyzer's term cache can remember a cached token's id for the current
// interner and answer later occurrences of that token without hashing the term again. The
// cache numbers its terms (term-cache.ts), so a batch's first sight of a term looks its number
// up in an open-addressing table of integers here, not the string in a Map.

import { newArray, releaseArray } from '../../storage/index.ts';

let nextEpoch = 1;

export class TermInterner {
  /** Distinguishes this interner's ids from those of every other interner in the thread. */
  readonly epoch: number = nextEpoch++;
  /** Terms by id. */
  readonly terms: string[] = [];
  /** Open addressing by term number: number + 1 (0: free) and the id, side by side. */
  private table = new Int32Array(2 * 4096);
  private mask = 4096 - 1;
  /** The term cache's renumbering the numbers belong to (see internNumbered). */
  private numbering = -1;
  /** Terms → ids, once numbers no longer serve (internByString). */
  private byString: Map<string, number> | null = null;
  /**
   * With `collectRawTokens`: each raw token (as written) that gave a term in this batch, with
   * the term's id — where the segment writer finds the words behind stemmed terms.
   */
  readonly rawTokens: Map<string, number> | null;

  constructor(options: { collectRawTokens?: boolean } = {}) {
    this.rawTokens = options.collectRawTokens === true ? new Map() : null;
  }

  get size(): number {
    return this.terms.length;
  }

  /**
   * The id of `term`, whose number in its term cache is `number` (in the cache's renumbering
   * `numbering`), assigning the next id on first sight.
   */
  internNumbered(number: number, term: string, numbering: number): number {
    if (numbering !== this.numbering) {
      if (this.terms.length === 0) this.numbering = numbering;
      else return this.internByString(term);
    }
    const table = this.table;
    const key = number + 1;
    let slot = Math.imul(key, 0x9e3779b1) & this.mask;
    for (;;) {
      const stored = table[2 * slot];
      if (stored === key) return table[2 * slot + 1];
      if (stored === 0) break;
      slot = (slot + 1) & this.mask;
    }
    const id = this.terms.length;
    table[2 * slot] = key;
    table[2 * slot + 1] = id;
    this.terms.push(term);
    if (2 * this.terms.length > this.mask) this.grow();
    return id;
  }

  /**
   * The id of `term` by its string: the cache renumbered its terms while this interner was in
   * use (another interner started meanwhile), so numbers no longer tell its terms apart.
   */
  private internByString(term: string): number {
    if (this.byString === null) this.byString = new Map(this.terms.map((known, id) => [known, id]));
    let id = this.byString.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.byString.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  /** Doubles the table (kept at most half full). */
  private grow(): void {
    const old = this.table;
    this.table = newArray(Int32Array, old.length * 2);
    this.mask = old.length - 1;
    for (let i = 0; i < old.length; i += 2) {
      const key = old[i];
      if (key === 0) continue;
      let slot = Math.imul(key, 0x9e3779b1) & this.mask;
      while (this.table[2 * slot] !== 0) slot = (slot + 1) & this.mask;
      this.table[2 * slot] = key;
      this.table[2 * slot + 1] = old[i + 1];
    }
    releaseArray(old);
  }

  /** Records that raw token `raw` gave the term `id` (when collecting raw tokens). */
  noteRawToken(raw: string, id: number): void {
    this.rawTokens?.set(raw, id);
  }
}
