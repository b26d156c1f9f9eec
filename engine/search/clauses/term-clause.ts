// A word (`histogram`, `+title:gnuplot`): its term, with its other forms — typo variants where
// typos are allowed (typo-expansions.ts: each ×TYPO_SCORE_FACTOR per typo, or
// ×UNKNOWN_WORD_TYPO_SCORE_FACTOR when no document has the word as typed; one typo at most for
// a word the collection has), the longer words of a katakana or hangul word that contain it
// (compound-expansions.ts), and its synonyms.

import type { FieldScope, TermClause } from '../../query/index.ts';
import type { TypoField } from '../../typo/typo-rules.ts';
import { Bm25fWeight, bm25Idf } from '../bm25.ts';
import { COMPOUND_SCORE_FACTOR, compoundsContaining } from '../compound-expansions.ts';
import { EXISTING_WORD_MAX_TYPOS, TYPO_SCORE_FACTOR, UNKNOWN_WORD_TYPO_SCORE_FACTOR, typoVariants } from '../typo-expansions.ts';
import type { ClauseForm, PrepareContext, PreparedClause } from './clause-forms.ts';
import { synonymForms } from './synonym-forms.ts';

/** Where a term clause's typo variants may match, or null for nowhere. */
function typoScope(field: FieldScope, disabled: readonly TypoField[]): FieldScope | null {
  const title = field !== 'text' && !disabled.includes('title');
  const text = field !== 'title' && !disabled.includes('text');
  return title && text ? 'all' : title ? 'title' : text ? 'text' : null;
}

export function prepareTermClause(clause: TermClause, context: PrepareContext): PreparedClause {
  const { views, stats, options } = context;
  const exactDocFreq = context.docFreq(clause.term);
  const exactIdf = bm25Idf(stats.docCount, exactDocFreq);
  const own: ClauseForm = { terms: [clause.term], weight: new Bm25fWeight(exactIdf, stats, clause.field), role: 'own' };
  // A katakana or hangul word also matches the longer words that contain it.
  const compounds: ClauseForm[] =
    clause.occur === 'must_not'
      ? []
      : compoundsContaining(clause.term, views).map(({ term, docFreq }) => ({
          terms: [term],
          weight: new Bm25fWeight(Math.min(bm25Idf(stats.docCount, context.withCount(term, docFreq)), exactIdf), stats, clause.field, COMPOUND_SCORE_FACTOR, `inside a longer word, ${COMPOUND_SCORE_FACTOR}`),
          role: 'expansion',
        }));
  const synonyms = synonymForms(clause, exactIdf, clause.term, context);
  const scope = clause.maxTypos === undefined ? null : typoScope(clause.field, options.typoDisabledFields ?? []);
  if (scope === null) return { clause, own, alternatives: [...compounds, ...synonyms] };
  // With the word itself in the collection, its typo variants rank below it; with no
  // document containing it, they are what it means and lose less.
  const factor = exactDocFreq === 0 ? UNKNOWN_WORD_TYPO_SCORE_FACTOR : TYPO_SCORE_FACTOR;
  // A word the collection contains gets one typo at most: its two-typo variants would
  // count 0.25² of it (noise in the ranking), and walking for them costs most.
  const budget = exactDocFreq > 0 ? Math.min(clause.maxTypos!, EXISTING_WORD_MAX_TYPOS) : clause.maxTypos!;
  const variants = typoVariants(clause.term, budget, views).map(({ term, typos, docFreq }): ClauseForm => {
    const variantIdf = Math.min(bm25Idf(stats.docCount, context.withCount(term, docFreq)), exactIdf);
    const reason = `${typos} typo${typos === 1 ? '' : 's'} from '${clause.term}', ${factor} per typo`;
    return { terms: [term], typos, weight: new Bm25fWeight(variantIdf, stats, scope, factor ** typos, reason), role: 'expansion' };
  });
  const moreCompounds = compounds.filter((compound) => !variants.some((variant) => variant.terms[0] === compound.terms[0]));
  return { clause, own, alternatives: [...variants, ...moreCompounds, ...synonyms] };
}
