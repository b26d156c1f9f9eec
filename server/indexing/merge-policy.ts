// The merge policy: which segments of a collection to merge next, as a pure function of their
// sizes and delete counts. Tiered, in the manner of Lucene's TieredMergePolicy:
//  - a segment with more than DELETES_MERGE_RATIO of its documents deleted is rewritten to
//    reclaim the space (the most delete-heavy first);
//  - when there are more segments than the budget allows, the run of up to MAX_MERGE_AT_ONCE
//    neighbouring segments (in the collection's order, as Lucene's LogMergePolicy merges) that
//    is cheapest to merge is merged: the least skewed, so similarly sized ones.
// Sizes below FLOOR_SEGMENT_BYTES count as the floor, so a stream of tiny refreshes is merged
// in groups instead of one ever-growing segment being rewritten each time. The budget grows
// with the logarithm of the index size, so each document is rewritten O(log n) times.
// Once writes stop (no write for `quietAfterMs` after a refresh), the same policy runs again with
// `quietSegmentsPerTier` (1): a collection that a bulk load left in many segments is merged down
// to one per size tier, so searches walk few term dictionaries (as an operator would run Lucene's
// forceMerge after a load), while merges during a load stay lazy and leave the cores to indexing.
// While writes come, no merge writes more than MAX_MERGED_SEGMENT_BYTES (128 MiB: a bulk load
// leaves the cores to indexing rather than rewriting its largest segments again and again);
// once they stop, up to QUIET_MAX_MERGED_SEGMENT_BYTES (4 GiB: a merge streams its output, so
// this bounds its time, not its memory; a segment's postings offsets are 32-bit, and Lucene's
// maxMergedSegmentMB is 5 GB). Segments over half the cap in force are left out of merging for
// size and do not count against the budget, so a bulk load stops rewriting the same bytes once
// they sit in full-sized segments.

/** What the policy needs to know about a segment. */
export interface MergeCandidate {
  name: string;
  docCount: number;
  deletedCount: number;
  byteLength: number;
}

export interface MergeSelection {
  /** Names of the segments to merge into one. */
  segments: string[];
  reason: 'deletes' | 'segment_count';
}

export interface MergePolicyOptions {
  /** Segments allowed per size tier, and the least number of segments ever allowed. Default 8. */
  segmentsPerTier: number;
  /** Most segments merged at once. Default 8. */
  maxMergeAtOnce: number;
  /** Segments smaller than this count as this big. Default 1 MiB. */
  floorSegmentBytes: number;
  /** A segment with more than this share of deleted documents is rewritten. Default 0.3. */
  deletesMergeRatio: number;
  /** Largest segment a merge for size may write while writes come. Default 128 MiB. */
  maxMergedSegmentBytes: number;
  /** Largest segment a merge for size may write once writes have stopped. Default 4 GiB. */
  quietMaxMergedSegmentBytes: number;
  /** Segments allowed per size tier once writes have stopped. Default 1. */
  quietSegmentsPerTier: number;
  /** Writes have stopped when none came for this long after a refresh (Infinity: never). Default 2 s. */
  quietAfterMs: number;
}

export const SEGMENTS_PER_TIER = 8;
export const MAX_MERGE_AT_ONCE = 8;
export const FLOOR_SEGMENT_BYTES = 1024 * 1024;
export const DELETES_MERGE_RATIO = 0.3;
export const MAX_MERGED_SEGMENT_BYTES = 128 * 1024 * 1024;
export const QUIET_MAX_MERGED_SEGMENT_BYTES = 4 * 1024 * 1024 * 1024;
export const QUIET_SEGMENTS_PER_TIER = 1;
export const QUIET_AFTER_MS = 2_000;
/** Exponent that makes the policy prefer smaller merges among equally balanced ones. */
const SIZE_PREFERENCE_EXPONENT = 0.05;

export const DEFAULT_MERGE_POLICY: Readonly<MergePolicyOptions> = Object.freeze({
  segmentsPerTier: SEGMENTS_PER_TIER,
  maxMergeAtOnce: MAX_MERGE_AT_ONCE,
  floorSegmentBytes: FLOOR_SEGMENT_BYTES,
  deletesMergeRatio: DELETES_MERGE_RATIO,
  maxMergedSegmentBytes: MAX_MERGED_SEGMENT_BYTES,
  quietMaxMergedSegmentBytes: QUIET_MAX_MERGED_SEGMENT_BYTES,
  quietSegmentsPerTier: QUIET_SEGMENTS_PER_TIER,
  quietAfterMs: QUIET_AFTER_MS,
});

