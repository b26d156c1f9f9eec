// Block-max MaxScore (Turtle & Flood, 1995; Lucene's MaxScoreBulkScorer): top-k evaluation of a
// disjunction window by window. A window ends where the first of the scorers' current postings
// blocks ends, so each scorer's best score in it is its block's (scorer.shallowBound, from the
// impacts). Sorted by those bounds, the weakest scorers whose bounds together cannot reach the
// threshold are non-essential: a doc only they match cannot enter the top k. The essential ones
// are scored doc after doc into the window's arrays — a tight loop, with none of WAND's per-doc
// sorting and pivoting — and each candidate is completed with the non-essential scorers, the
// strongest first, while its sum plus what the rest could add still reaches the threshold. Where a
// scorer is required (the others' bounds together cannot reach the threshold without it), the
// rarest required one leads the window instead, and a doc another required one lacks is skipped
// unscored (Lucene's block-max conjunction, within a window): where two or more plain terms are
// required, their docs in the window are marked on bit sets and ANDed, and only what they all
// match is scored; else the lead's docs are visited, each scored alone first and the others moved
// to it only while it can still reach the threshold. A window — or first, a group of
// blocks (scorer.groupBound) — whose bounds all together cannot reach the threshold is skipped
// without decoding a block. A word's typo variants are left unread in a window where its exact
// form is required (dropVariantsOfRequired). Scores are summed in the query's order, as WAND sums
// them, so a doc gets the same score to the bit either way.

import type { HitSink } from './hit-sink.ts';
import { EVERY_DOC, NO_MORE_DOCS } from './scorers/scorer.ts';
import type { Scorer } from './scorers/scorer.ts';
import { TermScorer } from './scorers/term-scorer.ts';
import { TypoVariantsScorer } from './scorers/typo-variants-scorer.ts';
import type { SearchBudget } from './search-budget.ts';

const WINDOW_BITS = 12;
/** The most docs a window spans. */
const WINDOW = 1 << WINDOW_BITS;
const WORDS = WINDOW >>> 5;
/** The most scorers ranked this way (each keeps a window of scores). */
export const MAX_SCORE_SCORERS = 16;

/** Reused across searches of one thread (a search runs to its end before the next starts). */
const scores = Array.from({ length: MAX_SCORE_SCORERS }, () => new Float64Array(WINDOW));
const matched = Array.from({ length: MAX_SCORE_SCORERS }, () => new Uint32Array(WORDS));
/** The window's docs any essential scorer matched, and their essential sums. */
const candidates = new Uint32Array(WORDS);
const sums = new Float64Array(WINDOW);
/** Scorer indexes other than the lead's, by bound (collectRequired). */
const byBound = new Int32Array(MAX_SCORE_SCORERS);

/** Whether collectMaxScore can rank these: at most MAX_SCORE_SCORERS (each keeps a window of scores). */
export function canCollectMaxScore(scorers: readonly Scorer[]): boolean {
  return scorers.length <= MAX_SCORE_SCORERS;
}

/**
 * Offers the docs of the disjunction of `scorers` (unstarted; canCollectMaxScore holds) that can
 * reach the sink's threshold to the sink; `accept(doc)` rejects docs that do not match
 * (filtered, deleted, excluded). The sink must not need every match offered (its total is
 * counted apart).
 */
export function collectMaxScore(scorers: readonly Scorer[], accept: (doc: number) => boolean, sink: HitSink, budget: SearchBudget): void {
  try {
    collectWindows(scorers, accept, sink, budget);
  } catch (error) {
    // A scorer that spends the budget may run out mid-window: the next search starts clear.
    candidates.fill(0);
    for (const bits of matched) bits.fill(0);
    throw error;
  }
}

