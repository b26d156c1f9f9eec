// Scores one term over a segment's postings with BM25F; a field scope (`title:word`) keeps only
// docs where the term occurs in that field. Each postings block's best score, for block-max
// WAND, is the best of its impacts (segment/impacts.ts) under this search's weight.

import type { FieldScope } from '../../query/index.ts';
import type { PostingsCursor, TfBounds } from '../../segment/postings-cursor.ts';
import { NO_MORE_DOCS } from '../../segment/postings-cursor.ts';
import type { Bm25fWeight } from '../bm25.ts';
import type { ScoreExplanation } from '../score-explanation.ts';
import { float32Above } from '../../segment/impact-bound-cache.ts';
import type { ImpactBounds } from '../../segment/impact-bound-cache.ts';
import { IMPACT_WORDS, MAX_BLOCK_IMPACTS, readImpactsAt } from '../../segment/impacts.ts';
import { EVERY_DOC } from './scorer.ts';
import type { FrequencyScorer } from './scorer.ts';

/** A block's or a group's impacts (MAX_BLOCK_IMPACTS at most), read into it (a search runs to its end before the next starts). */
const impactScratch = new Uint32Array(MAX_BLOCK_IMPACTS * IMPACT_WORDS);

export class TermScorer implements FrequencyScorer {
  readonly cost: number;
  /** The term's tf and length extremes, read from every skip entry when a bound over every doc is first asked for. */
  private termBounds: TfBounds | null = null;
  private maxScoreValue = -1;
  private maxFrequencyValue = -1;
  shallowEnd = EVERY_DOC;
  groupEnd = EVERY_DOC;


  constructor(
    readonly term: string,
    private readonly cursor: PostingsCursor,
    private readonly weight: Bm25fWeight,
    private readonly field: FieldScope,
    private readonly titleLengths: Uint32Array,
    private readonly textLengths: Uint32Array,
    /** The segment's blocks' and groups' best weighted frequencies under this weight (filled as computed). */
    private readonly bounds: ImpactBounds,
    /** The docs' title and text length floors (segment/length-floors.ts). */
    private readonly floors: Uint16Array,
  ) {
    this.cost = cursor.docFreq;
  }

  /** Whether every doc of the term's postings matches (no field scope keeps some out): then `cost` counts its matches. */
  get matchesEveryPosting(): boolean {
    return this.field === 'all';
  }

  get maxScore(): number {
    if (this.maxScoreValue < 0) this.maxScoreValue = this.weight.upperBound((this.termBounds ??= this.cursor.termBounds()));
    return this.maxScoreValue;
  }

  get maxFrequency(): number {
    if (this.maxFrequencyValue < 0) this.maxFrequencyValue = this.weight.frequencyBound((this.termBounds ??= this.cursor.termBounds()));
    return this.maxFrequencyValue;
  }

  get doc(): number {
    return this.cursor.doc;
  }

  next(): number {
    const doc = this.cursor.next();
    return this.field === 'all' ? doc : this.skipToFieldMatch(doc);
  }

  advance(target: number): number {
    const doc = this.cursor.advance(target);
    return this.field === 'all' ? doc : this.skipToFieldMatch(doc);
  }

  shallowBound(target: number): number {
    const block = this.cursor.shallowBlock(target);
    this.shallowBlockIndex = block;
    if (block < 0) {
      this.shallowEnd = EVERY_DOC;
      return 0;
    }
    this.shallowEnd = this.cursor.blockLastDoc(block);
    const entry = this.cursor.skipEntry(block);
    let frequency = this.bounds.blocks[entry];
    if (frequency !== frequency) this.bounds.blocks[entry] = frequency = float32Above(this.blockFrequency(block));
    return this.weight.saturatedBound(frequency);
  }

  /** The block the latest `shallowBound` found (-1: none). */
  private shallowBlockIndex = -1;

  /**
   * The best score of the block the latest `shallowBound` found, its impacts weighed now and not
   * rounded up: the score of its best doc to the bit, as `score()` gives it (`shallowBound`
   * answers a little above, from a float32 kept per block). Where a block's best doc merely ties
   * the threshold, this is what lets the block be skipped.
   */
  exactShallowBound(): number {
    const block = this.shallowBlockIndex;
    return block < 0 ? 0 : this.weight.saturated(this.blockFrequency(block));
  }

  groupBound(target: number): number {
    const cursor = this.cursor;
    if (cursor.groupCount === 0) {
      const bound = this.shallowBound(target);
      this.groupEnd = this.shallowEnd;
      this.groupIndex = -1;
      return bound;
    }
    const group = cursor.shallowGroup(target);
    this.groupIndex = group;
    if (group < 0) {
      this.groupEnd = EVERY_DOC;
      return 0;
    }
    this.groupEnd = cursor.groupLastDoc(group);
    const entry = cursor.groupEntry(group);
    let frequency = this.bounds.groups[entry];
    if (frequency !== frequency) this.bounds.groups[entry] = frequency = float32Above(this.groupFrequency(group));
    return this.weight.saturatedBound(frequency);
  }

  /** The group the latest `groupBound` found (-1: none, or it answered for a block). */
  private groupIndex = -1;

  /** As `exactShallowBound`, for what the latest `groupBound` answered. */
  exactGroupBound(): number {
    const cursor = this.cursor;
    if (cursor.groupCount === 0) return this.exactShallowBound();
    const group = this.groupIndex;
    return group < 0 ? 0 : this.weight.saturated(this.groupFrequency(group));
  }

