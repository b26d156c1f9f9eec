// Pages as the unit of evidence (issue 14 point 1): a paged document is ranked by its
// best-matching page, as if the page were a document of its own, plus a small part of its
// whole-document score — BM25 max-passage. A 300-page manual whose chapter answers the query
// then competes with its chapter's pages, not with its length.
//
// It runs over the top candidates of the document-level ranking (a rescoring window, as
// Elasticsearch's rescore does), and only in collections that have paged documents; a
// collection without pages ranks exactly as before. In such a collection every candidate is
// scored the same way — a document without pages is one page — so scores compare:
//
//   score = (1 − DOCUMENT_SHARE) × best page score + DOCUMENT_SHARE × document score
//
// A page's score is BM25F over the document's title and the page's text, with the page's
// length normalised against the collection's average page (a document without pages counts
// as one page), the query's idfs and field weights. Clauses score on a page as they do on a
// document: a word (with its typo variants) by its best form there, a prefix by its best
// expansion, a phrase by its occurrences on that page only. Two more parts, measured on the
// pages benchmark: proximity (consecutive query words close together on the page score more)
// and contents pages (a table of contents counts CONTENTS_PAGE_FACTOR). Excluded clauses were
// applied by the document ranking already. Bounded: per document, at most MAX_HIT_POSITIONS
// positions of each term are used (the earliest); a search reads about MAX_RANKING_POSITIONS
// in all, the candidates past that keeping their document score; the work is linear in the
// positions and in the pages touched.

import type { SegmentReader } from '../segment/segment-reader.ts';
import { PAGE_FLAG, TITLE_TEXT_GAP } from '../segment/segment-format.ts';
import { Bm25fWeight } from './bm25.ts';
import type { CollectionStatistics } from './bm25.ts';
import type { PreparedClause } from './clauses/index.ts';
import { MAX_HIT_POSITIONS } from './hit-evidence.ts';
import { findPhraseStarts } from './phrase-starts.ts';
import type { SegmentView } from './segment-view.ts';

/** Document-level candidates rescored by their pages (or the whole k when larger). */
export const PAGE_RANKING_WINDOW = 100;
/**
 * Term positions one search's page ranking may read, over all its candidates (a query of many
 * frequent words over many long documents would otherwise read millions); once spent, the
 * remaining candidates keep their document score.
 */
export const MAX_RANKING_POSITIONS = 1 << 21;
/** The whole document's share of a candidate's score; the best page has the rest. */
export const DOCUMENT_SHARE = 0.3;
/**
 * A contents page's text counts this much (PAGE_FLAG.contents): it holds every section title's
 * words together, so unweighted it beats the section it points to.
 */
export const CONTENTS_PAGE_FACTOR = 0.3;
/**
 * What the closest pair of consecutive query words on a page adds, per idf (addProximity).
 * Chosen on the pages benchmark's train queries (doc@1 / page@1: 75.5 / 49.0 % without, 78.8 /
 * 56.3 at 0.5, 81.5 / 59.6 at 1, 80.8 / 60.9 at 1.5 and 2, 80.8 / 61.6 at 3). On SciFact (no
 * pages; train nDCG@10 0.7116 without) it hurt — 0.7057 at 1, 0.6896 at 3 — so it applies
 * where ranking is by pages only: collections with paged documents.
 */
export const PROXIMITY_WEIGHT = 2;

export interface RankedCandidate {
  segment: number;
  doc: number;
  score: number;
  /** The best-scoring page's index (set by rankByPages for a document with pages). */
  bestPage?: number;
}

/** One form a clause matches on a page: its terms (one, or a phrase's in a row) and weight. */
interface PageForm {
  terms: string[];
  phrase: boolean;
  weight: Bm25fWeight;
}

/** Statistics where a page is the unit: the average text length per page. */
export function pageStatistics(stats: CollectionStatistics, views: readonly SegmentView[]): CollectionStatistics {
  if (stats.avgPageTextLength !== undefined) return { ...stats, avgTextLength: stats.avgPageTextLength };
  let units = 0;
  let textLength = 0;
  for (const { reader } of views) {
    units += reader.docCount - reader.pagedDocCount + reader.pageCount;
    textLength += reader.sumTextLength;
  }
  return { ...stats, avgTextLength: units > 0 ? textLength / units : stats.avgTextLength };
}

/** A positive clause's forms, and whether a page must satisfy it first (a required text clause). */
interface PageClause {
  forms: PageForm[];
  requiredOnPages: boolean;
  /** A word clause (its forms are single terms) that takes part in proximity. */
  word: boolean;
  /** Its idf (a word's exact form). */
  idf: number;
}

