// Turns a batch of documents into in-memory postings, with no per-term or per-token objects:
// every token becomes its term's id (dense, from a TermInterner) in one token stream, then a
// counting sort groups the token numbers by term. A term's occurrences are thus one ascending
// slice of token numbers; the doc and position of each follow from the docs' token starts.
// The segment writer encodes this.

import type { Analyzer } from '../analysis/index.ts';
import { TermInterner } from '../analysis/index.ts';
import type { IndexDocument, PageInfo } from '../document.ts';
import { TITLE_TEXT_GAP } from './segment-format.ts';
import { U32List } from './u32-list.ts';
import { newArray } from '../../storage/index.ts';

/**
 * The inverted batch. Token numbers count every kept token of every doc in doc order, title
 * tokens before text tokens. Doc d holds tokens docStarts[d] … docStarts[d + 1] - 1; its local
 * token i is at position i in the title (i < titleLengths[d]), else i + TITLE_TEXT_GAP.
 */
export interface InvertedBatch {
  /** Terms by id (first-seen order). */
  terms: readonly string[];
  /** Term t occurs at occurrences[termStarts[t]] … occurrences[termStarts[t + 1] - 1]. */
  termStarts: Uint32Array;
  /** Token numbers grouped by term, ascending within each term. */
  occurrences: Uint32Array;
  /** docs + 1 entries: each doc's first token number, then the token count. */
  docStarts: Uint32Array;
  titleLengths: Uint32Array;
  textLengths: Uint32Array;
  /** Per doc: absolute position of each page's first token (null for unpaged documents). */
  pageStarts: (number[] | null)[];
  /** Each raw token (as written) of the batch with its term's id. */
  rawTokens: ReadonlyMap<string, number>;
}

/** A token number that belongs to no term: a gap between two values of a metadata field. */
export const NO_TERM = 0xffffffff;

/** Position of a doc's local token `local` (see InvertedBatch). */
export function tokenPosition(local: number, titleLength: number): number {
  return local < titleLength ? local : local + TITLE_TEXT_GAP;
}

export function invertDocuments(docs: readonly IndexDocument[], analyzer: Analyzer): InvertedBatch {
  const interner = new TermInterner({ collectRawTokens: true });
  const tokens = new U32List(1 << 16);
  const docStarts = new Uint32Array(docs.length + 1);
  const titleLengths = new Uint32Array(docs.length);
  const textLengths = new Uint32Array(docs.length);
  const pageStarts: (number[] | null)[] = new Array(docs.length);

  // Page tracking of the current paged document (pages === null for all others).
  let pages: PageInfo[] | null = null;
  let starts: number[] = [];
  let nextPage = 0;
  let textBase = 0;
  let textStart = 0;
  const visit = (termId: number, start: number): void => {
    if (pages !== null) {
      while (nextPage < pages.length && start >= pages[nextPage].offset) {
        starts.push(textBase + tokens.length - textStart);
        nextPage++;
      }
    }
    tokens.push(termId);
  };

  for (let doc = 0; doc < docs.length; doc++) {
    const document = docs[doc];
    docStarts[doc] = tokens.length;
    pages = null;
    const titleLength = document.title ? analyzer.forEachTermId(document.title, interner, visit) : 0;
    titleLengths[doc] = titleLength;
    const paged = document.pages !== null && document.pages.length > 0;
    if (paged) {
      pages = document.pages;
      starts = [];
      nextPage = 0;
      textBase = titleLength + TITLE_TEXT_GAP;
      textStart = tokens.length;
    }
    const textLength = analyzer.forEachTermId(document.text, interner, visit);
    textLengths[doc] = textLength;
    if (paged) {
      while (starts.length < pages!.length) starts.push(textBase + textLength);
      pageStarts[doc] = starts;
    } else {
      pageStarts[doc] = null;
    }
  }
  pages = null;
  docStarts[docs.length] = tokens.length;

  const { termStarts, occurrences } = groupByTerm(tokens.view(), interner.size);
  return { terms: interner.terms, termStarts, occurrences, docStarts, titleLengths, textLengths, pageStarts, rawTokens: interner.rawTokens! };
}

/** Counting sort of token numbers by term id; tokens of id NO_TERM (a gap) go nowhere. */
export function groupByTerm(tokens: Uint32Array, termCount: number): { termStarts: Uint32Array; occurrences: Uint32Array } {
  const termStarts = newArray(Uint32Array, termCount + 1);
  let gaps = 0;
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k] === NO_TERM) gaps++;
    else termStarts[tokens[k] + 1]++;
  }
  for (let t = 0; t < termCount; t++) termStarts[t + 1] += termStarts[t];
  const fill = termStarts.slice(0, termCount);
  const occurrences = newArray(Uint32Array, tokens.length - gaps);
  for (let k = 0; k < tokens.length; k++) if (tokens[k] !== NO_TERM) occurrences[fill[tokens[k]]++] = k;
  return { termStarts, occurrences };
}
