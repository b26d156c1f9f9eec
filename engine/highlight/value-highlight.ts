// Highlights a searchable metadata field's values (docs/api.md, "Searchable fields"): each value
// (a string, or each string of an array) is analysed and the words whose terms the query matched
// in that field are wrapped in the highlight tag, HTML-escaped like snippets; a long value is cut
// round its matches as a snippet is.

import type { Analyzer } from '../analysis/index.ts';
import { snippetOfMatches } from './snippet.ts';
import type { SnippetMatch } from './snippet.ts';

/** Longest highlighted value, in characters (longer values are cut round their matches). */
export const VALUE_HIGHLIGHT_CHARS = 480;

/** The value highlighted, or null when none of its words is one of `terms`. */
export function highlightValue(value: string, terms: ReadonlySet<string>, analyzer: Analyzer, tag: string): string | null {
  const matches: SnippetMatch[] = [];
  analyzer.forEachToken(value, (term, position, start, end) => {
    if (terms.has(term)) matches.push({ term, position, start, end });
  });
  if (matches.length === 0) return null;
  return snippetOfMatches(value, matches, { maxChars: VALUE_HIGHLIGHT_CHARS, tag }).highlight;
}
