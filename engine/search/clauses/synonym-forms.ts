// The synonym forms of a word or a phrase (docs/api.md, "Synonyms"): each synonym a term or a
// phrase, weighted SYNONYM_SCORE_FACTOR of its idf, at most the clause's own idf, so the words as
// typed rank above their synonyms. Matched exactly: typos apply to the words as typed only.

import type { PhraseClause, TermClause } from '../../query/index.ts';
import { Bm25fWeight } from '../bm25.ts';
import type { ClauseForm, PrepareContext } from './clause-forms.ts';

/** What a synonym's score counts against the word as typed. */
export const SYNONYM_SCORE_FACTOR = 0.8;

/** The clause's synonyms as forms (none for an excluded clause); `typed` names the clause in explanations. */
export function synonymForms(clause: TermClause | PhraseClause, ownIdf: number, typed: string, context: PrepareContext): ClauseForm[] {
  if (clause.occur === 'must_not' || clause.synonyms === undefined) return [];
  return clause.synonyms.map((synonym) => {
    const idf = Math.min(synonym.terms.reduce((sum, term) => sum + context.idf(term), 0), ownIdf);
    const reason = `synonym '${synonym.text}' of '${typed}', ${SYNONYM_SCORE_FACTOR}`;
    return { terms: synonym.terms, weight: new Bm25fWeight(idf, context.stats, clause.field, SYNONYM_SCORE_FACTOR, reason), role: 'synonym' };
  });
}