function collectWindows(scorers: readonly Scorer[], accept: (doc: number) => boolean, sink: HitSink, budget: SearchBudget): void {
  const n = scorers.length;
  const bounds = new Float64Array(n);
  /** Scorer indexes by window bound, ascending. */
  const order = new Int32Array(n);
  /** Whether scorer i is essential in the current window. */
  const essential = new Uint8Array(n);
  /** Per position p of `order`, the sum of the bounds of order[0..p]. */
  const prefix = new Float64Array(n);
  const exactOf = exactFormsOf(scorers);
  /** Each scorer's other half of a word (exact form and typo variants), else -1. */
  const mates = exactOf === null ? null : matesOf(exactOf);
  /** Where each scorer is in `order` (where there are mates). */
  const rank = new Int32Array(n);
  for (const scorer of scorers) scorer.next();
  let from = 0;
  for (;;) {
    // A scorer left behind a skipped window is moved on by its skip entries alone; one without
    // blocks there (none left, or none at all) is moved for real.
    for (let i = 0; i < n; i++) {
      const scorer = scorers[i];
      if (scorer.doc >= from) continue;
      scorer.groupBound(from);
      if (scorer.groupEnd === EVERY_DOC) scorer.advance(from);
    }
    let windowMin = NO_MORE_DOCS;
    for (let i = 0; i < n; i++) if (scorers[i].doc < windowMin) windowMin = scorers[i].doc;
    if (windowMin === NO_MORE_DOCS) return;
    if (windowMin < from) windowMin = from;
    const threshold = pruningLimit(sink, windowMin);
    if (threshold !== -Infinity) {
      // First by groups of blocks: one bound each skips them all.
      let coarse = 0;
      let coarseEnd = NO_MORE_DOCS;
      for (let i = 0; i < n; i++) {
        const scorer = scorers[i];
        bounds[i] = 0;
        if (scorer.doc === NO_MORE_DOCS) continue;
        bounds[i] = scorer.groupBound(windowMin);
        coarse += bounds[i];
        if (scorer.groupEnd < coarseEnd) coarseEnd = scorer.groupEnd;
      }
      if (coarse < threshold * NEAR_THRESHOLD) {
        // Just above it: weighed again exactly, as windows are (below).
        if (coarse >= threshold) {
          coarse = 0;
          for (let i = 0; i < n; i++) {
            const scorer = scorers[i];
            if (bounds[i] > 0 && scorer instanceof TermScorer) bounds[i] = scorer.exactGroupBound();
            coarse += bounds[i];
          }
        }
        if (coarse < threshold) {
          from = coarseEnd + 1;
          continue;
        }
      }
    }
    // The window: up to the first block end among the scorers with docs in it.
    let windowMax = windowMin + WINDOW - 1;
    for (let i = 0; i < n; i++) {
      const scorer = scorers[i];
      if (scorer.doc > windowMax) {
        bounds[i] = 0;
        continue;
      }
      bounds[i] = scorer.shallowBound(windowMin);
      if (scorer.shallowEnd < windowMax) windowMax = scorer.shallowEnd;
    }
    from = windowMax + 1;
    let total = 0;
    for (let i = 0; i < n; i++) if (scorers[i].doc <= windowMax) total += bounds[i];
    else bounds[i] = 0;
    if (total < threshold) continue; // nothing in the window can reach it: skipped undecoded
    if (total < threshold * NEAR_THRESHOLD) {
      // Just above it: the plain terms' bounds weighed exactly, so that blocks whose best doc
      // only ties the worst hit (which a later doc cannot beat) are skipped too.
      total = 0;
      for (let i = 0; i < n; i++) {
        const scorer = scorers[i];
        if (bounds[i] > 0 && scorer instanceof TermScorer) bounds[i] = scorer.exactShallowBound();
        total += bounds[i];
      }
      if (total < threshold) continue;
    }
    if (exactOf !== null) {
      total = dropVariantsOfRequired(exactOf, bounds, total, threshold);
      if (total < threshold) continue;
    }
    // A scorer without which the others cannot reach the threshold is required: the rarest
    // required one leads, the docs the others lack are skipped unscored.
    let lead = -1;
    for (let i = 0; i < n; i++) {
      if (!isRequired(bounds[i], total, threshold)) continue;
      if (lead < 0 || scorers[i].cost < scorers[lead].cost) lead = i;
    }
    if (lead >= 0) {
      collectRequired(scorers, bounds, total, lead, windowMin, windowMax, accept, sink, budget);
      continue;
    }

    // Non-essential: the weakest scorers whose bounds together stay below the threshold.
    for (let i = 0; i < n; i++) order[i] = i;
    sortByBound(order, n, bounds);
    let running = 0;
    if (mates !== null) for (let p = 0; p < n; p++) rank[order[p]] = p;
    for (let p = 0; p < n; p++) {
      const i = order[p];
      running += bounds[i];
      // A word adds the larger of its exact form's and its variants' bounds, not both.
      if (mates !== null && mates[i] >= 0 && rank[mates[i]] < p) running -= Math.min(bounds[i], bounds[mates[i]]);
      prefix[p] = running;
      essential[i] = running >= threshold ? 1 : 0;
    }
    let postings = 0;
    let last = 0;
    for (let i = 0; i < n; i++) {
      if (essential[i] === 0) continue;
      const scorer = scorers[i];
      const own = scores[i];
      const bits = matched[i];
      let doc = scorer.doc < windowMin ? scorer.advance(windowMin) : scorer.doc;
      while (doc <= windowMax) {
        const slot = doc - windowMin;
        const word = slot >>> 5;
        const bit = 1 << (slot & 31);
        const score = scorer.score();
        own[slot] = score;
        bits[word] |= bit;
        if (slot > last) last = slot;
        if ((candidates[word] & bit) === 0) {
          candidates[word] |= bit;
          sums[slot] = score;
        } else {
          sums[slot] += score;
        }
        postings++;
        doc = scorer.next();
      }
    }
    budget.spend(postings);
    // The non-essential scorers' bounds summed (prefix up to the last non-essential).
    let firstEssential = 0;
    while (firstEssential < n && essential[order[firstEssential]] === 0) firstEssential++;
    const optionalBound = firstEssential === 0 ? 0 : prefix[firstEssential - 1];

    // The threshold only moves when a doc is collected.
    let limit = pruningLimit(sink, windowMin);
    const words = (last >>> 5) + 1;
    for (let word = 0; word < words; word++) {
      let bits = candidates[word];
      if (bits === 0) continue;
      candidates[word] = 0;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const slot = (word << 5) + 31 - Math.clz32(low);
        const doc = windowMin + slot;
        if (sums[slot] + optionalBound < limit || !accept(doc)) continue;
        // Completed by the non-essential scorers, strongest first, while it can still reach the limit.
        let partial = sums[slot];
        let reachable = true;
        for (let p = firstEssential - 1; p >= 0; p--) {
          const scorer = scorers[order[p]];
          const on = scorer.doc < doc ? scorer.advance(doc) : scorer.doc;
          if (on === doc) partial += scorer.score();
          if (partial + (p === 0 ? 0 : prefix[p - 1]) < limit) {
            reachable = false;
            break;
          }
        }
        if (!reachable) continue;
        // The doc's score, summed in the query's order.
        let score = 0;
        for (let i = 0; i < n; i++) {
          if (essential[i] === 1) {
            if ((matched[i][word] & low) !== 0) score += scores[i][slot];
          } else if (scorers[i].doc === doc) {
            score += scorers[i].score();
          }
        }
        sink.collect(doc, score);
        limit = pruningLimit(sink, windowMin);
      }
    }
    for (let i = 0; i < n; i++) if (essential[i] === 1) matched[i].fill(0, 0, words);
  }
}