/** The policy once writes have stopped: fewer segments per tier, larger merges, the rest as it was. */
export function quietPolicy(options: MergePolicyOptions): MergePolicyOptions {
  return {
    ...options,
    segmentsPerTier: Math.min(options.segmentsPerTier, options.quietSegmentsPerTier),
    maxMergedSegmentBytes: Math.max(options.maxMergedSegmentBytes, options.quietMaxMergedSegmentBytes),
  };
}

function deletedRatio(segment: MergeCandidate): number {
  return segment.docCount === 0 ? 1 : segment.deletedCount / segment.docCount;
}

/** Bytes the segment's live documents take, estimated from its share of deletes. */
export function liveBytes(segment: MergeCandidate): number {
  return segment.byteLength * (1 - deletedRatio(segment));
}

/**
 * How many segments an index of `totalBytes` may have: `segmentsPerTier` per size tier,
 * tiers growing by `maxMergeAtOnce` from the floor size; never fewer than `segmentsPerTier`.
 */
export function segmentBudget(totalBytes: number, options: MergePolicyOptions = DEFAULT_MERGE_POLICY): number {
  let allowed = 0;
  let levelSize = options.floorSegmentBytes;
  let bytesLeft = totalBytes;
  for (;;) {
    const atThisLevel = bytesLeft / levelSize;
    if (atThisLevel < options.segmentsPerTier) {
      allowed += Math.ceil(atThisLevel);
      break;
    }
    allowed += options.segmentsPerTier;
    bytesLeft -= options.segmentsPerTier * levelSize;
    levelSize *= options.maxMergeAtOnce;
  }
  return Math.max(allowed, options.segmentsPerTier);
}

/** The next merge to run, or null when the segments are fine as they are. */
export function selectMerge(
  segments: readonly MergeCandidate[],
  options: MergePolicyOptions = DEFAULT_MERGE_POLICY,
): MergeSelection | null {
  const deleteHeavy = segments
    .filter((segment) => deletedRatio(segment) > options.deletesMergeRatio)
    .sort((a, b) => deletedRatio(b) - deletedRatio(a));
  if (deleteHeavy.length > 0) return { segments: [deleteHeavy[0].name], reason: 'deletes' };

  const effectiveSize = (segment: MergeCandidate): number => Math.max(liveBytes(segment), options.floorSegmentBytes);
  const eligible = segments.filter((segment) => isMergeableForSize(segment, options));
  if (segments.length <= segmentLimit(segments, options)) return null;

  // Only neighbours merge (a run of segments in the collection's order, none over half the
  // cap), as in Lucene's LogMergePolicy: the merged segment takes their place, so each segment
  // holds documents that came one after the other, and where ids grow as documents come, its doc
  // numbers follow id order (which lets a search skip ties: engine/search/relevance-sink.ts).
  // The widest merge that fits under the size cap, the least skewed of that width.
  for (let width = Math.min(options.maxMergeAtOnce, eligible.length); width >= 2; width--) {
    let best: { start: number; score: number } | null = null;
    for (let start = 0; start + width <= segments.length; start++) {
      let sum = 0;
      let bytes = 0;
      let largest = 0;
      let mergeable = true;
      for (let i = start; i < start + width && mergeable; i++) {
        mergeable = isMergeableForSize(segments[i], options);
        const size = effectiveSize(segments[i]);
        sum += size;
        bytes += liveBytes(segments[i]);
        largest = Math.max(largest, size);
      }
      if (!mergeable || bytes > options.maxMergedSegmentBytes) continue;
      // Skew: how much of the merge is its largest input (1/width is ideal: equal sizes).
      const score = (largest / sum) * Math.pow(sum, SIZE_PREFERENCE_EXPONENT);
      if (best === null || score < best.score) best = { start, score };
    }
    if (best !== null) {
      return { segments: segments.slice(best.start, best.start + width).map((segment) => segment.name), reason: 'segment_count' };
    }
  }
  return null;
}

/** A segment still small enough to be merged for size (over half the cap, it has its share). */
function isMergeableForSize(segment: MergeCandidate, options: MergePolicyOptions): boolean {
  return liveBytes(segment) <= options.maxMergedSegmentBytes / 2;
}

/**
 * How many segments `segments` may be: the budget of the bytes still mergeable for size, plus
 * the segments past half the cap (each counts as its own full-sized tier).
 */
export function segmentLimit(segments: readonly MergeCandidate[], options: MergePolicyOptions = DEFAULT_MERGE_POLICY): number {
  let mergeableBytes = 0;
  let full = 0;
  for (const segment of segments) {
    if (isMergeableForSize(segment, options)) mergeableBytes += liveBytes(segment);
    else full++;
  }
  return segmentBudget(mergeableBytes, options) + full;
}