/** Each positive clause's forms, weighted for pages. */
function pageClauses(prepared: readonly PreparedClause[], pageStats: CollectionStatistics): PageClause[] {
  const reweigh = (weight: Bm25fWeight): Bm25fWeight => new Bm25fWeight(weight.idf, pageStats, weight.field, weight.boost);
  const clauses: PageClause[] = [];
  for (const { clause, own, alternatives } of prepared) {
    if (clause.occur === 'must_not') continue;
    const forms: PageForm[] = (own === null ? alternatives : [own, ...alternatives]).map((form) => ({ terms: form.terms, phrase: form.terms.length > 1, weight: reweigh(form.weight) }));
    clauses.push({
      forms,
      requiredOnPages: clause.occur === 'must' && clause.field !== 'title',
      // A word (its own form one term) takes part in proximity.
      word: own !== null && own.terms.length === 1 && clause.field !== 'title',
      idf: own?.weight.idf ?? 0,
    });
  }
  return clauses;
}

/**
 * Rescores `candidates` (best first) by their best page and returns them best first; ties keep
 * the document ranking's order. `multiplierOf` gives a candidate's field boosts (its score has them).
 */
export function rankByPages(
  candidates: readonly RankedCandidate[],
  views: readonly SegmentView[],
  prepared: readonly PreparedClause[],
  stats: CollectionStatistics,
  maxPositions = MAX_RANKING_POSITIONS,
  multiplierOf: (candidate: RankedCandidate) => number = () => 1,
): RankedCandidate[] {
  const clauses = pageClauses(prepared, pageStatistics(stats, views));
  const budget = { positions: maxPositions };
  const rescored = candidates.map((candidate, order) => {
    // Past the budget, a candidate keeps its document score (a document is one page).
    if (budget.positions <= 0) return { candidate, order };
    const { score, page } = bestPage(views[candidate.segment].reader, candidate.doc, clauses, budget);
    // A candidate's score carries its field boosts (field-boosts.ts): its page's score gets them too.
    const pageScore = (1 - DOCUMENT_SHARE) * score * multiplierOf(candidate);
    return { candidate: { ...candidate, score: pageScore + DOCUMENT_SHARE * candidate.score, bestPage: page }, order };
  });
  rescored.sort((a, b) => b.candidate.score - a.candidate.score || a.order - b.order);
  return rescored.map(({ candidate }) => candidate);
}

/**
 * The document's best page (its whole text when it has no pages) and its score: the page
 * satisfying the most weight (idf) of required clauses, then the best-scoring one, then the
 * earlier; with no page matching any clause, the first page.
 */
