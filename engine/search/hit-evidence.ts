// Where a hit's query is actually satisfied in its document (docs/api.md, "Search" `page`, `matched_pages`,
// `highlight`; issue 14): from the postings positions of the query's terms in one document, the
// occurrences of each positive clause — a term, or one of a prefix's expansions, wherever it
// occurs; a phrase only where its words stand at consecutive positions, and in a paged document
// all on one page (a split word's phrase also where its parts stand joined as one term); a
// clause's synonyms wherever they stand (a phrase synonym in a row) — then the pages where at least one clause is satisfied, the best page, and
// the positions of the tokens to mark in the snippet. Lucene's unified highlighter does the same
// with its "weight matches": what is marked is what the query matched, never a phrase's words
// standing alone.
//
// - Excluded (`-x`) clauses never count, and neither do `title:` clauses: the title satisfies
//   them, not a page, so they neither make a page matched nor mark the text.
// - Best page: the most weight of required (`+x`, or every clause with match=all) clauses
//   satisfied on it, then of optional ones, then the most occurrences (each weighted like its
//   clause); ties go to the earlier page. A clause weighs its idf, as in scoring: a term its
//   idf, a phrase the sum of its terms' idfs, a prefix the idf of its best expansion on the page.
//   With no page satisfying any clause the first page is the best.
// - Bounded: the work is linear in the text positions of the query's terms in the document,
//   and at most MAX_HIT_POSITIONS of them are looked at — the earliest: a document where the
//   query's terms occur more often is judged on its first part only.
// - Engine-pure: positions come through DocPositions, so the naive test can feed token streams.

import type { PreparedClause } from './clauses/clause-forms.ts';
import { findPhraseStarts } from './phrase-starts.ts';

/** Most text positions of the query's terms looked at per hit (the earliest ones). */
export const MAX_HIT_POSITIONS = 1 << 16;

/** A positive clause that text can satisfy, as the hit builder sees it. */
export interface EvidenceClause {
  /** `terms`: any one of `terms` (a term, or a prefix's expansions); `phrase`: `terms` in a row. */
  kind: 'terms' | 'phrase';
  terms: string[];
  /** `terms`: the idf of each of `terms`; `phrase`: one entry, the phrase's idf. */
  idfs: number[];
  /** A `must` clause (`+x`, or any clause with match=all). */
  required: boolean;
  /** `phrase` of a split word: its parts written together as one term, also satisfying it, and that term's idf. */
  joined?: { term: string; idf: number };
  /** Other forms satisfying it (its synonyms): a term, or a phrase's terms in a row, each with its idf. */
  alternatives?: { terms: string[]; idf: number }[];
}

/**
 * The clauses of a prepared query that pages can satisfy (positive, not `title:`-only), from
 * their forms: a clause whose own form is a phrase is a `phrase` (a single-term expansion its
 * joined form); any other the `terms` of its own form and single-term expansions (a form that
 * may only match the title is not looked for in the text); synonyms are alternatives.
 */
export function evidenceClauses(prepared: readonly PreparedClause[]): EvidenceClause[] {
  const clauses: EvidenceClause[] = [];
  for (const { clause, own, alternatives: forms } of prepared) {
    if (clause.occur === 'must_not' || clause.field === 'title') continue;
    const required = clause.occur === 'must';
    const alternatives = forms.filter((form) => form.role === 'synonym').map((form) => ({ terms: form.terms, idf: form.weight.idf * form.weight.boost }));
    const withAlternatives = alternatives.length === 0 ? {} : { alternatives };
    const expansions = forms.filter((form) => form.role === 'expansion' && form.terms.length === 1);
    if (own !== null && own.terms.length > 1) {
      const joined = expansions[0];
      clauses.push({ kind: 'phrase', terms: own.terms, idfs: [own.weight.idf], required, ...(joined === undefined ? {} : { joined: { term: joined.terms[0], idf: joined.weight.idf } }), ...withAlternatives });
      continue;
    }
    const terms: string[] = [];
    const idfs: number[] = [];
    for (const form of own === null ? expansions : [own, ...expansions]) {
      if ((form.role !== 'own' && form.weight.field === 'title') || terms.includes(form.terms[0])) continue;
      terms.push(form.terms[0]);
      idfs.push(form.weight.idf);
    }
    if (terms.length > 0 || alternatives.length > 0) clauses.push({ kind: 'terms', terms, idfs, required, ...withAlternatives });
  }
  return clauses;
}