  /** The group's best weighted frequency: the best of its impacts'. */
  private groupFrequency(group: number): number {
    return this.bestFrequency(this.cursor.groupImpactBytes!, this.cursor.groupImpactsAt(group));
  }

  /** The block's best weighted frequency (the score rises with it): the best of its impacts'. */
  private blockFrequency(block: number): number {
    const at = this.cursor.impactsAt(block);
    if (at < 0) {
      const impacts = impactScratch;
      this.cursor.blockImpacts(block, impacts);
      return this.weight.pseudoFrequency(impacts[0], impacts[1], impacts[2], impacts[3]);
    }
    return this.bestFrequency(this.cursor.impactBytes!, at);
  }

  /** The best weighted frequency of the impacts at `at` in `bytes` (impacts.ts). */
  private bestFrequency(bytes: Uint8Array, at: number): number {
    const impacts = impactScratch;
    const count = readImpactsAt(bytes, at, impacts);
    let best = 0;
    for (let i = 0; i < count * IMPACT_WORDS; i += IMPACT_WORDS) {
      const frequency = this.weight.pseudoFrequency(impacts[i], impacts[i + 1], impacts[i + 2], impacts[i + 3]);
      if (frequency > best) best = frequency;
    }
    return best;
  }

  /**
   * Marks on `bits` (bit `doc - base`) the docs from the current one up to `last` inclusive that
   * lie in the current postings block, without moving; answers how many. Only where
   * `matchesEveryPosting` (a field scope would keep some out).
   */
  markBlockDocs(bits: Uint32Array, base: number, last: number): number {
    return this.cursor.markBlockDocs(bits, base, last);
  }

  /** A weighted frequency below which this term's score stays below `score` (Bm25fWeight.frequencyBelow). */
  frequencyBelow(score: number): number {
    return this.weight.frequencyBelow(score);
  }

  /** Docs looked at by `skipToFrequency` (for the search budget). */
  walked = 0;

  /**
   * Moves to the first doc, from the current one up to `last`, whose weighted frequency reaches
   * `minFrequency`, reading tfs and lengths straight from the block without scoring the docs it
   * passes; answers it, or the first doc past `last` (NO_MORE_DOCS at the end). Only where
   * `matchesEveryPosting`.
   */
  skipToFrequency(last: number, minFrequency: number): number {
    const cursor = this.cursor;
    const weight = this.weight;
    const titleLengths = this.titleLengths;
    const textLengths = this.textLengths;
    const floors = this.floors;
    let doc = cursor.doc;
    while (doc <= last) {
      const docs = cursor.blockDocs;
      const end = cursor.blockEnd;
      const titleTfs = cursor.blockTitleTfs();
      const textTfs = cursor.blockTextTfs();
      const from = cursor.slot;
      // Most docs are passed over without reading their exact lengths, two loads from arrays
      // that miss the CPU's caches at a million docs: first by the block's shortest lengths (no
      // load), then by the doc's length floors (one load from a small array).
      const minTitleLength = cursor.blockMinTitleLength;
      const minTextLength = cursor.blockMinTextLength;
      for (let slot = from; slot < end; slot++) {
        doc = docs[slot];
        if (doc > last) {
          this.walked += slot - from;
          return cursor.moveToSlot(slot);
        }
        const titleTf = titleTfs[slot];
        const textTf = textTfs[slot];
        if (weight.pseudoFrequency(titleTf, minTitleLength, textTf, minTextLength) < minFrequency) continue;
        if (weight.frequencyAtFloors(titleTf, textTf, floors[doc]) < minFrequency) continue;
        if (weight.pseudoFrequency(titleTf, titleLengths[doc], textTf, textLengths[doc]) >= minFrequency) {
          this.walked += slot - from + 1;
          return cursor.moveToSlot(slot);
        }
      }
      this.walked += end - from;
      cursor.moveToSlot(end - 1);
      doc = cursor.next();
    }
    return doc;
  }

  /** The current doc's positions of the term (title and text), ascending, into `out`. */
  positions(out: number[]): number[] {
    return this.cursor.positions(out);
  }

  score(): number {
    const doc = this.cursor.doc;
    return this.weight.score(this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  /**
   * A bound of the current doc's score from its tfs and its length floors, that reads no exact
   * length (see skipToFrequency): where it cannot reach what a doc needs, the doc's lengths need
   * not leave memory.
   */
  scoreAtFloors(): number {
    const cursor = this.cursor;
    return this.weight.saturatedBound(this.weight.frequencyAtFloors(cursor.titleTf(), cursor.textTf(), this.floors[cursor.doc]));
  }

  frequency(): number {
    const doc = this.cursor.doc;
    return this.weight.pseudoFrequency(this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  explainFrequency(): ScoreExplanation {
    const doc = this.cursor.doc;
    return this.weight.explainFrequency(this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  explain(): ScoreExplanation {
    const doc = this.cursor.doc;
    const label = this.field === 'all' ? this.term : `${this.field}:${this.term}`;
    return this.weight.explain(label, this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  private skipToFieldMatch(doc: number): number {
    while (doc !== NO_MORE_DOCS && (this.field === 'title' ? this.cursor.titleTf() : this.cursor.textTf()) === 0) {
      doc = this.cursor.next();
    }
    return doc;
  }
}
