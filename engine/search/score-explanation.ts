// How a hit's score was computed, as a tree of values with their reasons (`explain`): built by
// the scorers and BM25 at the bottom of the search, so it depends on nothing.

/** How a hit's score was computed (for debugging relevance). */
export interface ScoreExplanation {
  value: number;
  description: string;
  details: ScoreExplanation[];
}
