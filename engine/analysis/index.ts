// Public surface of text analysis: the Analyzer (tokenize, fold, stem) and the languages.

export { Analyzer, MAX_TOKEN_LENGTH, TERM_CACHE_ENTRIES } from './analyzer.ts';
export type { AnalyzerOptions, TermIdVisitor, Token, TokenVisitor } from './analyzer.ts';
export { TermInterner } from './term-interner.ts';
export { SUPPORTED_LANGUAGES, NO_STEMMING_LANGUAGE, isSupportedLanguage } from './supported-languages.ts';
export { contentsPages, looksLikeContentsPage } from './contents-page.ts';
export { foldTerm } from './fold-term.ts';
export { commonPrefix, prefixAgreeingWithStem } from './stem-prefix.ts';
export { SEPARATOR, WORD, charClassAt, isHighSurrogate, isLowSurrogate } from './char-class.ts';
export type { CharClass } from './char-class.ts';
