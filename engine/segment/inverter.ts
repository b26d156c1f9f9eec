// Turns a batch of documents into in-memory postings: for every term, the docs it occurs in
// with their title and text term frequencies and positions. The segment writer encodes this.

import type { Analyzer } from '../analysis/analyzer.ts';
import type { IndexDocument } from '../document.ts';
import { TITLE_TEXT_GAP } from './segment-format.ts';

/** Postings of one term, in doc order. `positions` holds each doc's positions back to back. */
export class TermPostings {
  readonly docs: number[] = [];
  readonly titleTfs: number[] = [];
  readonly textTfs: number[] = [];
  readonly positions: number[] = [];
  lastDoc = -1;
}

export interface InvertedBatch {
  terms: Map<string, TermPostings>;
  titleLengths: Uint32Array;
  textLengths: Uint32Array;
  /** Per doc: absolute position of each page's first token (null for unpaged documents). */
  pageStarts: (number[] | null)[];
}

export function invertDocuments(docs: readonly IndexDocument[], analyzer: Analyzer): InvertedBatch {
  const terms = new Map<string, TermPostings>();
  const titleLengths = new Uint32Array(docs.length);
  const textLengths = new Uint32Array(docs.length);
  const pageStarts: (number[] | null)[] = new Array(docs.length);

  let doc = 0;
  let inTitle = true;
  let base = 0;
  const visit = (term: string, position: number): void => {
    let postings = terms.get(term);
    if (postings === undefined) {
      postings = new TermPostings();
      terms.set(term, postings);
    }
    if (postings.lastDoc !== doc) {
      postings.lastDoc = doc;
      postings.docs.push(doc);
      postings.titleTfs.push(0);
      postings.textTfs.push(0);
    }
    const last = postings.docs.length - 1;
    if (inTitle) postings.titleTfs[last]++;
    else postings.textTfs[last]++;
    postings.positions.push(base + position);
  };

  for (doc = 0; doc < docs.length; doc++) {
    const document = docs[doc];
    inTitle = true;
    base = 0;
    const titleLength = document.title ? analyzer.forEachToken(document.title, visit) : 0;
    inTitle = false;
    base = titleLength + TITLE_TEXT_GAP;
    titleLengths[doc] = titleLength;
    const pages = document.pages;
    if (pages === null || pages.length === 0) {
      textLengths[doc] = analyzer.forEachToken(document.text, visit);
      pageStarts[doc] = null;
      continue;
    }
    // Paged text: note the first token position of every page as tokens stream by.
    const starts: number[] = [];
    let nextPage = 0;
    const pagedVisit = (term: string, position: number, start: number): void => {
      while (nextPage < pages.length && start >= pages[nextPage].offset) {
        starts.push(base + position);
        nextPage++;
      }
      visit(term, position);
    };
    const textLength = analyzer.forEachToken(document.text, pagedVisit);
    while (starts.length < pages.length) starts.push(base + textLength);
    textLengths[doc] = textLength;
    pageStarts[doc] = starts;
  }
  return { terms, titleLengths, textLengths, pageStarts };
}
