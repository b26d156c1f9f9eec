// The engine's public face: what the server may use. Analysis, segment writing and reading,
// merging, filter and sort parsing, and search over a snapshot of segments. Synchronous and
// pure given a directory.

export { Analyzer, SUPPORTED_LANGUAGES, isSupportedLanguage } from './analysis/index.ts';
export type { Token } from './analysis/index.ts';
export type { IndexDocument, Metadata, MetadataValue, PageInfo } from './document.ts';
export { EngineError } from './errors.ts';
export type { EngineErrorCode } from './errors.ts';
export { FIELD_NAME_RULE, MAX_FILTER_CLAUSES, MAX_FILTER_DEPTH, bothFilters, isAllowedFieldName, matchesFilter, parseFilter } from './filter/index.ts';
export type { FilterNode } from './filter/index.ts';
export { mergeOrder, mergeSegments } from './merge.ts';
export { MAX_SYNONYM_TERMS, SynonymTable } from './query/index.ts';
export type { SynonymEntry, SynonymRule } from './query/index.ts';
export { evaluateFilter } from './search/filter-evaluator.ts';
export { searchSegments } from './search/searcher.ts';
export { addCorpusStatistics } from './search/corpus-statistics.ts';
export { corpusStatistics } from './search/corpus-statistics-pass.ts';
export { DEFAULT_FACET_VALUES, MAX_FACET_VALUES, searchFacetValues } from './search/facet-value-search.ts';
export type { FacetValueHit, FacetValueQuery } from './search/facet-value-search.ts';
export type { CorpusStatistics } from './search/corpus-statistics.ts';
export { MAX_FIELD_BOOSTS } from './search/field-boosts.ts';
export { DEFAULT_FIELD_WEIGHTS } from './search/bm25.ts';
export type { FieldWeights } from './search/bm25.ts';
export type { BoostModifier, FieldBoost } from './search/field-boosts.ts';
export { SearchBudget } from './search/search-budget.ts';
export type { HitField, MatchMode, PrefixMode, ScoreExplanation, SearchHit, SearchMode, SearchRequest, SearchResult, SemanticRequest, Suggestion, TotalRelation } from './search/search-types.ts';
export { HIT_FIELDS, TOTAL_EXACT_UP_TO } from './search/search-types.ts';
export { deletedDocs } from './search/segment-view.ts';
export type { SegmentView } from './search/segment-view.ts';
export { readDeletesFile } from './segment/deletes-file.ts';
export type { DeletesBitmap } from './segment/deletes-file.ts';
export { SegmentReader } from './segment/segment-reader.ts';
export { writeSegment } from './segment/segment-writer.ts';
export type { SegmentWriteResult } from './segment/segment-writer.ts';
export { MAX_SORT_KEYS, parseSort } from './sort/index.ts';
export type { SortKey } from './sort/index.ts';
export { DEFAULT_TYPO_TOLERANCE, MAX_TYPO_WORD_SIZE, TYPO_FIELDS } from './typo/typo-rules.ts';
export type { TypoField, TypoMode, TypoTolerance } from './typo/typo-rules.ts';
export { DEFAULT_DOCUMENT_TEMPLATE, MAX_PASSAGES_PER_DOCUMENT, cutPassages, passageText } from './vectors/passages.ts';
export type { Passage } from './vectors/passages.ts';
export { VectorReader, mergeVectorFiles, writeVectorFile } from './vectors/vector-file.ts';
export type { EmbeddedPassage, VectorFileInput, VectorMergeSource } from './vectors/vector-file.ts';
export { normalizeVector } from './vectors/quantization.ts';
export { SEMANTIC_MATCHES } from './search/searcher.ts';
export { isRelevanceSort } from './search/sort-collector.ts';
export type { FusionMethod } from './search/hybrid-fusion.ts';
