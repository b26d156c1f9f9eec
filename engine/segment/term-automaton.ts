// What the term dictionary needs of an automaton to walk its sorted terms with it and seek past
// the ranges no term can match (term-dictionary.ts `intersect`, Lucene's AutomatonTermsEnum):
// a deterministic automaton over code points whose every non-dead state can still reach an
// accepting one. Levenshtein automata (engine/typo/) implement it.

/** The state number of "no string with this prefix can be accepted". */
export const DEAD_STATE = -1;

export interface TermAutomaton {
  /** The state before any code point. */
  readonly start: number;
  /** The state after `codePoint` from `state` (never called with DEAD_STATE), or DEAD_STATE. */
  step(state: number, codePoint: number): number;
  /** Whether a term ending in `state` is accepted. */
  accepts(state: number): boolean;
  /**
   * The smallest code point ≥ `from` whose step from `state` is not dead, or -1 when there is
   * none. Lets the walk jump over every term starting with a dead prefix in one seek.
   */
  nextLiveCodePoint(state: number, from: number): number;
}
