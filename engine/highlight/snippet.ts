// Builds a hit's `snippet` and `highlight` (docs/api.md, "Search"): a short excerpt of the text around the
// best match, as plain text and as HTML with each matched token wrapped in the highlight tag.
//
// - The excerpt is centred on the window (at most maxChars) holding the most distinct
//   matched terms; ties go to the most matches, then the earliest (best-window.ts).
// - It is widened with context to maxChars, cut at word boundaries, whitespace runs are
//   collapsed to one space, and "…" marks where text was cut at either end. Including the
//   "…", a snippet is never longer than maxChars.
// - No match in the text: the beginning of the text, same rules, no marks.
// - `highlight` is `snippet` HTML-escaped with matched tokens wrapped as <tag>…</tag>: removing
//   the tags and unescaping gives back `snippet` exactly, and document text can never inject
//   markup. The tag name is trusted (the server validates it as ^[a-z][a-z0-9-]*$).
// - Which tokens are matches is the caller's to say: the search path gives the matched tokens
//   themselves (`snippetOfMatches`), located from the postings' positions — a phrase's words
//   are matches only where they stand together — so the text is not analyzed again, and
//   nothing past the last match is read. `buildSnippet` instead tokenizes the whole text and
//   asks a matcher by term and position (the token's number, as the analyzer counts them).
// - The matches feed a sliding window in one pass; the marks are the matches inside the excerpt.

import type { Analyzer } from '../analysis/index.ts';
import { SEPARATOR, WORD, charClassAt, isHighSurrogate, isLowSurrogate } from '../analysis/index.ts';
import type { CharClass } from '../analysis/index.ts';
import { BestWindowFinder } from './best-window.ts';
import { escapeHtml } from './escape-html.ts';

export interface SnippetOptions {
  /** Longest snippet in characters, "…" included (default SNIPPET_MAX_CHARS; at least MIN_SNIPPET_CHARS). */
  maxChars: number;
  /** Element wrapped round matched terms, e.g. `mark` (already validated). */
  tag: string;
}

export interface Snippet {
  /** Plain-text excerpt. */
  snippet: string;
  /** The same excerpt, HTML-escaped, matched tokens wrapped in the tag. */
  highlight: string;
}

/**
 * Tells whether the token at `position` (its number in the text, counting from 0) whose
 * analyzed term is `term` is a match to mark.
 */
export type TokenMatcher = (term: string, position: number) => boolean;

/** A matched token of the text: its term, position (token number) and offsets [start, end). */
export interface SnippetMatch {
  term: string;
  position: number;
  start: number;
  end: number;
}

/** Default snippet length (docs/api.md, "Search": "at most about 240 characters"). */
export const SNIPPET_MAX_CHARS = 240;
/** Smaller maxChars values are raised to this. */
export const MIN_SNIPPET_CHARS = 16;
/** Marks text cut off at the start or the end of the excerpt. */
export const ELLIPSIS = '…';
/** Share of the spare room put before the matches (the rest goes after them). */
const LEADING_CONTEXT_SHARE = 1 / 3;
/** How far to look for a word boundary before cutting a word in the middle. */
const BOUNDARY_SEARCH = 24;
/** Punctuation that should not start an excerpt ("…, the" reads as "…the"). */
const CLOSING_PUNCTUATION = new Set([...',.;:!?)]}»”’-–—']);
/** Punctuation that should not end an excerpt. */
const OPENING_PUNCTUATION = new Set([...'([{«“‘']);
const WHITESPACE_RUN = /\s+/g;

/** True for the characters JavaScript's `\s` matches. */
function isWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Class of the character at `index`; the second half of a surrogate pair counts with its first. */
function classAt(text: string, index: number): CharClass {
  if (index < 0 || index >= text.length) return SEPARATOR;
  if (isLowSurrogate(text.charCodeAt(index)) && index > 0 && isHighSurrogate(text.charCodeAt(index - 1))) {
    return charClassAt(text, index - 1);
  }
  return charClassAt(text, index);
}

/** Would cutting before `index` split a word? (Ideographs are words of their own: never.) */
function isMidWord(text: string, index: number): boolean {
  return classAt(text, index - 1) === WORD && classAt(text, index) === WORD;
}

/** Does `index` fall between the two halves of a surrogate pair? */
function splitsPair(text: string, index: number): boolean {
  return (
    index > 0 &&
    index < text.length &&
    isLowSurrogate(text.charCodeAt(index)) &&
    isHighSurrogate(text.charCodeAt(index - 1))
  );
}

