// The search pool's worker entry (Piscina): runs one search at a time over a snapshot it opens
// through its own reader cache (its own memory maps), and answers with the page's JSON text. The main
// thread announces deleted collections on a broadcast channel so their maps are dropped. The
// search answers with what it found by the task's deadline (engine/search/search-budget.ts). Its
// `statistics` export is the first pass of a search over several collections (federated search);
// `facetSearch` searches a facet's values.

import { BroadcastChannel } from 'node:worker_threads';
import { SearchBudget, corpusStatistics, searchFacetValues, searchSegments } from '../../engine/index.ts';
import type { CorpusStatistics } from '../../engine/index.ts';
import { ReaderCache } from './reader-cache.ts';
import { SEARCH_CACHE_CHANNEL } from './search-cache-channel.ts';
import type { SearchCacheMessage } from './search-cache-channel.ts';
import { toSearchPage } from './search-page.ts';
import type { SearchPage } from './search-page.ts';
import { replyOf } from './worker-protocol.ts';
import type { FacetValues, SearchTask, WorkerReply } from './worker-protocol.ts';

const cache = new ReaderCache();

const channel = new BroadcastChannel(SEARCH_CACHE_CHANNEL);
channel.onmessage = (event) => {
  const message = (event as { data: SearchCacheMessage }).data;
  if (message.type === 'forget') cache.forget(message.collectionId);
};
// The channel must not keep an idle worker alive.
channel.unref();

export default function search(task: SearchTask): WorkerReply<SearchPage> {
  try {
    return replyOf(() => {
      const { analyzer, views } = cache.open(task.snapshot);
      const budget = task.deadline === null ? SearchBudget.UNLIMITED : new SearchBudget(task.deadline, Date.now);
      return toSearchPage(searchSegments(views, analyzer, task.request, budget));
    });
  } finally {
    cache.release(task.snapshot);
  }
}

/** A search's first pass over several collections (federated search): this snapshot's part of their statistics. */
export function statistics(task: SearchTask): WorkerReply<CorpusStatistics> {
  try {
    return replyOf(() => {
      const { analyzer, views } = cache.open(task.snapshot);
      return corpusStatistics(views, analyzer, task.request);
    });
  } finally {
    cache.release(task.snapshot);
  }
}

/** A facet value search: the matching values of a field with their counts among the request's matches. */
export function facetSearch(task: SearchTask): WorkerReply<FacetValues> {
  try {
    return replyOf(() => {
      const { analyzer, views } = cache.open(task.snapshot);
      const budget = task.deadline === null ? SearchBudget.UNLIMITED : new SearchBudget(task.deadline, Date.now);
      const values = searchFacetValues(views, analyzer, task.request, task.facetQuery!, budget).map(({ value, count }) => ({ value, count }));
      return { values, timedOut: budget.timedOut };
    });
  } finally {
    cache.release(task.snapshot);
  }
}