/** What the evidence is read from: one document's positions. */
export interface DocPositions {
  /**
   * Positions of `term` in the document (title and text), ascending, in a new array (the
   * evidence may shorten it); null when the term does not occur.
   */
  positionsOf(term: string): number[] | null;
  /** The first text position: lower ones are the title's. */
  textStart: number;
  /** Position of each page's first token (an empty page shares the next one's), or null without pages. */
  pageStarts: readonly number[] | null;
}

export interface HitEvidence {
  /** Indexes of the pages where at least one clause is satisfied, ascending; empty without pages. */
  matchedPages: number[];
  /** Index of the best page (0 without pages, or when no page satisfies a clause). */
  bestPage: number;
  /**
   * Text positions of the tokens to mark, each with its term: the satisfied occurrences on the
   * best page, or in the whole text of a document without pages.
   */
  marks: Map<number, string>;
}

/** Index of the first element of the ascending `list` that is ≥ `value`. */
function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Cuts the ascending lists so that together they keep at most `cap` positions: the earliest. */
function capPositions(lists: number[][], cap: number): void {
  let total = 0;
  let last = 0;
  for (const list of lists) {
    total += list.length;
    if (list.length > 0) last = Math.max(last, list[list.length - 1]);
  }
  if (total <= cap) return;
  const countBelow = (horizon: number): number => lists.reduce((sum, list) => sum + lowerBound(list, horizon), 0);
  // Largest horizon h with countBelow(h) ≤ cap: countBelow(low) ≤ cap < countBelow(high).
  let low = 0;
  let high = last + 1;
  while (high - low > 1) {
    const mid = low + Math.floor((high - low) / 2);
    if (countBelow(mid) <= cap) low = mid;
    else high = mid;
  }
  for (const list of lists) list.length = lowerBound(list, low);
}

const NO_POSITIONS: number[] = [];

/** Every term whose positions the clause's evidence reads. */
function termsOf(clause: EvidenceClause): string[] {
  const terms = clause.joined === undefined ? [...clause.terms] : [...clause.terms, clause.joined.term];
  for (const alternative of clause.alternatives ?? []) terms.push(...alternative.terms);
  return terms;
}

/**
 * The evidence of `clauses` in the document `doc` describes. `bestPage`, when given, is the
 * page the ranking scored best (page-ranking.ts): it is the hit's page, and its occurrences
 * are marked, instead of the best page chosen here.
 */
