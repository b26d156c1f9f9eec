// "Did you mean" (docs/api.md, "Search" `suggestions`): when a search finds nothing, up to MAX_SUGGESTIONS
// alternative queries, each the query text with its unknown words replaced by typo corrections
// found in the collection. A word is unknown when no segment has its analyzed term; its
// corrections are its typo variants (typo-expansions.ts: fewest typos, then most documents),
// allowing more than a search does (two typos from 5 characters, one from 3), shown as a word a
// document really contains (the stored text around one occurrence, not the stem). The first
// suggestion takes every word's best correction; the others change one word to its next best.
// Everything else of the query text — operators, quotes, other words — is kept as typed.
// Bounded: at most MAX_SUGGESTED_WORDS words are corrected, each with one automaton walk per
// segment, and a surface form reads at most SURFACE_DOCS_LOOKED_AT postings and one document.

import type { Analyzer, Token } from '../analysis/index.ts';
import { NO_MORE_DOCS } from '../segment/postings-cursor.ts';
import type { Suggestion } from './search-types.ts';
import type { SegmentView } from './segment-view.ts';
import { typoVariants } from './typo-expansions.ts';

/** Alternative queries offered at most. */
export const MAX_SUGGESTIONS = 3;
/** Unknown words of one query corrected at most (the first ones). */
export const MAX_SUGGESTED_WORDS = 8;
/** Corrections considered per word. */
const CORRECTIONS_PER_WORD = 3;
/** Words shorter than this (in characters) are never corrected. */
export const MIN_SUGGESTED_WORD_LENGTH = 3;
/** From this many characters a correction may have two typos. */
const TWO_TYPO_SUGGESTION_LENGTH = 5;
/** Documents of a term's postings looked at to find one to read its surface form from. */
const SURFACE_DOCS_LOOKED_AT = 16;
/** Characters of a document's text read to find a surface form. */
const SURFACE_SCAN_CHARS = 64 * 1024;

interface Correction {
  text: string;
  typos: number;
  docFreq: number;
}

interface UnknownWord {
  token: Token;
  corrections: Correction[];
}

export function suggestQueries(q: string, analyzer: Analyzer, views: readonly SegmentView[]): Suggestion[] {
  const words: UnknownWord[] = [];
  for (const token of analyzer.tokenize(q)) {
    if (words.length >= MAX_SUGGESTED_WORDS) break;
    const typed = q.slice(token.start, token.end);
    const length = [...typed].length;
    if (length < MIN_SUGGESTED_WORD_LENGTH || /^\p{N}+$/u.test(typed) || !isCorrectable(q, token)) continue;
    if (views.some(({ reader }) => reader.terms.find(token.term) >= 0)) continue;
    const maxTypos = length >= TWO_TYPO_SUGGESTION_LENGTH ? 2 : 1;
    const variants = typoVariants(token.term, maxTypos, views, CORRECTIONS_PER_WORD);
    if (variants.length === 0) continue;
    const lower = typed === typed.toLowerCase();
    const corrections = variants.map(({ term, typos, docFreq }) => {
      const surface = surfaceForm(term, analyzer, views);
      return { text: lower ? surface.toLowerCase() : surface, typos, docFreq };
    });
    words.push({ token, corrections });
  }
  if (words.length === 0) return [];

  const choices: number[][] = [words.map(() => 0)];
  // The runners-up: one word changed to a later correction, the fewest extra typos first, then
  // the most documents.
  const changes: { word: number; rank: number; typos: number; docFreq: number }[] = [];
  words.forEach(({ corrections }, word) => {
    for (let rank = 1; rank < corrections.length; rank++) {
      changes.push({ word, rank, typos: corrections[rank].typos - corrections[0].typos, docFreq: corrections[rank].docFreq });
    }
  });
  changes.sort((a, b) => a.typos - b.typos || b.docFreq - a.docFreq || a.word - b.word);
  for (const change of changes) {
    const choice = words.map(() => 0);
    choice[change.word] = change.rank;
    choices.push(choice);
  }

  const suggestions: Suggestion[] = [];
  const seen = new Set<string>([q]);
  for (const choice of choices) {
    if (suggestions.length >= MAX_SUGGESTIONS) break;
    let text = '';
    let at = 0;
    words.forEach(({ token, corrections }, word) => {
      text += q.slice(at, token.start) + corrections[choice[word]].text;
      at = token.end;
    });
    text += q.slice(at);
    if (seen.has(text)) continue;
    seen.add(text);
    suggestions.push({ text });
  }
  return suggestions;
}

/**
 * False for a token a correction would not help: part of an excluded word (`-x`), a prefix
 * (`x*`), or the `title`/`text` of a field scope (`title:x`).
 */
function isCorrectable(q: string, token: Token): boolean {
  let partStart = token.start;
  while (partStart > 0 && !/\s/u.test(q[partStart - 1])) partStart--;
  if (q[partStart] === '-') return false;
  const after = q[token.end];
  if (after === '*') return false;
  if (after === ':' && /^(title|text)$/i.test(q.slice(token.start, token.end))) return false;
  return true;
}

/** A word some document has that analyzes to `term` (the stem itself when none is found). */
function surfaceForm(term: string, analyzer: Analyzer, views: readonly SegmentView[]): string {
  for (const { reader } of views) {
    const index = reader.terms.find(term);
    if (index < 0) continue;
    const cursor = reader.postings(index);
    // The shortest of the first few documents, and its title when the term is in it.
    let best = -1;
    let inTitle = false;
    let bestLength = Infinity;
    for (let n = 0, doc = cursor.next(); n < SURFACE_DOCS_LOOKED_AT && doc !== NO_MORE_DOCS; n++, doc = cursor.next()) {
      const title = cursor.titleTf() > 0;
      const length = title ? reader.titleLengths[doc] : reader.textLengths[doc];
      if ((title && !inTitle) || (title === inTitle && length < bestLength)) {
        best = doc;
        inTitle = title;
        bestLength = length;
      }
    }
    if (best < 0) continue;
    const document = reader.document(best);
    const source = (inTitle ? document.title ?? '' : document.text).slice(0, SURFACE_SCAN_CHARS);
    const token = analyzer.tokenize(source).find((candidate) => candidate.term === term);
    if (token !== undefined) return source.slice(token.start, token.end);
  }
  return term;
}
