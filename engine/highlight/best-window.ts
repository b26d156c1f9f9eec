// Finds where a snippet should be: the stretch of text, from the start of its first matched
// token to the end of its last and at most `width` characters long, holding the most
// DISTINCT matched terms — ties broken by the most matches, then the earliest start. Matches
// are fed in text order and a sliding window keeps only those within `width` of the newest,
// so one pass over a long text is enough and memory stays bounded by the window. The window
// also tells the position (token number) of its first match, so that a caller who marks
// tokens by position can number the tokens of a short excerpt around it.

/** The chosen stretch: [start, end) in the text, with what it holds. */
export interface MatchWindow {
  start: number;
  end: number;
  /** Distinct matched terms inside. */
  distinct: number;
  /** Matched tokens inside. */
  matches: number;
  /** Position of the first match inside, as given to `add`. */
  position: number;
}

/** Evicted entries are dropped from the front of the arrays once there are this many. */
const COMPACT_AFTER = 1024;

export class BestWindowFinder {
  readonly width: number;
  private starts: number[] = [];
  private positions: number[] = [];
  private terms: string[] = [];
  /** Index of the oldest match still in the window. */
  private head = 0;
  private readonly counts = new Map<string, number>();
  private best: MatchWindow | null = null;

  constructor(width: number) {
    this.width = width;
  }

  /** Adds the next matched token (tokens must come in text order), with its position. */
  add(term: string, start: number, end: number, position: number): void {
    if (end - start > this.width) return; // cannot fit in any window
    this.starts.push(start);
    this.positions.push(position);
    this.terms.push(term);
    this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
    while (end - this.starts[this.head] > this.width) this.evictOldest();

    const matches = this.starts.length - this.head;
    const distinct = this.counts.size;
    const best = this.best;
    if (best === null || distinct > best.distinct || (distinct === best.distinct && matches > best.matches)) {
      this.best = { start: this.starts[this.head], end, distinct, matches, position: this.positions[this.head] };
    }
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.starts.length) this.compact();
  }

  /** The best window so far, or null when nothing matched. */
  result(): MatchWindow | null {
    return this.best;
  }

  private evictOldest(): void {
    const term = this.terms[this.head];
    const count = this.counts.get(term) as number;
    if (count === 1) this.counts.delete(term);
    else this.counts.set(term, count - 1);
    this.head++;
  }

  private compact(): void {
    this.starts = this.starts.slice(this.head);
    this.positions = this.positions.slice(this.head);
    this.terms = this.terms.slice(this.head);
    this.head = 0;
  }
}