export function findHitEvidence(clauses: readonly EvidenceClause[], doc: DocPositions, cap = MAX_HIT_POSITIONS, bestPage?: number): HitEvidence {
  const { textStart } = doc;
  const pageStarts = doc.pageStarts !== null && doc.pageStarts.length > 0 ? doc.pageStarts : null;
  const pageCount = pageStarts === null ? 1 : pageStarts.length;
  /** One past the last position of page `page` (a document without pages is one page). */
  const pageEnd = (page: number): number => (page + 1 < pageCount ? pageStarts![page + 1] : Infinity);

  // Each term's text positions, once, within the cap.
  const lists = new Map<string, number[]>();
  for (const clause of clauses) {
    for (const term of termsOf(clause)) {
      if (lists.has(term)) continue;
      const positions = doc.positionsOf(term);
      if (positions === null || positions.length === 0) lists.set(term, NO_POSITIONS);
      else lists.set(term, positions[0] >= textStart ? positions : positions.slice(lowerBound(positions, textStart)));
    }
  }
  capPositions([...lists.values()].filter((list) => list !== NO_POSITIONS), cap);

  // Per page, what the clauses satisfied there add up to (summed in clause order).
  const required = new Float64Array(pageCount);
  const optional = new Float64Array(pageCount);
  const occurrences = new Float64Array(pageCount);
  const matched = new Uint8Array(pageCount);
  // Per page, the current clause's weight there (its best alternative) and occurrence count.
  const weight = new Float64Array(pageCount);
  const count = new Uint32Array(pageCount);
  const touched: number[] = [];
  const found = (page: number, idf: number): void => {
    if (count[page] === 0) touched.push(page);
    count[page]++;
    if (idf > weight[page]) weight[page] = idf;
  };
  /** Where a run of terms stands in a row within one page: its starts, ascending. */
  const phraseStartsOf = (terms: readonly string[], idf: number): number[] => {
    const starts: number[] = [];
    const length = terms.length;
    let page = 0;
    for (const start of findPhraseStarts(terms.map((term) => lists.get(term)!))) {
      while (start >= pageEnd(page)) page++;
      if (start + length - 1 >= pageEnd(page)) continue; // runs over a page break
      starts.push(start);
      found(page, idf);
    }
    return starts;
  };
  const termFound = (term: string, idf: number): void => {
    let page = 0;
    for (const position of lists.get(term)!) {
      while (position >= pageEnd(page)) page++;
      found(page, idf);
    }
  };
  /** A phrase clause's starts where it is satisfied, ascending. */
  const phraseStarts: (number[] | null)[] = [];
  /** Per clause, the starts of each alternative that is a phrase (null for a single term). */
  const alternativeStarts: (number[] | null)[][] = [];

  for (const clause of clauses) {
    let starts: number[] | null = null;
    if (clause.kind === 'terms') {
      clause.terms.forEach((term, t) => termFound(term, clause.idfs[t]));
    } else {
      starts = phraseStartsOf(clause.terms, clause.idfs[0]);
      if (clause.joined !== undefined) termFound(clause.joined.term, clause.joined.idf);
    }
    phraseStarts.push(starts);
    alternativeStarts.push(
      (clause.alternatives ?? []).map((alternative) => {
        if (alternative.terms.length > 1) return phraseStartsOf(alternative.terms, alternative.idf);
        termFound(alternative.terms[0], alternative.idf);
        return null;
      }),
    );
    for (const page of touched) {
      if (clause.required) required[page] += weight[page];
      else optional[page] += weight[page];
      occurrences[page] += weight[page] * count[page];
      matched[page] = 1;
      weight[page] = 0;
      count[page] = 0;
    }
    touched.length = 0;
  }

  const matchedPages: number[] = [];
  let best = -1;
  for (let page = 0; page < pageCount; page++) {
    if (matched[page] === 0) continue;
    matchedPages.push(page);
    const better =
      best < 0 ||
      (required[page] !== required[best]
        ? required[page] > required[best]
        : optional[page] !== optional[best]
          ? optional[page] > optional[best]
          : occurrences[page] > occurrences[best]);
    if (better) best = page;
  }

  if (bestPage !== undefined && bestPage >= 0 && bestPage < pageCount) best = bestPage;
  // The satisfied occurrences on the best page (in the whole text without pages).
  const marks = new Map<number, string>();
  if (best >= 0) {
    const from = pageStarts === null ? textStart : pageStarts[best];
    const to = pageEnd(best);
    const markTerm = (term: string): void => {
      const list = lists.get(term)!;
      for (let k = lowerBound(list, from); k < list.length && list[k] < to; k++) marks.set(list[k], term);
    };
    const markPhrase = (terms: readonly string[], starts: readonly number[]): void => {
      for (let k = lowerBound(starts, from); k < starts.length && starts[k] < to; k++) {
        terms.forEach((term, i) => marks.set(starts[k] + i, term));
      }
    };
    clauses.forEach((clause, c) => {
      const starts = phraseStarts[c];
      if (starts === null) for (const term of clause.terms) markTerm(term);
      else markPhrase(clause.terms, starts);
      if (clause.joined !== undefined) markTerm(clause.joined.term);
      (clause.alternatives ?? []).forEach((alternative, a) => {
        const alternativeStart = alternativeStarts[c][a];
        if (alternativeStart === null) markTerm(alternative.terms[0]);
        else markPhrase(alternative.terms, alternativeStart);
      });
    });
  }
  return { matchedPages: pageStarts === null ? [] : matchedPages, bestPage: Math.max(best, 0), marks };
}