/** Moves a cut start off a word's middle and past whitespace and closing punctuation, never beyond `limit`. */
function adjustStart(text: string, from: number, limit: number): number {
  let start = from;
  if (isMidWord(text, start)) {
    let k = start + 1;
    const stop = Math.min(limit, start + BOUNDARY_SEARCH);
    while (k < stop && isMidWord(text, k)) k++;
    if (!isMidWord(text, k) || k === limit) start = k;
  }
  if (splitsPair(text, start)) start++;
  while (start < limit) {
    const code = text.charCodeAt(start);
    if (!isWhitespace(code) && !CLOSING_PUNCTUATION.has(text[start])) break;
    start++;
  }
  return start;
}

/** Moves a cut end off a word's middle and before whitespace and opening punctuation, never before `limit`. */
function adjustEnd(text: string, to: number, limit: number): number {
  let end = to;
  if (isMidWord(text, end)) {
    let k = end - 1;
    const stop = Math.max(limit, end - BOUNDARY_SEARCH);
    while (k > stop && isMidWord(text, k)) k--;
    if (!isMidWord(text, k) || k === limit) end = k;
  }
  if (splitsPair(text, end)) end--;
  while (end > limit) {
    const code = text.charCodeAt(end - 1);
    if (!isWhitespace(code) && !OPENING_PUNCTUATION.has(text[end - 1])) break;
    end--;
  }
  return end;
}

/** Is there anything but whitespace in text[from, to)? */
function hasContent(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWhitespace(text.charCodeAt(i))) return true;
  return false;
}

/** The snippet and highlight of `text`, marking the tokens `isMatch` accepts (the whole text is tokenized). */
export function buildSnippet(text: string, analyzer: Analyzer, isMatch: TokenMatcher, options: SnippetOptions): Snippet {
  const matches: SnippetMatch[] = [];
  analyzer.forEachToken(text, (term, position, start, end) => {
    if (isMatch(term, position)) matches.push({ term, position, start, end });
  });
  return snippetOfMatches(text, matches, options);
}

/**
 * The snippet and highlight of `text` around the given matched tokens (in text order): the
 * search path, which locates them from the postings' positions without tokenizing the rest.
 */
export function snippetOfMatches(text: string, matches: readonly SnippetMatch[], options: SnippetOptions): Snippet {
  const maxChars = Math.max(MIN_SNIPPET_CHARS, Math.floor(options.maxChars));
  const width = maxChars - 2 * ELLIPSIS.length;
  const length = text.length;

  const finder = new BestWindowFinder(width);
  for (const { term, start, end, position } of matches) finder.add(term, start, end, position);
  const best = finder.result();

  let from: number;
  let to: number;
  let marks: number[];
  if (best === null) {
    from = 0;
    while (from < length && isWhitespace(text.charCodeAt(from))) from++;
    to = adjustEnd(text, Math.min(length, from + width), from);
    marks = [];
  } else {
    const spare = width - (best.end - best.start);
    from = best.start - Math.floor(spare * LEADING_CONTEXT_SHARE);
    to = from + width;
    if (from < 0) {
      to -= from;
      from = 0;
    }
    if (to > length) {
      from = Math.max(0, from - (to - length));
      to = length;
    }
    from = adjustStart(text, from, best.start);
    to = adjustEnd(text, to, best.end);
    marks = [];
    for (const match of matches) if (match.start >= from && match.end <= to) marks.push(match.start, match.end);
  }
  if (from >= to) return { snippet: '', highlight: '' };

  const cutStart = hasContent(text, 0, from);
  const cutEnd = hasContent(text, to, length);
  let snippet = cutStart ? ELLIPSIS : '';
  let highlight = snippet;
  const open = `<${options.tag}>`;
  const close = `</${options.tag}>`;
  let cursor = from;
  for (let m = 0; m < marks.length; m += 2) {
    const gap = text.slice(cursor, marks[m]).replace(WHITESPACE_RUN, ' ');
    const word = text.slice(marks[m], marks[m + 1]);
    snippet += gap + word;
    highlight += escapeHtml(gap) + open + escapeHtml(word) + close;
    cursor = marks[m + 1];
  }
  const tail = text.slice(cursor, to).replace(WHITESPACE_RUN, ' ');
  snippet += tail;
  highlight += escapeHtml(tail);
  if (cutEnd) {
    snippet += ELLIPSIS;
    highlight += ELLIPSIS;
  }
  return { snippet, highlight };
}
