// The broadcast channel on which the main thread tells every search worker to drop a
// collection's readers (it was deleted or closed). Messages between tasks are handled when no
// search runs in that worker, so a map is never released under a running search.

export const READER_CACHE_CHANNEL = 'folio:search-reader-cache';

export type ReaderCacheMessage = { type: 'forget'; collectionId: string };
