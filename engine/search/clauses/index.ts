// The clauses stage of a search, and its door: a parsed query's clauses, each by its kind,
// become the forms they match, each weighted with BM25F from the collection's statistics
// (collection-statistics.ts) — a word with its typo variants, containing words and synonyms
// (term-clause.ts, expansion-forms.ts), a phrase with its joined form and synonyms
// (phrase-clause.ts), a prefix with its terms (prefix-clause.ts) — and then, per segment,
// scorers over those forms (clause-scoring.ts). A new kind of clause is a file here and a line
// in CLAUSE_KINDS. Every kind's forms are then looked for in the searched metadata fields too
// (field-forms.ts).

import type { QueryClause } from '../../query/index.ts';
import { bm25Idf } from '../bm25.ts';
import type { CollectionStatistics } from '../bm25.ts';
import { withFieldForms } from './field-forms.ts';
export { metadataFieldTerms } from './field-forms.ts';
import type { PrepareContext, PrepareOptions, PreparedClause } from './clause-forms.ts';
import { preparePhraseClause } from './phrase-clause.ts';
import { preparePrefixClause } from './prefix-clause.ts';
import { prepareTermClause } from './term-clause.ts';
import type { SegmentView } from '../segment-view.ts';

export { clauseScorer, rankingScorers } from './clause-scoring.ts';
export type { ClauseForm, PrepareOptions, PreparedClause } from './clause-forms.ts';
export { MAX_PREFIX_EXPANSIONS } from './expansion-forms.ts';
export { SYNONYM_SCORE_FACTOR } from './synonym-forms.ts';

/** How each kind of clause is prepared. */
const CLAUSE_KINDS: { [K in QueryClause['kind']]: (clause: Extract<QueryClause, { kind: K }>, context: PrepareContext) => PreparedClause } = {
  term: prepareTermClause,
  phrase: preparePhraseClause,
  prefix: preparePrefixClause,
};

export function prepareClauses(
  clauses: readonly QueryClause[],
  views: readonly SegmentView[],
  stats: CollectionStatistics,
  options: PrepareOptions = {},
): PreparedClause[] {
  const { docFreqs, lookups } = options;
  const docFreq = (term: string): number => {
    const known = docFreqs?.[term];
    if (known !== undefined) return known;
    let total = 0;
    for (const { reader } of views) {
      const index = reader.terms.find(term);
      if (index >= 0) total += reader.terms.docFreq(index);
    }
    if (lookups !== undefined) lookups[term] = total;
    return total;
  };
  // A term found by walking the dictionaries (a typo variant, a compound) comes with its local count.
  const withCount = (term: string, local: number): number => {
    const known = docFreqs?.[term];
    if (known !== undefined) return known;
    if (lookups !== undefined) lookups[term] = local;
    return local;
  };
  const context: PrepareContext = { views, stats, options, docFreq, withCount, idf: (term) => bm25Idf(stats.docCount, docFreq(term)) };
  // A clause narrowed to title or text is still looked for in the metadata fields its own scope takes in.
  return clauses.map((clause) =>
    withFieldForms((CLAUSE_KINDS[clause.kind] as (clause: QueryClause, context: PrepareContext) => PreparedClause)(inSearchedFields(clause, stats), context), context, clause.field),
  );
}

/** A clause of both fields narrowed to the one the search searches, when it leaves the other out (weight 0). */
function inSearchedFields(clause: QueryClause, stats: CollectionStatistics): QueryClause {
  const weights = stats.fieldWeights;
  if (clause.field !== 'all' || weights === undefined) return clause;
  if (weights.title === 0 && weights.text === 0) return clause; // metadata fields only (field-forms.ts)
  if (weights.title === 0) return { ...clause, field: 'text' };
  if (weights.text === 0) return { ...clause, field: 'title' };
  return clause;
}
