// A bounded cache of search answers, shared by every collection of a server. A key names the
// collection instance, its snapshot generation and the whole request, so an entry can never be
// stale: a refresh or merge makes a new generation, and entries of old generations simply stop
// being asked for and age out. Least recently used entries go first once the byte budget
// (the answers' JSON text) is spent. Repeated searches — dashboards, autocomplete, clients
// retrying — are then answered without a trip to the search pool.

import type { SearchRequest } from '../../engine/index.ts';
import type { SearchPage } from '../pools/index.ts';

/** Default budget: 32 MiB of answer text. */
export const DEFAULT_SEARCH_CACHE_BYTES = 32 * 1024 * 1024;
/** An answer bigger than this share of the budget is not kept (it would evict too much). */
const MAX_ENTRY_SHARE = 1 / 16;
/** Rough bytes per entry beyond its text (key, map slot, object). */
const ENTRY_OVERHEAD_BYTES = 200;

export class SearchCache {
  private readonly entries = new Map<string, SearchPage>();
  private bytes = 0;
  private hitCount = 0;
  private missCount = 0;

  constructor(private readonly budgetBytes: number = DEFAULT_SEARCH_CACHE_BYTES) {}

  /** The cache key of `request` on a collection instance's snapshot generation. */
  static key(collectionId: string, generation: number, request: SearchRequest): string {
    // Property order is fixed by toSearchRequest, so equal requests stringify equally.
    return `${collectionId}:${generation}:${JSON.stringify(request)}`;
  }

  get(key: string): SearchPage | undefined {
    if (this.budgetBytes <= 0) return undefined;
    const page = this.entries.get(key);
    if (page === undefined) {
      this.missCount++;
      return undefined;
    }
    this.hitCount++;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, page);
    return page;
  }

  set(key: string, page: SearchPage): void {
    const size = entrySize(key, page);
    if (this.budgetBytes <= 0 || size > this.budgetBytes * MAX_ENTRY_SHARE) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.bytes -= entrySize(key, previous);
      this.entries.delete(key);
    }
    this.entries.set(key, page);
    this.bytes += size;
    for (const [oldest, oldPage] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entrySize(oldest, oldPage);
    }
  }

  stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hitCount, misses: this.missCount };
  }
}

function entrySize(key: string, page: SearchPage): number {
  // UTF-16 strings: two bytes a code unit.
  return 2 * (key.length + page.members.length) + ENTRY_OVERHEAD_BYTES;
}
