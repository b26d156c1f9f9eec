// The worker pools' public API for the rest of the server: the search pool, the index pool,
// the ingest pool, the extraction pool, and the plain values that cross to their threads.

export { SearchPool, defaultSearchThreads } from './search-pool.ts';
export type { SearchPoolOptions } from './search-pool.ts';
export { DEFAULT_INDEX_THREADS, IndexPool } from './index-pool.ts';
export type { IndexAnalysis, IndexPoolOptions } from './index-pool.ts';
export { INLINE_PARSE_BYTES, IngestPool } from './ingest-pool.ts';
export {
  DEFAULT_EXTRACTION_MEMORY_MB,
  defaultExtractionThreads,
  DEFAULT_EXTRACTION_TIME_LIMIT_MS,
  ExtractionPool,
} from './extraction-pool.ts';
export type { ExtractionPoolOptions } from './extraction-pool.ts';
export { EmbeddingPool, LOCAL_MODEL_NAME } from './embedding-pool.ts';
export type { FacetValues, SegmentEmbedded, SegmentRef, SnapshotRef } from './worker-protocol.ts';
export type { OpenedSnapshot } from './reader-cache.ts';

export type { SearchNotice, SearchPage } from './search-page.ts';
