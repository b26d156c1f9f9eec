// Public surface of highlighting: snippets with marked matches, and HTML escaping.

export { ELLIPSIS, MIN_SNIPPET_CHARS, SNIPPET_MAX_CHARS, buildSnippet, snippetOfMatches } from './snippet.ts';
export type { Snippet, SnippetMatch, SnippetOptions, TokenMatcher } from './snippet.ts';
export { escapeHtml } from './escape-html.ts';
export { VALUE_HIGHLIGHT_CHARS, highlightValue } from './value-highlight.ts';
