// Dense integer ids for the distinct terms of one indexing batch (a segment build): the
// inverter keys its postings by these ids instead of by strings. Each interner has its own
// epoch, so the analyzer's term cache can remember a cached token's id for the current
// interner and answer later occurrences of that token without hashing the term again.

let nextEpoch = 1;

export class TermInterner {
  /** Distinguishes this interner's ids from those of every other interner in the thread. */
  readonly epoch: number = nextEpoch++;
  /** Terms by id. */
  readonly terms: string[] = [];
  private readonly ids = new Map<string, number>();
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

  /** The id of `term`, assigning the next one on first sight. */
  intern(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  /** Records that raw token `raw` gave the term `id` (when collecting raw tokens). */
  noteRawToken(raw: string, id: number): void {
    this.rawTokens?.set(raw, id);
  }

  /** The id of a term already interned, or -1. */
  idOf(term: string): number {
    return this.ids.get(term) ?? -1;
  }
}
