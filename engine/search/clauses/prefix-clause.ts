// A prefix (`comput*`, or the word being typed with `prefix=last`): at most MAX_PREFIX_EXPANSIONS
// terms of the segments, the first in term order — those starting with the prefix cut back to
// where it agrees with its stem, and the terms of the words kept behind stems that start with the
// prefix as typed (segment/surface-forms.ts). A term that does not itself start with the prefix
// as typed ("run" for `runn*`) is `checked`: it matches only the documents where a word starting
// with the prefix became it (SurfaceCheckedScorer). It scores as the best of its terms.

import type { PrefixClause } from '../../query/index.ts';
import type { SegmentReader } from '../../segment/segment-reader.ts';
import { compareCodePoints } from '../../segment/term-order.ts';
import { Bm25fWeight } from '../bm25.ts';
import { SurfaceCheck } from '../scorers/surface-checked-scorer.ts';
import type { ClauseForm, PrepareContext, PreparedClause } from './clause-forms.ts';
import { MAX_PREFIX_EXPANSIONS, termsWithPrefix } from './expansion-forms.ts';

export function preparePrefixClause(clause: PrefixClause, context: PrepareContext): PreparedClause {
  const { views, stats } = context;
  const word = clause.word ?? clause.prefix;
  const terms = termsWithPrefix(views, clause.prefix);
  // The terms of the words that start with the prefix as typed ("runn" → "running" → "run").
  for (const { reader } of views) {
    for (const index of reader.surfaces?.termsOfWordsWithPrefix(word, MAX_PREFIX_EXPANSIONS) ?? []) terms.add(reader.terms.term(index));
  }
  const analyzer = context.options.analyzer;
  const alternatives = [...terms]
    .sort(compareCodePoints)
    .slice(0, MAX_PREFIX_EXPANSIONS)
    .map((term): ClauseForm => ({
      terms: [term],
      weight: new Bm25fWeight(context.idf(term), stats, clause.field),
      role: 'expansion',
      // A term not starting with the prefix as typed stands for it only in the documents where a
      // word starting with the prefix became that term ("running", not "runs", for "run").
      ...(analyzer !== undefined && !term.startsWith(word) && { checked: true }),
    }));
  if (analyzer === undefined || !alternatives.some((form) => form.checked)) return { clause, own: null, alternatives };
  const checks = new Map<SegmentReader, SurfaceCheck>();
  const surfaceCheck = (reader: SegmentReader): SurfaceCheck => {
    let check = checks.get(reader);
    if (check === undefined) checks.set(reader, (check = new SurfaceCheck(reader, analyzer, word)));
    return check;
  };
  return { clause, own: null, alternatives, surfaceCheck };
}
