// Prepares a parsed query for execution across segments: each clause gets its BM25F weight from
// collection-wide statistics (prefixes are expanded to the matching terms of every segment
// first, and terms with a typo budget to their typo variants), and then, per segment, a scorer
// over that segment's postings. A term with typo variants scores as the best of the exact term
// and its variants, each variant scaled down by TYPO_SCORE_FACTOR per typo
// (UNKNOWN_WORD_TYPO_SCORE_FACTOR when no document contains the term itself), and of its
// synonyms (SYNONYM_SCORE_FACTOR); a phrase as the best of itself, its joined form and its synonyms.

import type { QueryClause } from '../query/query-types.ts';
import type { SegmentReader } from '../segment/segment-reader.ts';
import { Bm25fWeight, bm25Idf } from './bm25.ts';
import type { CollectionStatistics } from './bm25.ts';
import type { SegmentView } from './segment-view.ts';
import { DisjunctionMaxScorer } from './scorers/disjunction-max-scorer.ts';
import { TypoVariantsScorer } from './scorers/typo-variants-scorer.ts';
import { COMPOUND_SCORE_FACTOR, compoundsContaining } from './compound-expansions.ts';
import { PhraseScorer } from './scorers/phrase-scorer.ts';
import { phraseShape } from './phrase-starts.ts';
import { SearchBudget } from './search-budget.ts';
import type { Scorer } from './scorers/scorer.ts';
import { TermScorer } from './scorers/term-scorer.ts';
import { SurfaceCheck, SurfaceCheckedScorer } from './scorers/surface-checked-scorer.ts';
import type { Analyzer } from '../analysis/analyzer.ts';
import { compareCodePoints } from '../segment/term-order.ts';
import type { FieldScope, PhraseClause, TermClause } from '../query/query-types.ts';
import type { Synonym } from '../query/synonyms.ts';
import type { TypoField } from '../typo/typo-rules.ts';
import { EXISTING_WORD_MAX_TYPOS, TYPO_SCORE_FACTOR, UNKNOWN_WORD_TYPO_SCORE_FACTOR, typoVariants } from './typo-expansions.ts';

/** A prefix matches at most this many terms (the first ones in term order). */
export const MAX_PREFIX_EXPANSIONS = 64;

export interface PreparedClause {
  clause: QueryClause;
  /** Term and phrase clauses: their weight. */
  weight: Bm25fWeight | null;
  /**
   * Prefix clauses: the terms they expand to, each with its weight. Term clauses: their typo
   * variants, each with its (reduced) weight and typo count; the weight's field is where the
   * variant may match; then, for a katakana or hangul word, the longer words containing it
   * (compound-expansions.ts). Phrase clauses of a split word: its parts joined, when some
   * document has that term.
   */
  expansions: { term: string; weight: Bm25fWeight; typos?: number; checked?: boolean }[];
  /**
   * Prefix clauses whose expansions include terms not starting with the prefix as typed (`checked`
   * ones): per segment, which documents hold such a term through a word that does.
   */
  surfaceCheck?: (reader: SegmentReader) => SurfaceCheck;
  /**
   * Term and phrase clauses: their synonyms (a term, or a phrase's terms), each weighted
   * SYNONYM_SCORE_FACTOR of its idf, at most the clause's own idf: the words as typed rank above
   * their synonyms. Matched exactly (typos apply to the words as typed only).
   */
  synonyms: { synonym: Synonym; weight: Bm25fWeight }[];
}

/** What a synonym's score counts against the word as typed (docs/api.md, "Synonyms"). */
export const SYNONYM_SCORE_FACTOR = 0.8;

export interface PrepareOptions {
  /** Fields where typo variants may not match (the collection's `disable_on_fields`). */
  typoDisabledFields?: readonly TypoField[];
  /**
   * The collection's analyzer: a prefix expansion that does not start with the prefix as typed
   * (a stem: `runn*` → "run") then matches only documents holding it through a word that does
   * (SurfaceCheckedScorer). Without it such expansions match every document with the term.
   */
  analyzer?: Analyzer;
}

