// Prepares a parsed query for execution across segments: each clause, by its kind, becomes the
// forms it matches, each weighted with BM25F from collection-wide statistics (clauses/: a word
// with its typo variants, containing words and synonyms; a phrase with its joined form and
// synonyms; a prefix with its terms), and then, per segment, scorers over those forms
// (clauses/clause-scoring.ts). A new kind of clause is a file in clauses/ and a line in
// CLAUSE_KINDS. Every kind's forms are then looked for in the searched metadata fields too
// (clauses/field-forms.ts).

import type { QueryClause } from '../query/index.ts';
import { bm25Idf } from './bm25.ts';
import type { CorpusStatistics } from './corpus-statistics.ts';
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
 * The collection's statistics over `views`, with the search's field weights when it has its own,
 * or those of `corpus` (several collections searched as one, corpus-statistics.ts) when given.
 * Its metadata fields are those `weights` names that every segment indexes the words of: a field
 * being indexed still (a re-index after `searchable_fields` changed) is not searched until then.
 */
export function collectionStatistics(views: readonly SegmentView[], weights?: FieldWeights, corpus?: CorpusStatistics): CollectionStatistics {
  const sums = corpus ?? corpusOf(views, weights);
  const { docCount } = sums;
  const stats: CollectionStatistics = {
    docCount,
    avgTitleLength: docCount > 0 ? sums.titleLength / docCount : 0,
    avgTextLength: docCount > 0 ? sums.textLength / docCount : 0,
  };
  if (corpus !== undefined) {
    stats.byPages = corpus.pagedDocs > 0;
    if (corpus.units > 0) stats.avgPageTextLength = corpus.textLength / corpus.units;
  }
  if (weights === undefined) return stats;
  stats.fieldWeights = weights;
  const metadataFields: SearchedField[] = [];
  for (const [name, weight] of Object.entries(weights.metadata ?? {})) {
    if (!views.every(({ reader }) => reader.searchFields.includes(name))) continue;
    const sum = sums.fieldLengths[name] ?? 0;
    metadataFields.push({ name, weight, avgLength: docCount > 0 ? sum / docCount : 0 });
  }
  if (metadataFields.length > 0) stats.metadataFields = metadataFields;
  return stats;
}

/** The sums of `views` that add up across collections (corpus-statistics.ts), with no terms yet. */
export function corpusOf(views: readonly SegmentView[], weights?: FieldWeights): CorpusStatistics {
  const corpus: CorpusStatistics = { docCount: 0, titleLength: 0, textLength: 0, units: 0, pagedDocs: 0, fieldLengths: {}, docFreqs: {} };
  for (const { reader } of views) {
    corpus.docCount += reader.docCount;
    corpus.titleLength += reader.sumTitleLength;
    corpus.textLength += reader.sumTextLength;
    corpus.units += reader.docCount - reader.pagedDocCount + reader.pageCount;
    corpus.pagedDocs += reader.pagedDocCount;
  }
  for (const name of Object.keys(weights?.metadata ?? {})) {
    if (views.every(({ reader }) => reader.searchFields.includes(name))) corpus.fieldLengths[name] = views.reduce((total, { reader }) => total + reader.sumFieldLength(name), 0);
  }
  return corpus;
}

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