/**
 * A window where a doc must match scorer `lead` (and every other required one) to reach the
 * threshold: the lead's docs, each skipped as soon as its score so far and what the rest could
 * add cannot reach it; a required scorer missing the doc moves the lead on past it.
 */
function collectRequired(
  scorers: readonly Scorer[],
  bounds: Float64Array,
  total: number,
  lead: number,
  windowMin: number,
  windowMax: number,
  accept: (doc: number) => boolean,
  sink: HitSink,
  budget: SearchBudget,
): void {
  const n = scorers.length;
  const leader = scorers[lead];
  const othersBound = total - bounds[lead];
  let limit = pruningLimit(sink, windowMin);
  if (intersectRequired(scorers, bounds, total, limit, windowMin, windowMax, budget)) {
    scoreCandidates(scorers, bounds, total, windowMin, windowMax, accept, sink);
    return;
  }
  // The others by bound, visited strongest first (so the other required ones first): a doc the
  // lead alone cannot lift far enough is left without moving them.
  let others = 0;
  for (let i = 0; i < n; i++) if (i !== lead) byBound[others++] = i;
  sortByBound(byBound, others, bounds);
  // A plain-term lead passes over its docs that cannot reach the limit even with every other
  // scorer's bound, in its block's arrays and unscored (TermScorer.skipToFrequency).
  const skipping = leader instanceof TermScorer && leader.matchesEveryPosting ? leader : null;
  const walkedBefore = skipping === null ? 0 : skipping.walked;
  let leadFrequency = skipping === null ? 0 : skipping.frequencyBelow(limit - othersBound);
  let visited = 0;
  let doc = leader.doc < windowMin ? leader.advance(windowMin) : leader.doc;
  while (doc <= windowMax) {
    if (skipping !== null) {
      doc = skipping.skipToFrequency(windowMax, leadFrequency);
      if (doc > windowMax) break;
    } else {
      visited++;
    }
    let partial = leader.score();
    let rest = othersBound;
    let next = -1;
    let reachable = partial + rest >= limit;
    for (let p = others - 1; p >= 0 && reachable; p--) {
      const i = byBound[p];
      if (bounds[i] === 0) break; // the rest add nothing in this window (ascending bounds)
      const scorer = scorers[i];
      rest -= bounds[i];
      const on = scorer.doc < doc ? scorer.advance(doc) : scorer.doc;
      if (on === doc) partial += scorer.score();
      else if (isRequired(bounds[i], total, limit)) {
        next = on; // a required scorer lacks it: the lead moves on to where that one is
        break;
      }
      if (partial + rest < limit) reachable = false;
    }
    if (next < 0 && reachable && accept(doc)) {
      // The doc's score, summed in the query's order (every scorer was moved to it).
      let score = 0;
      for (let i = 0; i < n; i++) if (scorers[i].doc === doc) score += scorers[i].score();
      sink.collect(doc, score);
      limit = pruningLimit(sink, windowMin);
      if (skipping !== null) leadFrequency = skipping.frequencyBelow(limit - othersBound);
    }
    // Past the window, another window's bounds decide what is required: the lead stays here.
    if (next > windowMax) break;
    doc = next > doc ? leader.advance(next) : leader.next();
  }
  budget.spend(visited + (skipping === null ? 0 : skipping.walked - walkedBefore));
}

