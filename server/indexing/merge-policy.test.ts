// Tests for the merge policy: delete-heavy segments are rewritten, the segment count stays
// within budget under a long stream of small refreshes, and the bytes rewritten stay within
// a logarithmic factor of the bytes written (no ever-growing segment rewritten each time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectMerge, segmentBudget, segmentLimit, liveBytes, SEGMENTS_PER_TIER, FLOOR_SEGMENT_BYTES, MAX_MERGED_SEGMENT_BYTES } from './merge-policy.ts';
import type { MergeCandidate } from './merge-policy.ts';

const segment = (name: string, byteLength: number, docCount = 100, deletedCount = 0): MergeCandidate => ({
  name,
  byteLength,
  docCount,
  deletedCount,
});

test('few healthy segments need no merge', () => {
  assert.equal(selectMerge([]), null);
  const segments = Array.from({ length: SEGMENTS_PER_TIER }, (_, i) => segment(`s${i}`, 1000));
  assert.equal(selectMerge(segments), null);
});

test('a segment with more than 30% deleted documents is merged on its own', () => {
  const segments = [segment('a', 5000, 100, 10), segment('b', 5000, 100, 31), segment('c', 5000, 100, 60)];
  assert.deepEqual(selectMerge(segments), { segments: ['c'], reason: 'deletes' });
  assert.equal(selectMerge([segment('a', 5000, 100, 30)]), null, '30% exactly is still fine');
});

test('too many segments: the small similar ones are merged, not the big one', () => {
  const big = segment('big', 4 * FLOOR_SEGMENT_BYTES);
  const small = Array.from({ length: SEGMENTS_PER_TIER }, (_, i) => segment(`small${i}`, 2000));
  const selection = selectMerge([big, ...small]);
  assert.ok(selection);
  assert.equal(selection.reason, 'segment_count');
  assert.ok(!selection.segments.includes('big'));
  assert.ok(selection.segments.length >= 2);
});

test('only neighbours merge: the run chosen is consecutive in the collection\'s order', () => {
  // Small segments between larger ones (as refreshes of different sizes leave them): the
  // similar small ones are not gathered from across the list, a run of neighbours is merged.
  const sizes = [3, 0.1, 3, 0.1, 0.1, 3, 0.1, 0.1, 0.1, 3, 0.1, 3, 0.1].map((mb) => mb * FLOOR_SEGMENT_BYTES);
  const segments = sizes.map((bytes, i) => segment(`s${i}`, bytes));
  const names = segments.map((s) => s.name);
  for (let merges = 0; merges < 20; merges++) {
    const selection = selectMerge(segments);
    if (selection === null) break;
    const at = names.indexOf(selection.segments[0]);
    assert.deepEqual(selection.segments, names.slice(at, at + selection.segments.length), JSON.stringify(selection));
    const bytes = segments.filter((s) => selection.segments.includes(s.name)).reduce((sum, s) => sum + s.byteLength, 0);
    const merged = segment(`m${merges}`, bytes);
    segments.splice(at, selection.segments.length, merged);
    names.splice(at, selection.segments.length, merged.name);
  }
  assert.ok(segments.length <= segmentLimit(segments));
});

test('the budget grows with the index size, never below one tier', () => {
  assert.equal(segmentBudget(0), SEGMENTS_PER_TIER);
  assert.equal(segmentBudget(3 * FLOOR_SEGMENT_BYTES), SEGMENTS_PER_TIER);
  assert.ok(segmentBudget(10_000 * FLOOR_SEGMENT_BYTES) > SEGMENTS_PER_TIER);
  assert.ok(segmentBudget(10_000 * FLOOR_SEGMENT_BYTES) < 40);
});

