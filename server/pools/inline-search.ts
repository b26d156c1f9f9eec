// A search answered on the calling thread instead of a search thread (issue 32): when nothing
// else waits for a search, the hop to a worker and back costs more than most searches do. It
// runs exactly as in a search thread — the same reader cache over the snapshot (its own memory
// maps, opened the first time a search names a file), the same page (search-page.ts), the same
// errors — under a short budget of its own (INLINE_SEARCH_MS): a search that needs longer is
// given up and sent to the search threads, so none holds the thread that serves HTTP for more
// than that.

import { SearchBudget } from '../../engine/index.ts';
import { ReaderCache } from './reader-cache.ts';
import { searchPageOver } from './search-page.ts';
import type { SearchPage } from './search-page.ts';
import { replyOf, unwrapReply } from './worker-protocol.ts';
import type { SearchTask } from './worker-protocol.ts';

/** Longest a search may run on the calling thread before it is handed to the search threads. */
export const INLINE_SEARCH_MS = 2;

export class InlineSearcher {
  private readonly cache = new ReaderCache();

  /** The task's page, searched here within INLINE_SEARCH_MS (and its deadline); null when that was not enough. */
  search(task: SearchTask): SearchPage | null {
    const budget = new SearchBudget(Math.min(Date.now() + INLINE_SEARCH_MS, task.deadline ?? Infinity), Date.now);
    let page: SearchPage;
    try {
      page = unwrapReply(replyOf(() => searchPageOver(this.cache.open(task.snapshot), task.request, budget)));
    } finally {
      this.cache.release(task.snapshot);
    }
    return budget.timedOut ? null : page;
  }

  /** Drops the readers of a collection that is gone or closed. */
  forget(collectionId: string): void {
    this.cache.forget(collectionId);
  }
}