/**
 * Where two or more scorers are required and each is a plain term (its docs in the window lie in
 * its current block, decoded when the window is entered): the docs they all match, found by
 * marking each one's docs on a bit set and ANDing them — a few operations a doc, where visiting
 * the lead's docs one by one and moving the others to each costs a call or two a doc. Leaves them
 * on `candidates` and answers true; answers false (nothing marked) where this does not apply.
 */
function intersectRequired(
  scorers: readonly Scorer[],
  bounds: Float64Array,
  total: number,
  limit: number,
  windowMin: number,
  windowMax: number,
  budget: SearchBudget,
): boolean {
  const n = scorers.length;
  let required = 0;
  for (let i = 0; i < n; i++) {
    if (!isRequired(bounds[i], total, limit)) continue;
    const scorer = scorers[i];
    if (!(scorer instanceof TermScorer) || !scorer.matchesEveryPosting) return false;
    required++;
  }
  if (required < 2) return false;
  const words = ((windowMax - windowMin) >>> 5) + 1;
  const own = matched[0];
  let first = true;
  let marked = 0;
  for (let i = 0; i < n; i++) {
    if (!isRequired(bounds[i], total, limit)) continue;
    const scorer = scorers[i] as TermScorer;
    const doc = scorer.doc < windowMin ? scorer.advance(windowMin) : scorer.doc;
    if (doc > windowMax) {
      // A required scorer without docs in the window: nothing in it can reach the threshold.
      if (!first) candidates.fill(0, 0, words);
      budget.spend(marked);
      return true;
    }
    if (first) {
      marked += scorer.markBlockDocs(candidates, windowMin, windowMax);
      first = false;
      continue;
    }
    marked += scorer.markBlockDocs(own, windowMin, windowMax);
    for (let word = 0; word < words; word++) {
      candidates[word] &= own[word];
      own[word] = 0;
    }
  }
  budget.spend(marked);
  return true;
}

/**
 * Scores the docs on `candidates` (cleared as it goes), each summed in the query's order and
 * given up once what the rest could add cannot reach the threshold.
 */
function scoreCandidates(
  scorers: readonly Scorer[],
  bounds: Float64Array,
  total: number,
  windowMin: number,
  windowMax: number,
  accept: (doc: number) => boolean,
  sink: HitSink,
): void {
  const n = scorers.length;
  let limit = pruningLimit(sink, windowMin);
  const words = ((windowMax - windowMin) >>> 5) + 1;
  for (let word = 0; word < words; word++) {
    let bits = candidates[word];
    if (bits === 0) continue;
    candidates[word] = 0;
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const doc = windowMin + (word << 5) + 31 - Math.clz32(low);
      // First bounded from the plain terms' tfs and length floors (most docs end here, their exact
      // lengths unread), then scored, summed in the query's order.
      let bound = 0;
      let rest = total;
      for (let i = 0; i < n; i++) {
        if (bounds[i] === 0) continue; // nothing to add in this window
        const scorer = scorers[i];
        rest -= bounds[i];
        const on = scorer.doc < doc ? scorer.advance(doc) : scorer.doc;
        if (on === doc) bound += scorer instanceof TermScorer ? scorer.scoreAtFloors() : scorer.score();
        if (bound + rest < limit) break;
      }
      if (bound + rest < limit) continue;
      let score = 0;
      for (let i = 0; i < n; i++) if (scorers[i].doc === doc) score += scorers[i].score();
      if (score + rest >= limit && accept(doc)) {
        sink.collect(doc, score);
        limit = pruningLimit(sink, windowMin);
      }
    }
  }
}

