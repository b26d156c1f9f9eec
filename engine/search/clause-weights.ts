// Prepares a parsed query for execution across segments: each clause, by its kind, becomes the
// forms it matches, each weighted with BM25F from collection-wide statistics (clauses/: a word
// with its typo variants, containing words and synonyms; a phrase with its joined form and
// synonyms; a prefix with its terms), and then, per segment, scorers over those forms
// (clauses/clause-scoring.ts). A new kind of clause is a file in clauses/ and a line in
// CLAUSE_KINDS. Every kind's forms are then looked for in the searched metadata fields too
// (clauses/field-forms.ts).

import type { QueryClause } from '../query/query-types.ts';
import { bm25Idf } from './bm25.ts';
import type { CollectionStatistics, FieldWeights, SearchedField } from './bm25.ts';
import { withFieldForms } from './clauses/field-forms.ts';
export { metadataFieldTerms } from './clauses/field-forms.ts';
import type { PrepareContext, PrepareOptions, PreparedClause } from './clauses/clause-forms.ts';
import { preparePhraseClause } from './clauses/phrase-clause.ts';
import { preparePrefixClause } from './clauses/prefix-clause.ts';
import { prepareTermClause } from './clauses/term-clause.ts';
import type { SegmentView } from './segment-view.ts';

export { clauseScorer, rankingScorers } from './clauses/clause-scoring.ts';
export type { ClauseForm, PrepareOptions, PreparedClause } from './clauses/clause-forms.ts';
export { MAX_PREFIX_EXPANSIONS } from './clauses/prefix-clause.ts';
export { SYNONYM_SCORE_FACTOR } from './clauses/synonym-forms.ts';

/** How each kind of clause is prepared. */
const CLAUSE_KINDS: { [K in QueryClause['kind']]: (clause: Extract<QueryClause, { kind: K }>, context: PrepareContext) => PreparedClause } = {
  term: prepareTermClause,
  phrase: preparePhraseClause,
  prefix: preparePrefixClause,
};

/**
 * The collection's statistics over `views`, with the search's field weights when it has its own.
 * Its metadata fields are those `weights` names that every segment indexes the words of: a field
 * being indexed still (a re-index after `searchable_fields` changed) is not searched until then.
 */
export function collectionStatistics(views: readonly SegmentView[], weights?: FieldWeights): CollectionStatistics {
  let docCount = 0;
  let titleLength = 0;
  let textLength = 0;
  for (const { reader } of views) {
    docCount += reader.docCount;
    titleLength += reader.sumTitleLength;
    textLength += reader.sumTextLength;
  }
  const stats: CollectionStatistics = {
    docCount,
    avgTitleLength: docCount > 0 ? titleLength / docCount : 0,
    avgTextLength: docCount > 0 ? textLength / docCount : 0,
  };
  if (weights === undefined) return stats;
  stats.fieldWeights = weights;
  const metadataFields: SearchedField[] = [];
  for (const [name, weight] of Object.entries(weights.metadata ?? {})) {
    if (!views.every(({ reader }) => reader.searchFields.includes(name))) continue;
    const sum = views.reduce((total, { reader }) => total + reader.sumFieldLength(name), 0);
    metadataFields.push({ name, weight, avgLength: docCount > 0 ? sum / docCount : 0 });
  }
  if (metadataFields.length > 0) stats.metadataFields = metadataFields;
  return stats;
}

export function prepareClauses(
  clauses: readonly QueryClause[],
  views: readonly SegmentView[],
  stats: CollectionStatistics,
  options: PrepareOptions = {},
): PreparedClause[] {
  const docFreq = (term: string): number => {
    let total = 0;
    for (const { reader } of views) {
      const index = reader.terms.find(term);
      if (index >= 0) total += reader.terms.docFreq(index);
    }
    return total;
  };
  const context: PrepareContext = { views, stats, options, docFreq, idf: (term) => bm25Idf(stats.docCount, docFreq(term)) };
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
