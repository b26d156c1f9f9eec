// The search pool's worker entry (Piscina): runs one search at a time over a snapshot it opens
// through its own reader cache (its own memory maps), and answers with the page's JSON text. The main
// thread announces deleted collections on a broadcast channel so their maps are dropped. The
// search answers with what it found by the task's deadline (engine/search/search-budget.ts). Its
// `statistics` export is the first pass of a search over several collections (federated search);
// `facetSearch` searches a facet's values.

import { BroadcastChannel } from 'node:worker_threads';
import { SearchBudget, corpusStatistics, searchFacetValues } from '../../engine/index.ts';
import type { CorpusStatistics } from '../../engine/index.ts';
import { ReaderCache } from './reader-cache.ts';
import { READER_CACHE_CHANNEL } from './reader-cache-channel.ts';
import type { ReaderCacheMessage } from './reader-cache-channel.ts';
import { searchPageOver } from './search-page.ts';
import type { SearchPage } from './search-page.ts';
import { replyOf } from './worker-protocol.ts';
import type { FacetValues, SearchTask, WorkerReply } from './worker-protocol.ts';

const cache = new ReaderCache();

const channel = new BroadcastChannel(READER_CACHE_CHANNEL);
channel.onmessage = (event) => {
  const message = (event as { data: ReaderCacheMessage }).data;
  if (message.type === 'forget') cache.forget(message.collectionId);
};
// The channel must not keep an idle worker alive.
channel.unref();

/** Runs `work` over the task's snapshot, opened through the reader cache and released after. */
function overSnapshot<T>(task: SearchTask, work: (opened: ReturnType<ReaderCache['open']>, budget: SearchBudget) => T): WorkerReply<T> {
  try {
    return replyOf(() => work(cache.open(task.snapshot), task.deadline === null ? SearchBudget.UNLIMITED : new SearchBudget(task.deadline, Date.now)));
  } finally {
    cache.release(task.snapshot);
  }
}

export default function search(task: SearchTask): WorkerReply<SearchPage> {
  return overSnapshot(task, (opened, budget) => searchPageOver(opened, task.request, budget));
}

/** A search's first pass over several collections (federated search): this snapshot's part of their statistics. */
export function statistics(task: SearchTask): WorkerReply<CorpusStatistics> {
  return overSnapshot(task, ({ analyzer, views }) => corpusStatistics(views, analyzer, task.request));
}

/** A facet value search: the matching values of a field with their counts among the request's matches. */
export function facetSearch(task: SearchTask): WorkerReply<FacetValues> {
  return overSnapshot(task, ({ analyzer, views }, budget) => {
    const values = searchFacetValues(views, analyzer, task.request, task.facetQuery!, budget).map(({ value, count }) => ({ value, count }));
    return { values, timedOut: budget.timedOut };
  });
}
