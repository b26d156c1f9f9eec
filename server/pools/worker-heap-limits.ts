// V8 heap limits of the search and index worker threads, set from the machine's memory, so
// that no worker can grow its heap until the machine swaps: a search worker may use an
// eighth of the memory, an index worker (segment builds and merges hold a segment in memory)
// a quarter, within floors that every build of a 10,000-document batch fits in and ceilings
// past which a worker is surely misbehaving; the ingest worker, which parses one batch body at a
// time, a sixteenth. A worker over its limit dies; its task fails
// and Piscina starts a fresh thread. Extraction workers have their own, smaller limit.
// Each worker's young generation is bounded too (`youngMb`): V8's default lets every isolate's
// grow to 48 MiB, which a server's threads kept resident whether they needed it or not. Search
// and ingest workers get 6 MiB; an index worker, whose builds allocate at a high rate, 24 MiB:
// at 6 MiB it promoted so much to its old generation that a 1M import's builds took 10 % more CPU.

import { totalmem } from 'node:os';

const MIB = 1024 * 1024;

export interface HeapLimitRule {
  /** Share of the machine's memory. */
  share: number;
  floorMb: number;
  ceilingMb: number;
  /** The young generation's size in MiB (V8 makes it three semi-spaces); V8's default where absent. */
  youngMb?: number;
}

export const SEARCH_WORKER_HEAP: Readonly<HeapLimitRule> = Object.freeze({ share: 1 / 8, floorMb: 256, ceilingMb: 2048, youngMb: 6 });
export const INDEX_WORKER_HEAP: Readonly<HeapLimitRule> = Object.freeze({ share: 1 / 4, floorMb: 512, ceilingMb: 4096, youngMb: 24 });
/** The ingest worker parses one batch body (at most MAX_BODY_BYTES) at a time. */
export const INGEST_WORKER_HEAP: Readonly<HeapLimitRule> = Object.freeze({ share: 1 / 16, floorMb: 256, ceilingMb: 1024, youngMb: 6 });

/** The embedding worker holds a model and one segment's passages and vectors at a time. */
export const EMBEDDING_WORKER_HEAP: Readonly<HeapLimitRule> = Object.freeze({ share: 1 / 8, floorMb: 512, ceilingMb: 2048 });

/** Piscina's `resourceLimits` for a worker under `rule` on a machine of `machineBytes`. */
export function workerResourceLimits(rule: HeapLimitRule, machineBytes: number = totalmem()): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb?: number } {
  const old = heapLimitMb(rule, machineBytes);
  return rule.youngMb === undefined ? { maxOldGenerationSizeMb: old } : { maxOldGenerationSizeMb: old, maxYoungGenerationSizeMb: rule.youngMb };
}

/** The old-generation limit in MiB for a worker under `rule` on a machine of `machineBytes`. */
export function heapLimitMb(rule: HeapLimitRule, machineBytes: number = totalmem()): number {
  const share = Math.floor((machineBytes * rule.share) / MIB);
  return Math.min(rule.ceilingMb, Math.max(rule.floorMb, share));
}
