// A search answered on the calling thread instead of a search thread (issue 32): when nothing
// else waits for a search, the hop to a worker and back costs more than most searches do. It
// runs over the segment readers the collection already has open on this thread (no second
// memory map), builds the same page (search-page.ts) and throws the same errors as a search
// thread would, under a budget of its own (INLINE_SEARCH_MS): a search that needs longer is
// given up and sent to the search threads, so none holds the thread that serves HTTP for more
// than that.

import { SearchBudget } from '../../engine/index.ts';
import type { OpenedSnapshot } from './reader-cache.ts';
import { searchPageOver } from './search-page.ts';
import type { SearchPage } from './search-page.ts';
import { replyOf, unwrapReply } from './worker-protocol.ts';
import type { SearchTask } from './worker-protocol.ts';

/** Longest a search may run on the calling thread before it is handed to the search threads. */
export const INLINE_SEARCH_MS = 5;

/**
 * The page of the task's request over `opened` (its snapshot, open here), searched within
 * INLINE_SEARCH_MS and the task's deadline; null when that was not enough.
 */
export function searchHere(opened: OpenedSnapshot, task: Omit<SearchTask, 'snapshot'>): SearchPage | null {
  const budget = new SearchBudget(Math.min(Date.now() + INLINE_SEARCH_MS, task.deadline ?? Infinity), Date.now);
  const page = unwrapReply(replyOf(() => searchPageOver(opened, task.request, budget)));
  return budget.timedOut ? null : page;
}