/** Where a term clause's typo variants may match, or null for nowhere. */
function typoScope(field: FieldScope, disabled: readonly TypoField[]): FieldScope | null {
  const title = field !== 'text' && !disabled.includes('title');
  const text = field !== 'title' && !disabled.includes('text');
  return title && text ? 'all' : title ? 'title' : text ? 'text' : null;
}

export function collectionStatistics(views: readonly SegmentView[]): CollectionStatistics {
  let docCount = 0;
  let titleLength = 0;
  let textLength = 0;
  for (const { reader } of views) {
    docCount += reader.docCount;
    titleLength += reader.sumTitleLength;
    textLength += reader.sumTextLength;
  }
  return {
    docCount,
    avgTitleLength: docCount > 0 ? titleLength / docCount : 0,
    avgTextLength: docCount > 0 ? textLength / docCount : 0,
  };
}

function docFreq(term: string, views: readonly SegmentView[]): number {
  let total = 0;
  for (const { reader } of views) {
    const index = reader.terms.find(term);
    if (index >= 0) total += reader.terms.docFreq(index);
  }
  return total;
}

export function prepareClauses(
  clauses: readonly QueryClause[],
  views: readonly SegmentView[],
  stats: CollectionStatistics,
  options: PrepareOptions = {},
): PreparedClause[] {
  const idf = (term: string): number => bm25Idf(stats.docCount, docFreq(term, views));
  /** A term or phrase clause's synonyms, weighed against its own idf. */
  const synonymsOf = (clause: TermClause | PhraseClause, ownIdf: number, typed: string): PreparedClause['synonyms'] =>
    clause.occur === 'must_not' || clause.synonyms === undefined
      ? []
      : clause.synonyms.map((synonym) => {
          const synonymIdf = Math.min(synonym.terms.reduce((sum, term) => sum + idf(term), 0), ownIdf);
          const reason = `synonym '${synonym.text}' of '${typed}', ${SYNONYM_SCORE_FACTOR}`;
          return { synonym, weight: new Bm25fWeight(synonymIdf, stats, clause.field, SYNONYM_SCORE_FACTOR, reason) };
        });
  return clauses.map((clause): PreparedClause => {
    switch (clause.kind) {
      case 'term': {
        const exactDocFreq = docFreq(clause.term, views);
        const exactIdf = bm25Idf(stats.docCount, exactDocFreq);
        const weight = new Bm25fWeight(exactIdf, stats, clause.field);
        // A katakana or hangul word also matches the longer words that contain it.
        const compounds =
          clause.occur === 'must_not'
            ? []
            : compoundsContaining(clause.term, views).map(({ term, docFreq: compoundDocFreq }) => ({
                term,
                weight: new Bm25fWeight(Math.min(bm25Idf(stats.docCount, compoundDocFreq), exactIdf), stats, clause.field, COMPOUND_SCORE_FACTOR, `inside a longer word, ${COMPOUND_SCORE_FACTOR}`),
              }));
        const synonyms = synonymsOf(clause, exactIdf, clause.term);
        const scope = clause.maxTypos === undefined ? null : typoScope(clause.field, options.typoDisabledFields ?? []);
        if (scope === null) return { clause, weight, expansions: compounds, synonyms };
        // With the word itself in the collection, its typo variants rank below it; with no
        // document containing it, they are what it means and lose less.
        const factor = exactDocFreq === 0 ? UNKNOWN_WORD_TYPO_SCORE_FACTOR : TYPO_SCORE_FACTOR;
        // A word the collection contains gets one typo at most: its two-typo variants would
        // count 0.25² of it (noise in the ranking), and walking for them costs most.
        const budget = exactDocFreq > 0 ? Math.min(clause.maxTypos!, EXISTING_WORD_MAX_TYPOS) : clause.maxTypos!;
        const expansions = typoVariants(clause.term, budget, views).map(({ term, typos, docFreq: variantDocFreq }) => {
          const variantIdf = Math.min(bm25Idf(stats.docCount, variantDocFreq), exactIdf);
          const reason = `${typos} typo${typos === 1 ? '' : 's'} from '${clause.term}', ${factor} per typo`;
          return { term, typos, weight: new Bm25fWeight(variantIdf, stats, scope, factor ** typos, reason) };
        });
        return { clause, weight, expansions: [...expansions, ...compounds.filter((compound) => !expansions.some((variant) => variant.term === compound.term))], synonyms };
      }
      case 'phrase': {
        const phraseIdf = clause.terms.reduce((sum, term) => sum + idf(term), 0);
        // An identifier's parts written together ("email" for "e-mail") match as well.
        const joinedDocFreq = clause.joined === undefined ? 0 : docFreq(clause.joined, views);
        const expansions =
          joinedDocFreq === 0 ? [] : [{ term: clause.joined!, weight: new Bm25fWeight(bm25Idf(stats.docCount, joinedDocFreq), stats, clause.field) }];
        return { clause, weight: new Bm25fWeight(phraseIdf, stats, clause.field), expansions, synonyms: synonymsOf(clause, phraseIdf, clause.terms.join(' ')) };
      }
      case 'prefix': {
        const terms = new Set<string>();
        for (const { reader } of views) {
          for (const index of reader.terms.withPrefix(clause.prefix, MAX_PREFIX_EXPANSIONS)) terms.add(reader.terms.term(index));
          // The terms of the words that start with the prefix as typed ("runn" → "running" → "run").
          const word = clause.word ?? clause.prefix;
          for (const index of reader.surfaces?.termsOfWordsWithPrefix(word, MAX_PREFIX_EXPANSIONS) ?? []) terms.add(reader.terms.term(index));
        }
        // A term that does not start with the prefix as typed stands for it only in the documents
        // where a word starting with the prefix became that term ("running", not "runs", for "run").
        const word = clause.word ?? clause.prefix;
        const analyzer = options.analyzer;
        const expansions = [...terms]
          .sort(compareCodePoints)
          .slice(0, MAX_PREFIX_EXPANSIONS)
          .map((term) => ({ term, weight: new Bm25fWeight(idf(term), stats, clause.field), ...(analyzer !== undefined && !term.startsWith(word) && { checked: true }) }));
        if (analyzer === undefined || !expansions.some((expansion) => expansion.checked)) return { clause, weight: null, expansions, synonyms: [] };
        const checks = new Map<SegmentReader, SurfaceCheck>();
        const surfaceCheck = (reader: SegmentReader): SurfaceCheck => {
          let check = checks.get(reader);
          if (check === undefined) checks.set(reader, (check = new SurfaceCheck(reader, analyzer, word)));
          return check;
        };
        return { clause, weight: null, expansions, synonyms: [], surfaceCheck };
      }
      default:
        throw new Error(`unknown clause kind ${(clause as QueryClause).kind}`);
    }
  });
}

