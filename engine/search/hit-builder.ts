// Turns a ranked (segment, doc) into a SearchHit: the stored document, the pages where query
// terms occur (from the postings' positions, no re-analysis), the best page, and a snippet with
// highlights cut from that page's text.

import type { Analyzer } from '../analysis/analyzer.ts';
import { buildSnippet, SNIPPET_MAX_CHARS } from '../highlight/snippet.ts';
import { TITLE_TEXT_GAP } from '../segment/segment-format.ts';
import type { PreparedClause } from './clause-weights.ts';
import type { ScoreExplanation, SearchHit } from './search-types.ts';
import type { SegmentView } from './segment-view.ts';

/** A term whose occurrences locate the best page, with its idf as its importance. */
interface LocatorTerm {
  term: string;
  idf: number;
}

/** The positive, text-searching terms of the query, each once. */
export function locatorTerms(prepared: readonly PreparedClause[]): LocatorTerm[] {
  const terms = new Map<string, number>();
  const add = (term: string, idf: number): void => {
    terms.set(term, Math.max(idf, terms.get(term) ?? 0));
  };
  for (const { clause, weight, expansions } of prepared) {
    if (clause.occur === 'must_not' || clause.field === 'title') continue;
    if (clause.kind === 'term') add(clause.term, weight!.idf);
    else if (clause.kind === 'phrase') for (const term of clause.terms) add(term, weight!.idf / clause.terms.length);
    else for (const expansion of expansions) add(expansion.term, expansion.weight.idf);
  }
  return [...terms].map(([term, idf]) => ({ term, idf }));
}

export interface HitOptions {
  analyzer: Analyzer;
  isMatch: (term: string) => boolean;
  highlightTag: string;
  locators: LocatorTerm[];
}

export function buildHit(view: SegmentView, doc: number, score: number, options: HitOptions, explain?: ScoreExplanation): SearchHit {
  const { reader } = view;
  const { document, pageStarts } = reader.storedRecord(doc);
  let snippetText = document.text;
  let page: number | null = null;
  let pageLabel: string | null = null;
  let matchedPages: number[] = [];

  const pages = document.pages;
  if (pages !== null && pages.length > 0 && pageStarts !== null) {
    const textStart = reader.titleLengths[doc] + TITLE_TEXT_GAP;
    const pageWeights = new Map<number, number>();
    const positions: number[] = [];
    for (const { term, idf } of options.locators) {
      const index = reader.terms.find(term);
      if (index < 0) continue;
      const cursor = reader.postings(index);
      if (cursor.advance(doc) !== doc) continue;
      const seen = new Set<number>();
      for (const position of cursor.positions(positions)) {
        if (position < textStart) continue;
        const pageIndex = pageOf(pageStarts, position);
        // Each distinct term adds its idf once per page; repeats add a little.
        pageWeights.set(pageIndex, (pageWeights.get(pageIndex) ?? 0) + (seen.has(pageIndex) ? idf * 0.01 : idf));
        seen.add(pageIndex);
      }
    }
    let best = 0;
    let bestWeight = -1;
    for (const [pageIndex, weight] of pageWeights) {
      if (weight > bestWeight || (weight === bestWeight && pageIndex < best)) {
        best = pageIndex;
        bestWeight = weight;
      }
    }
    matchedPages = [...pageWeights.keys()].sort((a, b) => a - b).map((i) => pages[i].number);
    page = pages[best].number;
    pageLabel = pages[best].label;
    snippetText = document.text.slice(pages[best].offset, best + 1 < pages.length ? pages[best + 1].offset : undefined);
  }

  const { snippet, highlight } = buildSnippet(snippetText, options.analyzer, options.isMatch, {
    maxChars: SNIPPET_MAX_CHARS,
    tag: options.highlightTag,
  });
  const hit: SearchHit = {
    id: document.id,
    title: document.title,
    score,
    format: document.format,
    page,
    pageLabel,
    snippet,
    highlight,
    metadata: document.metadata,
    matchedPages,
  };
  if (explain !== undefined) hit.explain = explain;
  return hit;
}

/** Index of the page holding `position`: the last page starting at or before it. */
function pageOf(pageStarts: number[], position: number): number {
  let low = 0;
  let high = pageStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (pageStarts[mid] <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}