/**
 * Window bounds below threshold × this are weighed again exactly (TermScorer.exactShallowBound):
 * the kept bounds are float32s rounded up (2⁻²³ relative at most) and a little more
 * (BOUND_SLACK, 10⁻⁹).
 */
const NEAR_THRESHOLD = 1 + 1e-6;

/**
 * Relative slack around the sink's threshold. Sums taken in another order than the query's (the
 * lead or the essential scorers first) may differ from the doc's score by a few ulps, and a doc
 * tied with the threshold may still enter the top k (ties go to the lower id): pruning a little
 * below it keeps every such doc; the sink decides on the score. Where ties can no longer enter
 * (every doc from the window on has an id above the worst kept hit's: sink.tiesLoseFrom), pruning
 * gives up a little above it instead, so that docs and blocks merely tied with the worst hit are
 * skipped — in a corpus of short, similar documents most blocks of a word hold such ties.
 */
const SUM_ORDER_SLACK = 1e-12;

/** What a doc of the window starting at `windowMin` must reach to be worth scoring further. */
function pruningLimit(sink: HitSink, windowMin: number): number {
  const threshold = sink.threshold;
  if (threshold === -Infinity) return threshold;
  const slack = Math.abs(threshold) * SUM_ORDER_SLACK;
  return sink.tiesLoseFrom !== undefined && windowMin >= sink.tiesLoseFrom() ? threshold + slack : threshold - slack;
}

/**
 * For each scorer, the index of the exact form whose typo variants it scores
 * (TypoVariantsScorer), else -1; null when none does.
 */
function exactFormsOf(scorers: readonly Scorer[]): Int32Array | null {
  let exactOf: Int32Array | null = null;
  for (let j = 0; j < scorers.length; j++) {
    const scorer = scorers[j];
    if (!(scorer instanceof TypoVariantsScorer) || scorer.exact === null) continue;
    exactOf ??= new Int32Array(scorers.length).fill(-1);
    exactOf[j] = scorers.indexOf(scorer.exact);
  }
  return exactOf;
}

/** Each scorer's other half of a word: its typo variants' scorer, or its exact form's; else -1. */
function matesOf(exactOf: Int32Array): Int32Array {
  const mates = new Int32Array(exactOf.length).fill(-1);
  for (let j = 0; j < exactOf.length; j++) {
    if (exactOf[j] < 0) continue;
    mates[j] = exactOf[j];
    mates[exactOf[j]] = j;
  }
  return mates;
}

/**
 * Drops from the window (bound 0) the typo variants of every word whose exact form is required,
 * and answers the total of the bounds left. A word scores max(exact, variant): its variants
 * scorer adds max(0, variant − exact) to a doc of the exact form. With the exact form required,
 * a doc whose exact score e is below the variants' bound v can reach at most v plus the other
 * words' bounds — the total less the exact form's bound, below the limit — so it cannot win; a
 * doc with e ≥ v gets nothing from its variants. Either way they need not be read.
 */
function dropVariantsOfRequired(exactOf: Int32Array, bounds: Float64Array, total: number, limit: number): number {
  for (let j = 0; j < exactOf.length; j++) {
    const exact = exactOf[j];
    if (exact < 0 || bounds[j] === 0 || !isRequired(bounds[exact], total, limit)) continue;
    total -= bounds[j];
    bounds[j] = 0;
  }
  return total;
}

/**
 * Whether a scorer with window bound `bound` is required: without it, the bounds of the others
 * (`total` is all of theirs summed) cannot reach `limit`.
 */
function isRequired(bound: number, total: number, limit: number): boolean {
  return bound > 0 && total - bound < limit;
}

/** Insertion sort of the first `count` scorer indexes by their bounds, ascending (a handful of scorers). */
function sortByBound(order: Int32Array, count: number, bounds: Float64Array): void {
  for (let i = 1; i < count; i++) {
    const index = order[i];
    let j = i - 1;
    while (j >= 0 && bounds[order[j]] > bounds[index]) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = index;
  }
}