/** Plays a stream of refreshes through the policy, merging as a collection would. */
function simulate(refreshes: number, bytesPerRefresh: number): { maxSegments: number; maxBudget: number; amplification: number; largestMerge: number } {
  let segments: MergeCandidate[] = [];
  let next = 0;
  let written = 0;
  let rewritten = 0;
  let maxSegments = 0;
  let maxBudget = 0;
  let largestMerge = 0;
  for (let r = 0; r < refreshes; r++) {
    segments.push(segment(`seg-${next++}`, bytesPerRefresh, 10));
    written += bytesPerRefresh;
    for (let selection = selectMerge(segments); selection !== null; selection = selectMerge(segments)) {
      const chosen = segments.filter((s) => selection.segments.includes(s.name));
      const bytes = chosen.reduce((sum, s) => sum + liveBytes(s), 0);
      const docs = chosen.reduce((sum, s) => sum + s.docCount - s.deletedCount, 0);
      rewritten += bytes;
      largestMerge = Math.max(largestMerge, bytes);
      // The merged segment takes the place of its first source, as a commit puts it.
      const at = segments.findIndex((s) => selection.segments.includes(s.name));
      const merged = segment(`seg-${next++}`, bytes, docs);
      segments = segments.flatMap((s, i) => (i === at ? [merged] : selection.segments.includes(s.name) ? [] : [s]));
    }
    maxSegments = Math.max(maxSegments, segments.length);
    maxBudget = Math.max(maxBudget, segmentLimit(segments));
    assert.ok(segments.length <= segmentLimit(segments), `refresh ${r}: ${segments.length} segments`);
  }
  return { maxSegments, maxBudget, amplification: rewritten / written, largestMerge };
}

test('a long stream of tiny refreshes keeps about 8 segments at a bounded cost', () => {
  const refreshes = 5000;
  const bytesPerRefresh = 4096;
  const { maxSegments, amplification } = simulate(refreshes, bytesPerRefresh);
  // 20 MB in all: one tier of eight plus a couple of floor-sized extras.
  assert.ok(maxSegments <= SEGMENTS_PER_TIER + 2, `max ${maxSegments}`);
  assert.ok(simulate(1000, bytesPerRefresh).maxSegments <= SEGMENTS_PER_TIER);
  // Below the floor size segments are cheap to rewrite; the work per refresh stays bounded.
  const rewrittenPerRefresh = amplification * bytesPerRefresh;
  assert.ok(rewrittenPerRefresh < FLOOR_SEGMENT_BYTES / 2, `${rewrittenPerRefresh} bytes merged per refresh`);
});

test('a bulk load past the merge size cap writes no merge over it and stops rewriting full segments', () => {
  // 1.5 GB in refreshes of 8 MiB, as a 1M-document import makes.
  const { maxSegments, amplification, largestMerge } = simulate(190, 8 * 1024 * 1024);
  assert.ok(largestMerge <= MAX_MERGED_SEGMENT_BYTES, `largest merge ${largestMerge} bytes`);
  assert.ok(amplification < 2, `each byte rewritten ${amplification.toFixed(2)} times`);
  assert.ok(maxSegments <= 40, `max ${maxSegments}`);
  // Segments past half the cap are never chosen for size.
  const full = [segment('big-a', MAX_MERGED_SEGMENT_BYTES * 0.6), segment('big-b', MAX_MERGED_SEGMENT_BYTES * 0.7)];
  const small = Array.from({ length: 30 }, (_, i) => segment(`small-${i}`, 3 * FLOOR_SEGMENT_BYTES));
  const selection = selectMerge([...full, ...small]);
  assert.ok(selection !== null && selection.segments.every((name) => name.startsWith('small-')), JSON.stringify(selection));
  assert.equal(selectMerge([...full, ...full.map((s) => ({ ...s, name: `${s.name}-2` }))]), null);
});

test('a large index stays within its budget with logarithmic write amplification', () => {
  const { maxSegments, maxBudget, amplification } = simulate(3000, 2 * FLOOR_SEGMENT_BYTES);
  assert.ok(maxSegments <= maxBudget);
  // 6 GB: full-sized segments (over half the cap) and a logarithmic budget for the rest.
  assert.ok(maxSegments < (3000 * 2 * FLOOR_SEGMENT_BYTES) / (MAX_MERGED_SEGMENT_BYTES / 2) + 40, `max ${maxSegments}`);
  assert.ok(amplification < 6, `each byte rewritten ${amplification.toFixed(2)} times`);
});
