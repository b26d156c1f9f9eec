// A word (`histogram`, `+title:gnuplot`): its term, with its other forms — typo variants where
// typos are allowed (expansion-forms.ts), the longer words of a katakana or hangul word that contain it
// (compound-expansions.ts), and its synonyms.

import type { FieldScope, TermClause } from '../../query/index.ts';
import type { TypoField } from '../../typo/typo-rules.ts';
import { Bm25fWeight, bm25Idf } from '../bm25.ts';
import { COMPOUND_SCORE_FACTOR, compoundsContaining } from '../compound-expansions.ts';
import type { ClauseForm, PrepareContext, PreparedClause } from './clause-forms.ts';
import { typoForms } from './expansion-forms.ts';
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
  const variants = typoForms(
    { word: clause.term, term: clause.term, maxTypos: clause.maxTypos!, termDocFreq: exactDocFreq, unknownWord: exactDocFreq === 0, maxIdf: exactIdf, stats, scope },
    context,
  );
  const moreCompounds = compounds.filter((compound) => !variants.some((variant) => variant.terms[0] === compound.terms[0]));
  return { clause, own, alternatives: [...variants, ...moreCompounds, ...synonyms] };
}