function bestPage(reader: SegmentReader, doc: number, clauses: readonly PageClause[], budget: { positions: number }): { score: number; page: number } {
  const titleLength = reader.titleLengths[doc];
  const textStart = titleLength + TITLE_TEXT_GAP;
  const textEnd = textStart + reader.textLengths[doc];
  const starts = reader.pageStarts(doc) ?? [textStart];
  const flags = reader.pageFlags(doc);
  const pageCount = starts.length;
  const pageEnd = (page: number): number => (page + 1 < pageCount ? starts[page + 1] : textEnd);

  const positions = new Map<string, number[]>();
  const positionsOf = (term: string): number[] => {
    let list = positions.get(term);
    if (list === undefined) {
      list = [];
      const index = reader.terms.find(term);
      if (index >= 0) {
        const cursor = reader.postings(index);
        if (cursor.advance(doc) === doc) {
          cursor.positions(list);
          budget.positions -= list.length;
          if (list.length > MAX_HIT_POSITIONS) list.length = MAX_HIT_POSITIONS;
        }
      }
      positions.set(term, list);
    }
    return list;
  };

  /** Per page: the clauses' summed best scores there; plus what every page gets (title only). */
  const totals = new Float64Array(pageCount);
  let everyPage = 0;
  // Per page, the current clause's best form score, and its per-form text frequency.
  const clauseBest = new Float64Array(pageCount);
  const tf = new Uint32Array(pageCount);
  const touched: number[] = [];
  const clauseTouched: number[] = [];
  const inClause = new Uint8Array(pageCount);
  /** Per page: the idf of the required clauses satisfied there, and the current clause's. */
  const required = new Float64Array(pageCount);
  const clauseIdf = new Float64Array(pageCount);

  for (const { forms, requiredOnPages } of clauses) {
    let titleOnlyBest = 0;
    for (const form of forms) {
      const occurrences = form.phrase ? findPhraseStarts(form.terms.map(positionsOf)) : positionsOf(form.terms[0]);
      let titleTf = 0;
      let page = 0;
      for (const position of occurrences) {
        if (position < textStart) {
          titleTf++;
          continue;
        }
        if (form.weight.field === 'title') break; // a form that may only match the title
        while (position >= pageEnd(page)) page++;
        // A phrase running over a page break is on neither page.
        if (form.phrase && position + form.terms.length - 1 >= pageEnd(page)) continue;
        if (tf[page] === 0) touched.push(page);
        tf[page]++;
      }
      const titleOnly = titleTf > 0 ? form.weight.score(titleTf, titleLength, 0, 0) : 0;
      if (titleOnly > titleOnlyBest) titleOnlyBest = titleOnly;
      for (const p of touched) {
        const score = form.weight.score(titleTf, titleLength, tf[p], pageEnd(p) - starts[p]);
        if (inClause[p] === 0) {
          inClause[p] = 1;
          clauseTouched.push(p);
          clauseBest[p] = score;
          clauseIdf[p] = form.weight.idf;
        } else {
          if (score > clauseBest[p]) clauseBest[p] = score;
          if (form.weight.idf > clauseIdf[p]) clauseIdf[p] = form.weight.idf;
        }
        tf[p] = 0;
      }
      touched.length = 0;
    }
    // Pages the clause's text forms missed still have its title matches.
    everyPage += titleOnlyBest;
    for (const p of clauseTouched) {
      totals[p] += Math.max(clauseBest[p], titleOnlyBest) - titleOnlyBest;
      if (requiredOnPages) required[p] += clauseIdf[p];
      inClause[p] = 0;
    }
    clauseTouched.length = 0;
  }
  if (PROXIMITY_WEIGHT > 0) addProximity(clauses, positionsOf, textStart, pageEnd, totals);
  if (flags !== null) for (let p = 0; p < pageCount; p++) if ((flags[p] & PAGE_FLAG.contents) !== 0) totals[p] *= CONTENTS_PAGE_FACTOR;
  let page = 0;
  for (let p = 1; p < pageCount; p++) {
    if (required[p] !== required[page] ? required[p] > required[page] : totals[p] > totals[page]) page = p;
  }
  return { score: totals[page] + everyPage, page };
}

/**
 * Proximity (Meilisearch's rule, Tao & Zhai's MinDist): for each pair of consecutive words of
 * the query, a page where both occur gains PROXIMITY_WEIGHT × the rarer one's idf ÷ the least
 * distance between them there (1 when adjacent, in either order).
 */
function addProximity(
  clauses: readonly PageClause[],
  positionsOf: (term: string) => number[],
  textStart: number,
  pageEnd: (page: number) => number,
  totals: Float64Array,
): void {
  const words = clauses.filter((clause) => clause.word);
  if (words.length < 2) return;
  const merged = words.map(({ forms }) => {
    const lists = forms.map((form) => positionsOf(form.terms[0]));
    const all = lists.length === 1 ? lists[0] : lists.flat().sort((a, b) => a - b);
    let first = 0;
    while (first < all.length && all[first] < textStart) first++;
    return first === 0 ? all : all.slice(first);
  });
  const best = new Float64Array(totals.length);
  for (let w = 0; w + 1 < words.length; w++) {
    const a = merged[w];
    const b = merged[w + 1];
    if (a.length === 0 || b.length === 0) continue;
    const idf = Math.min(words[w].idf, words[w + 1].idf);
    // Merge the two lists in position order; each neighbour pair from different lists on one page.
    let i = 0;
    let j = 0;
    let page = 0;
    let last = -1;
    let lastList = -1;
    const touched: number[] = [];
    while (i < a.length || j < b.length) {
      const fromA = j >= b.length || (i < a.length && a[i] <= b[j]);
      const position = fromA ? a[i++] : b[j++];
      const list = fromA ? 0 : 1;
      while (position >= pageEnd(page)) {
        page++;
        last = -1;
      }
      if (last >= 0 && lastList !== list && position > last) {
        const gain = idf / (position - last);
        if (best[page] === 0) touched.push(page);
        if (gain > best[page]) best[page] = gain;
      }
      last = position;
      lastList = list;
    }
    for (const p of touched) {
      totals[p] += PROXIMITY_WEIGHT * best[p];
      best[p] = 0;
    }
  }
}
