// What a prepared query clause is, whatever its kind: the forms it matches, each a term or a
// phrase with its BM25F weight — its own form (the word or phrase as typed; a prefix has none),
// then its other forms (a word's typo variants and the longer words containing it, a split word
// joined, a prefix's terms, then synonyms). Every kind prepares its forms in a file of its own
// (term-clause.ts, phrase-clause.ts, prefix-clause.ts); scoring, hit evidence and page ranking
// work on forms alone, so a new kind of clause is a new file that prepares forms. The same forms
// in the searchable metadata fields are added after, whatever the kind (field-forms.ts).

import type { QueryClause } from '../../query/index.ts';
import type { SegmentReader } from '../../segment/segment-reader.ts';
import type { Bm25fWeight, CollectionStatistics } from '../bm25.ts';
import type { SurfaceCheck } from '../scorers/surface-checked-scorer.ts';
import type { SegmentView } from '../segment-view.ts';
import type { Analyzer } from '../../analysis/index.ts';
import type { TypoField } from '../../typo/typo-rules.ts';

/** One form a clause matches: a term, or a phrase's terms in a row, and its weight (the weight's field is where it may match). */
export interface ClauseForm {
  terms: string[];
  weight: Bm25fWeight;
  /** `own`: the clause as typed; `expansion`: a variant, a containing word, a joined form or a prefix's term; `synonym`. */
  role: 'own' | 'expansion' | 'synonym';
  /** A typo variant's typos. */
  typos?: number;
  /** A prefix's term that does not start with the prefix as typed: matched only where a word that does became it. */
  checked?: boolean;
  /** The searchable metadata field the form's terms are in (its terms are that field's, segment-format.ts fieldTerm). */
  field?: string;
  /**
   * The same form in each searched metadata field: scored with it by BM25F, one sum of the
   * fields' frequencies (field-forms.ts); the form's weight saturates the sum.
   */
  inFields?: ClauseForm[];
}

export interface PreparedClause {
  clause: QueryClause;
  /** The clause as typed (null for a prefix, which is only its terms). */
  own: ClauseForm | null;
  /** Its other forms: expansions first, then synonyms. */
  alternatives: ClauseForm[];
  /**
   * Its forms in one searchable metadata field alone (field-forms.ts): the terms only a field has
   * (a prefix's, typo variants), or every form when the clause looks in no title or text. Scored
   * like the others, but not looked for in the text (hit evidence and pages read `own` and
   * `alternatives`, without their `inFields`).
   */
  fieldForms?: ClauseForm[];
  /** A prefix with `checked` forms: per segment, which documents hold such a term through a word starting with the prefix. */
  surfaceCheck?: (reader: SegmentReader) => SurfaceCheck;
}

export interface PrepareOptions {
  /** Fields where typo variants may not match (the collection's `disable_on_fields`). */
  typoDisabledFields?: readonly TypoField[];
  /**
   * The collection's analyzer: a prefix expansion that does not start with the prefix as typed
   * (a stem: `runn*` → "run") then matches only documents holding it through a word that does
   * (SurfaceCheckedScorer). Without it such expansions match every document with the term.
   */
  analyzer?: Analyzer;
  /** Document frequencies of the corpus searched (several collections as one, corpus-statistics.ts); a term not listed is counted here. */
  docFreqs?: Readonly<Record<string, number>>;
  /** Filled with each term counted here and its count (the first pass of a search over several collections). */
  lookups?: Record<string, number>;
}

/** What preparing a clause may look up: the snapshot's segments and statistics. */
export interface PrepareContext {
  views: readonly SegmentView[];
  stats: CollectionStatistics;
  options: PrepareOptions;
  /** Documents of the snapshot (deleted ones included until merged) holding `term`. */
  docFreq(term: string): number;
  /** The document frequency to weigh a term found in the dictionaries with: `local`, or the corpus's. */
  withCount(term: string, local: number): number;
  /** BM25's idf of `term` over the snapshot. */
  idf(term: string): number;
}