/** A scorer of `term` over the segment's postings, or null when the segment lacks it. */
function termScorer(reader: SegmentReader, term: string, weight: Bm25fWeight): TermScorer | null {
  const index = reader.terms.find(term);
  if (index < 0) return null;
  // The weight's field is the clause's, or (typo variants) where the variant may match.
  return new TermScorer(term, reader.postings(index), weight, weight.field, reader.titleLengths, reader.textLengths);
}

/** A scorer of the phrase `terms` over the segment, or null when the segment lacks a term. */
function phraseScorer(terms: string[], weight: Bm25fWeight, field: FieldScope, reader: SegmentReader, budget: SearchBudget): PhraseScorer | null {
  const shape = phraseShape(terms);
  // One cursor per distinct word, in slot order (a repeated word is read once).
  const cursors = [];
  for (const term of new Set(terms)) {
    const index = reader.terms.find(term);
    if (index < 0) return null;
    cursors.push(reader.postings(index));
  }
  return new PhraseScorer(terms.join(' '), cursors, shape, weight, field, reader.titleLengths, reader.textLengths, budget);
}

/** Scorers of the clause's expansions (prefix terms or typo variants) this segment has. */
function expansionScorers(prepared: PreparedClause, reader: SegmentReader): Scorer[] {
  const scorers: Scorer[] = [];
  for (const { term, weight, checked } of prepared.expansions) {
    const scorer = termScorer(reader, term, weight);
    if (scorer === null) continue;
    scorers.push(checked === true && prepared.surfaceCheck !== undefined ? new SurfaceCheckedScorer(scorer, prepared.surfaceCheck(reader)) : scorer);
  }
  return scorers;
}

