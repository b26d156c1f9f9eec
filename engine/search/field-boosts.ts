// Ranking by fields (docs/api.md, "Ranking by fields"): a relevance score multiplied by what a
// document's metadata says — a numeric field's value (popularity, rating) through a modifier,
// or how recent a date field is (Elasticsearch's field_value_factor and decay functions).
//
//  - numeric: × (1 + modifier(factor × value)), modifier `none`, `log1p` or `sqrt`, a negative
//    value counting 0; the largest value of an array counts.
//  - recency: × (1 + factor × decay^(max(0, |now − date| − offset) / scale)): up to ×(1 + factor)
//    for a date within `offset` of now, halving (for decay 0.5) every `scale` beyond. The field
//    holds ISO 8601 / RFC 3339 date strings; the newest of an array counts.
//  - A document without the field (or without a value of its kind) is not boosted: ×1.
//
// Several boosts multiply. Per segment, `SegmentBoosts` gives each doc's multiplier and the
// largest any doc of the segment can have, so a boosted ranking still skips with WAND: the
// relevance sink (relevance-sink.ts) multiplies the scores and asks the scorers for threshold /
// largest multiplier. A segment searched twice in a row with the same boosts keeps its docs'
// multipliers (a code of 1–4 bytes a doc into the distinct ones), and their shares of the
// largest, with which WAND skips docs and blocks of docs the boosts cannot lift enough.

import type { FieldIndex } from '../segment/field-index.ts';
import type { SegmentReader } from '../segment/segment-reader.ts';
import { FACTOR_BLOCK_SHIFT } from './hit-sink.ts';
import type { ScoreFactorBounds } from './hit-sink.ts';
import type { ScoreExplanation } from './score-explanation.ts';

export type BoostModifier = 'none' | 'log1p' | 'sqrt';

/** One boost of a search, its durations in milliseconds (the server parses `30d`). */
export type FieldBoost =
  | { kind: 'numeric'; field: string; modifier: BoostModifier; factor: number }
  | { kind: 'recency'; field: string; factor: number; scaleMs: number; offsetMs: number; decay: number };

/** Most boosts one search may apply. */
export const MAX_FIELD_BOOSTS = 8;

const MODIFIERS: Readonly<Record<BoostModifier, (x: number) => number>> = {
  none: (x) => x,
  log1p: (x) => Math.log1p(x),
  sqrt: (x) => Math.sqrt(x),
};

/** Per field of a segment (immutable): each string value read as a date, ms since the epoch (NaN: not a date). */
const parsedDates = new WeakMap<FieldIndex, Float64Array>();

/** The field's string values as dates, parsed once per segment rather than at every search. */
function datesOf(index: FieldIndex): Float64Array {
  let times = parsedDates.get(index);
  if (times === undefined) {
    times = new Float64Array(index.stringCount);
    for (let s = 0; s < index.stringCount; s++) times[s] = Date.parse(index.value(index.numberCount + s) as string);
    parsedDates.set(index, times);
  }
  return times;
}

/** One boost over one segment's field. */
class SegmentBoost {
  /** The multiplier of each ordinal of the field (1 where its value is of another kind). */
  private readonly byOrdinal: Float64Array;
  readonly max: number;

  constructor(
    readonly boost: FieldBoost,
    private readonly index: FieldIndex,
    now: number,
  ) {
    this.byOrdinal = new Float64Array(index.distinct).fill(1);
    if (boost.kind === 'numeric') {
      const modify = MODIFIERS[boost.modifier];
      for (let ord = 0; ord < index.numberCount; ord++) this.byOrdinal[ord] = 1 + modify(boost.factor * Math.max(0, index.numbers[ord]));
    } else {
      const lambda = Math.log(boost.decay) / boost.scaleMs;
      const times = datesOf(index);
      for (let ord = index.numberCount; ord < index.numberCount + index.stringCount; ord++) {
        const time = times[ord - index.numberCount];
        if (Number.isNaN(time)) continue;
        const distance = Math.max(0, Math.abs(now - time) - boost.offsetMs);
        this.byOrdinal[ord] = 1 + boost.factor * Math.exp(lambda * distance);
      }
    }
    let max = 1;
    for (const multiplier of this.byOrdinal) max = Math.max(max, multiplier);
    this.max = max;
  }

  /** The doc's multiplier: its values' largest (1 without a value). */
  multiplier(doc: number): number {
    const { docStarts, docOrds } = this.index;
    let best = 1;
    for (let i = docStarts[doc]; i < docStarts[doc + 1]; i++) best = Math.max(best, this.byOrdinal[docOrds[i]]);
    return best;
  }

  explain(doc: number): ScoreExplanation {
    const value = this.multiplier(doc);
    const { boost } = this;
    const how =
      boost.kind === 'numeric'
        ? `1 + ${boost.modifier === 'none' ? '' : boost.modifier}(${boost.factor} × ${boost.field})`
        : `1 + ${boost.factor} × ${boost.decay}^(max(0, |now − ${boost.field}| − ${boost.offsetMs} ms) / ${boost.scaleMs} ms)`;
    return { value, description: value === 1 ? `boost by ${boost.field}: no value, ×1` : `boost by ${boost.field}: ${how}`, details: [] };
  }
}

