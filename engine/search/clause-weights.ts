// Prepares a parsed query for execution across segments: each clause gets its BM25F weight from
// collection-wide statistics (prefixes are expanded to the matching terms of every segment
// first), and then, per segment, a scorer over that segment's postings.

import type { QueryClause } from '../query/query-types.ts';
import type { SegmentReader } from '../segment/segment-reader.ts';
import { Bm25fWeight, bm25Idf } from './bm25.ts';
import type { CollectionStatistics } from './bm25.ts';
import type { SegmentView } from './segment-view.ts';
import { DisjunctionMaxScorer } from './scorers/disjunction-max-scorer.ts';
import { PhraseScorer } from './scorers/phrase-scorer.ts';
import type { Scorer } from './scorers/scorer.ts';
import { TermScorer } from './scorers/term-scorer.ts';
import { compareCodePoints } from '../segment/term-order.ts';

/** A prefix matches at most this many terms (the first ones in term order). */
export const MAX_PREFIX_EXPANSIONS = 64;

export interface PreparedClause {
  clause: QueryClause;
  /** Term and phrase clauses: their weight. */
  weight: Bm25fWeight | null;
  /** Prefix clauses: the terms they expand to, each with its weight. */
  expansions: { term: string; weight: Bm25fWeight }[];
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
): PreparedClause[] {
  const idf = (term: string): number => bm25Idf(stats.docCount, docFreq(term, views));
  return clauses.map((clause): PreparedClause => {
    switch (clause.kind) {
      case 'term':
        return { clause, weight: new Bm25fWeight(idf(clause.term), stats, clause.field), expansions: [] };
      case 'phrase': {
        const phraseIdf = clause.terms.reduce((sum, term) => sum + idf(term), 0);
        return { clause, weight: new Bm25fWeight(phraseIdf, stats, clause.field), expansions: [] };
      }
      case 'prefix': {
        const terms = new Set<string>();
        for (const { reader } of views) {
          for (const index of reader.terms.withPrefix(clause.prefix, MAX_PREFIX_EXPANSIONS)) terms.add(reader.terms.term(index));
        }
        const expansions = [...terms]
          .sort(compareCodePoints)
          .slice(0, MAX_PREFIX_EXPANSIONS)
          .map((term) => ({ term, weight: new Bm25fWeight(idf(term), stats, clause.field) }));
        return { clause, weight: null, expansions };
      }
      default:
        throw new Error(`unknown clause kind ${(clause as QueryClause).kind}`);
    }
  });
}

/** The clause's scorer over one segment, or null when nothing in the segment can match it. */
export function clauseScorer(prepared: PreparedClause, reader: SegmentReader): Scorer | null {
  const { clause } = prepared;
  const termScorer = (term: string, weight: Bm25fWeight): TermScorer | null => {
    const index = reader.terms.find(term);
    if (index < 0) return null;
    return new TermScorer(term, reader.postings(index), weight, clause.field, reader.titleLengths, reader.textLengths);
  };
  switch (clause.kind) {
    case 'term':
      return termScorer(clause.term, prepared.weight!);
    case 'phrase': {
      const cursors = [];
      for (const term of clause.terms) {
        const index = reader.terms.find(term);
        if (index < 0) return null;
        cursors.push(reader.postings(index));
      }
      return new PhraseScorer(clause.terms.join(' '), cursors, prepared.weight!, clause.field, reader.titleLengths, reader.textLengths);
    }
    case 'prefix': {
      const subs = prepared.expansions
        .map(({ term, weight }) => termScorer(term, weight))
        .filter((scorer): scorer is TermScorer => scorer !== null);
      if (subs.length === 0) return null;
      return subs.length === 1 ? subs[0] : new DisjunctionMaxScorer(`${clause.prefix}*`, subs);
    }
    default:
      throw new Error(`unknown clause kind ${(clause as QueryClause).kind}`);
  }
}