/** Scorers of the clause's synonyms (terms or phrases) this segment has. */
function synonymScorers(prepared: PreparedClause, reader: SegmentReader, budget: SearchBudget): Scorer[] {
  const scorers: Scorer[] = [];
  for (const { synonym, weight } of prepared.synonyms) {
    const scorer = synonym.terms.length === 1 ? termScorer(reader, synonym.terms[0], weight) : phraseScorer(synonym.terms, weight, prepared.clause.field, reader, budget);
    if (scorer !== null) scorers.push(scorer);
  }
  return scorers;
}

/** Scorers of every other form the clause matches: its expansions, then its synonyms. */
function alternativeScorers(prepared: PreparedClause, reader: SegmentReader, budget: SearchBudget): Scorer[] {
  const expansions: Scorer[] = expansionScorers(prepared, reader);
  return prepared.synonyms.length === 0 ? expansions : [...expansions, ...synonymScorers(prepared, reader, budget)];
}

/** The best of `scorers` as one scorer, or null for none. */
function bestOf(label: string, scorers: Scorer[]): Scorer | null {
  if (scorers.length <= 1) return scorers[0] ?? null;
  return new DisjunctionMaxScorer(label, scorers);
}

/**
 * The scorers WAND ranks the clause with, summed: the clause's scorer, except that a word with
 * typo variants gives its exact form and what its variants add over it (TypoVariantsScorer),
 * so that each has its own bound.
 */
export function rankingScorers(prepared: PreparedClause, reader: SegmentReader, budget = SearchBudget.UNLIMITED): Scorer[] {
  const { clause } = prepared;
  if (clause.kind !== 'term' || (prepared.expansions.length === 0 && prepared.synonyms.length === 0)) {
    const scorer = clauseScorer(prepared, reader, budget);
    return scorer === null ? [] : [scorer];
  }
  const exact = termScorer(reader, clause.term, prepared.weight!);
  const variants = bestOf(`typo variants and synonyms of ${clause.term}`, alternativeScorers(prepared, reader, budget));
  if (variants === null) return exact === null ? [] : [exact];
  return exact === null ? [variants] : [exact, new TypoVariantsScorer(variants, exact)];
}

/** The clause's scorer over one segment, or null when nothing in the segment can match it; phrases spend `budget`. */
export function clauseScorer(prepared: PreparedClause, reader: SegmentReader, budget = SearchBudget.UNLIMITED): Scorer | null {
  const { clause } = prepared;
  switch (clause.kind) {
    case 'term': {
      const exact = termScorer(reader, clause.term, prepared.weight!);
      if (prepared.expansions.length === 0 && prepared.synonyms.length === 0) return exact;
      return bestOf(`${clause.term} (typo variants, synonyms)`, [...(exact === null ? [] : [exact]), ...alternativeScorers(prepared, reader, budget)]);
    }
    case 'phrase': {
      const phrase = phraseScorer(clause.terms, prepared.weight!, clause.field, reader, budget);
      if (prepared.expansions.length === 0 && prepared.synonyms.length === 0) return phrase;
      return bestOf(`${clause.terms.join(' ')} (or joined, synonyms)`, [...(phrase === null ? [] : [phrase]), ...alternativeScorers(prepared, reader, budget)]);
    }
    case 'prefix':
      return bestOf(`${clause.prefix}*`, expansionScorers(prepared, reader));
    default:
      throw new Error(`unknown clause kind ${(clause as QueryClause).kind}`);
  }
}
