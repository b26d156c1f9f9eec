// The engine's public face: what the server may use. Analysis, segment writing and reading,
// merging and search over a snapshot of segments. Synchronous and pure given a directory.

export { Analyzer, SUPPORTED_LANGUAGES, isSupportedLanguage } from './analysis/index.ts';
export type { Token } from './analysis/index.ts';
export type { IndexDocument, Metadata, MetadataValue, PageInfo } from './document.ts';
export { EngineError } from './errors.ts';
export type { EngineErrorCode } from './errors.ts';
export { mergeSegments } from './merge.ts';
export { searchSegments } from './search/searcher.ts';
export type { MatchMode, ScoreExplanation, SearchHit, SearchRequest, SearchResult } from './search/search-types.ts';
export { liveDocCount } from './search/segment-view.ts';
export type { SegmentView } from './search/segment-view.ts';
export { SegmentReader } from './segment/segment-reader.ts';
export { writeSegment } from './segment/segment-writer.ts';
export type { SegmentWriteResult } from './segment/segment-writer.ts';
