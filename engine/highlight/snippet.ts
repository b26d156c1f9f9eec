// Builds a hit's `snippet` and `highlight` (SPEC §6): a short excerpt of the text around the
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
// - Which tokens are matches is the caller's to say, by term and by position (the token's
//   number in `text`, as the analyzer counts them): a phrase's words are matches only where
//   they stand together, which the hit builder knows from the postings. The excerpt's tokens
//   are numbered from the window's first match, whose position the first pass kept.
// - The text is tokenized once, in a single pass feeding a sliding window; only the short
//   excerpt is tokenized again to place the marks. A 1 MB text takes a few milliseconds.

import type { Analyzer } from '../analysis/analyzer.ts';
import { MAX_TOKEN_LENGTH } from '../analysis/analyzer.ts';
import { SEPARATOR, WORD, charClassAt, isHighSurrogate, isLowSurrogate } from '../analysis/char-class.ts';
import type { CharClass } from '../analysis/char-class.ts';
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

/** Default snippet length (SPEC §6: "at most about 240 characters"). */
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

/**
 * Offsets [start, end) of matched tokens that lie wholly inside text[from, to), in order. The
 * token starting at `anchorStart` has position `anchorPosition`; the others are numbered from it.
 */
function matchesWithin(
  text: string,
  from: number,
  to: number,
  analyzer: Analyzer,
  isMatch: TokenMatcher,
  anchorStart: number,
  anchorPosition: number,
): number[] {
  // Tokenize a little beyond the excerpt so tokens cut by it are seen whole (and left out).
  // Past the first token of the slice (which may be a cut word), its tokens are the text's own.
  const low = Math.max(0, from - MAX_TOKEN_LENGTH - 1);
  const high = Math.min(text.length, to + MAX_TOKEN_LENGTH + 1);
  const inside: { term: string; index: number; start: number; end: number }[] = [];
  let anchorIndex = -1;
  analyzer.forEachToken(text.slice(low, high), (term, index, start, end) => {
    if (low + start === anchorStart) anchorIndex = index;
    if (low + start >= from && low + end <= to) inside.push({ term, index, start: low + start, end: low + end });
  });
  const spans: number[] = [];
  for (const token of inside) {
    if (isMatch(token.term, anchorPosition + token.index - anchorIndex)) spans.push(token.start, token.end);
  }
  return spans;
}

/** The snippet and highlight of `text`, marking the tokens `isMatch` accepts. */
export function buildSnippet(text: string, analyzer: Analyzer, isMatch: TokenMatcher, options: SnippetOptions): Snippet {
  const maxChars = Math.max(MIN_SNIPPET_CHARS, Math.floor(options.maxChars));
  const width = maxChars - 2 * ELLIPSIS.length;
  const length = text.length;

  const finder = new BestWindowFinder(width);
  analyzer.forEachToken(text, (term, position, start, end) => {
    if (isMatch(term, position)) finder.add(term, start, end, position);
  });
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
    marks = matchesWithin(text, from, to, analyzer, isMatch, best.start, best.position);
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