/**
 * Each doc's multiplier as a code into the segment's distinct multipliers: 1, 2 or 4 bytes a
 * doc rather than 8, so that the reads of a search, spread over the segment, mostly hit the
 * cache (a field such as a rating or a count has few distinct values).
 */
export interface MultiplierTable {
  readonly codes: Uint8Array | Uint16Array | Uint32Array;
  readonly values: Float64Array;
}

/**
 * Per segment, its boosts as searched with last (JSON of the boosts and the clock): a search
 * with the same boosts uses them again, and from the second such search in a row their docs'
 * multipliers are kept (MultiplierTable): an application's default boosts, or a client
 * repeating its own, then cost one small array read a doc, and WAND skips the docs and blocks
 * whose multiplier keeps them below the threshold (ScoreFactorBounds).
 */
const keptBoosts = new WeakMap<SegmentReader, { key: string; boosts: SegmentBoosts }>();

/** A bound is a hair above the doc's share of the largest multiplier: rounding never skips a doc that ties. */
const BOUND_SLACK = 1 + 1e-9;

/** A search's boosts over one segment: each doc's multiplier, and the largest. */
export class SegmentBoosts {
  private readonly boosts: SegmentBoost[];
  /** The largest multiplier a doc of this segment can have (the product of each boost's largest). */
  readonly max: number;
  /** Each doc's multiplier, once kept for this segment and these boosts (else null: computed per doc). */
  table: MultiplierTable | null = null;
  /** With the kept table: each doc's and each block's share of `max`. */
  factorBounds: ScoreFactorBounds | null = null;

  /** Each segment's boosts for a search: the ones of the previous search when it had the same. */
  static forSegments(readers: readonly SegmentReader[], boosts: readonly FieldBoost[], now: number): SegmentBoosts[] {
    const key = JSON.stringify([boosts, boosts.some((boost) => boost.kind === 'recency') ? now : 0]);
    return readers.map((reader) => {
      const kept = keptBoosts.get(reader);
      if (kept !== undefined && kept.key === key) {
        kept.boosts.keepTable(reader.docCount);
        return kept.boosts;
      }
      const made = new SegmentBoosts(reader, boosts, now);
      keptBoosts.set(reader, { key, boosts: made });
      return made;
    });
  }

  private constructor(reader: SegmentReader, boosts: readonly FieldBoost[], now: number) {
    this.boosts = [];
    for (const boost of boosts) {
      const index = reader.field(boost.field);
      if (index !== null) this.boosts.push(new SegmentBoost(boost, index, now));
    }
    this.max = this.boosts.reduce((product, boost) => product * boost.max, 1);
  }

  /** Makes the table of multipliers (the second search in a row with these boosts). */
  private keepTable(docCount: number): void {
    if (this.table !== null || this.boosts.length === 0) return;
    const codeOf = new Map<number, number>();
    const raw = new Float64Array(docCount);
    for (let doc = 0; doc < docCount; doc++) {
      const multiplier = this.computeMultiplier(doc);
      raw[doc] = multiplier;
      if (!codeOf.has(multiplier)) codeOf.set(multiplier, codeOf.size);
    }
    const codes = codeOf.size <= 0x100 ? new Uint8Array(docCount) : codeOf.size <= 0x10000 ? new Uint16Array(docCount) : new Uint32Array(docCount);
    for (let doc = 0; doc < docCount; doc++) codes[doc] = codeOf.get(raw[doc])!;
    const values = Float64Array.from(codeOf.keys());
    this.table = { codes, values };
    this.factorBounds = this.max > 0 && Number.isFinite(this.max) ? boundsOf(this.table, this.max) : null;
  }

  get empty(): boolean {
    return this.boosts.length === 0;
  }

  multiplier(doc: number): number {
    return this.table === null ? this.computeMultiplier(doc) : this.table.values[this.table.codes[doc]];
  }

  private computeMultiplier(doc: number): number {
    let product = 1;
    for (const boost of this.boosts) product *= boost.multiplier(doc);
    return product;
  }

  /** `score` (the text score) times the boosts, explained. */
  explain(doc: number, score: number, text: ScoreExplanation): ScoreExplanation {
    return { value: score * this.multiplier(doc), description: 'the relevance score × the field boosts', details: [text, ...this.boosts.map((boost) => boost.explain(doc))] };
  }
}

/** Each distinct multiplier's and each block's largest as a share of the largest of all. */
function boundsOf(table: MultiplierTable, max: number): ScoreFactorBounds {
  const { codes, values } = table;
  const shares = values.map((value) => (value / max) * BOUND_SLACK);
  const perBlock = new Float64Array(((codes.length - 1) >> FACTOR_BLOCK_SHIFT) + 1);
  for (let doc = 0; doc < codes.length; doc++) {
    const share = shares[codes[doc]];
    const block = doc >> FACTOR_BLOCK_SHIFT;
    if (share > perBlock[block]) perBlock[block] = share;
  }
  return { codes, shares, perBlock };
}
