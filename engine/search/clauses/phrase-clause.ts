// A phrase (`"red fox"`, or an identifier typed as one word: `node.js`): its terms in a row,
// weighted by the sum of their idfs; a split word also matches its parts written together as
// one term ("nodejs"), when some document has it; then its synonyms.

import type { PhraseClause } from '../../query/index.ts';
import { Bm25fWeight, bm25Idf } from '../bm25.ts';
import type { ClauseForm, PrepareContext, PreparedClause } from './clause-forms.ts';
import { synonymForms } from './synonym-forms.ts';

export function preparePhraseClause(clause: PhraseClause, context: PrepareContext): PreparedClause {
  const { stats } = context;
  const phraseIdf = clause.terms.reduce((sum, term) => sum + context.idf(term), 0);
  const own: ClauseForm = { terms: clause.terms, weight: new Bm25fWeight(phraseIdf, stats, clause.field), role: 'own' };
  // An identifier's parts written together ("email" for "e-mail") match as well.
  const joinedDocFreq = clause.joined === undefined ? 0 : context.docFreq(clause.joined);
  const joined: ClauseForm[] =
    joinedDocFreq === 0 ? [] : [{ terms: [clause.joined!], weight: new Bm25fWeight(bm25Idf(stats.docCount, joinedDocFreq), stats, clause.field), role: 'expansion' }];
  return { clause, own, alternatives: [...joined, ...synonymForms(clause, phraseIdf, clause.terms.join(' '), context)] };
}
