// BM25F scoring (k1 1.2, b 0.75): a term's title and text frequencies are length-normalised per
// field, weighted (title above text), summed, then saturated once, times the term's idf. The
// statistics (doc count, average field lengths, document frequencies) span all segments of
// the collection. Also gives score upper bounds from tf/length extremes, and explanations.

import type { FieldScope } from '../query/index.ts';
import type { TfBounds } from '../segment/postings-cursor.ts';
import { LENGTH_FLOORS } from '../segment/length-floors.ts';
import type { ScoreExplanation } from './score-explanation.ts';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/**
 * How much a title occurrence counts against a text occurrence. Chosen on SciFact's train
 * queries (nDCG@10 0.701 at 1.5, 0.707 at 2, 0.710 at 3, 0.709 at 4); the test queries report.
 */
export const TITLE_WEIGHT = 3;
export const TEXT_WEIGHT = 1;
/** Bounds are inflated by this factor so float rounding never makes a bound undercut a score. */
const BOUND_SLACK = 1 + 1e-9;

/** Statistics of the whole collection (all segments, deleted docs included until merged). */
export interface CollectionStatistics {
  docCount: number;
  avgTitleLength: number;
  avgTextLength: number;
  /** Page-level ranking's average text length per page or page-less document, when several collections are searched as one. */
  avgPageTextLength?: number;
  /** Whether to rank by pages, when several collections are searched as one (any of them has paged documents). */
  byPages?: boolean;
  /** The search's weights of title and text (its `search_fields`, or the collection's); default TITLE_WEIGHT and TEXT_WEIGHT. */
  fieldWeights?: FieldWeights;
  /** The metadata fields the search looks in: those it weighs whose words every segment indexes. */
  metadataFields?: readonly SearchedField[];
  /** Explanations name the field of `text` so (a metadata field's statistics, `fieldStatistics`). */
  textLabel?: string;
}

/** How much an occurrence in each field counts; 0 (or absent): the field is not searched. */
export interface FieldWeights {
  title: number;
  text: number;
  /** Searchable metadata fields by name (`author` for `metadata.author`). */
  metadata?: Readonly<Record<string, number>>;
}

/** A metadata field a search looks in, with its weight and its average length over the collection. */
export interface SearchedField {
  name: string;
  weight: number;
  avgLength: number;
}

/**
 * The statistics a metadata field's words are weighed with: the field stands where `text` does
 * (its terms carry their tf as a text tf), with its weight and average length, and no title.
 */
export function fieldStatistics(stats: CollectionStatistics, field: SearchedField): CollectionStatistics {
  return { docCount: stats.docCount, avgTitleLength: 0, avgTextLength: field.avgLength, fieldWeights: { title: 0, text: field.weight }, textLabel: `metadata.${field.name}` };
}

export const DEFAULT_FIELD_WEIGHTS: Readonly<FieldWeights> = Object.freeze({ title: TITLE_WEIGHT, text: TEXT_WEIGHT });

/** Robertson–Spärck Jones idf as Lucene computes it: always positive. */
export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** Weightings whose floor norms are kept (each weight of a query, in each segment, shares its weighting's). */
const FLOOR_NORMS_KEPT = 16;
const floorNormsByWeighting = new Map<string, Float64Array>();

/** The BM25F weight of one term (or phrase) against the collection. */
export class Bm25fWeight {
  private readonly titleWeight: number;
  private readonly textWeight: number;
  private readonly titleLengthFactor: number;
  private readonly textLengthFactor: number;

  /**
   * `boost` scales every score (typo expansions score below exact words); `boostReason` says
   * why, in explanations.
   */
  constructor(
    readonly idf: number,
    readonly stats: CollectionStatistics,
    readonly field: FieldScope,
    readonly boost = 1,
    readonly boostReason = '',
  ) {
    const weights = stats.fieldWeights ?? DEFAULT_FIELD_WEIGHTS;
    // `title:word` searches the title even where the search leaves it out (weight 1 then).
    this.titleWeight = field === 'text' ? 0 : field === 'title' ? weights.title || 1 : weights.title;
    this.textWeight = field === 'title' ? 0 : field === 'text' ? weights.text || 1 : weights.text;
    this.titleLengthFactor = BM25_B / (stats.avgTitleLength > 0 ? stats.avgTitleLength : 1);
    this.textLengthFactor = BM25_B / (stats.avgTextLength > 0 ? stats.avgTextLength : 1);
  }

  /** Names what `pseudoFrequency` depends on: equal keys, equal frequencies for equal tfs and lengths (impact-bound-cache.ts). */
  get frequencyKey(): string {
    return (this.key ??= `${this.titleWeight}:${this.textWeight}:${this.titleLengthFactor}:${this.textLengthFactor}`);
  }

  private key: string | null = null;

  /** Weighted, length-normalised frequency before saturation (BM25F sums it over fields). */
  pseudoFrequency(titleTf: number, titleLength: number, textTf: number, textLength: number): number {
    let tf = 0;
    if (titleTf > 0) tf += (this.titleWeight * titleTf) / (1 - BM25_B + this.titleLengthFactor * titleLength);
    if (textTf > 0) tf += (this.textWeight * textTf) / (1 - BM25_B + this.textLengthFactor * textLength);
    return tf;
  }

  /**
   * A bound of `pseudoFrequency` from the tfs and the doc's length floors (length-floors.ts: its
   * title code in the high byte of `floors`, its text code in the low one).
   */
  frequencyAtFloors(titleTf: number, textTf: number, floors: number): number {
    const norms = (this.floorNorms ??= this.makeFloorNorms());
    return titleTf * norms[floors >>> 8] + textTf * norms[256 + (floors & 255)];
  }

  private floorNorms: Float64Array | null = null;

  /**
   * Per code, each field's weight over its length normalisation at the code's floor (title codes,
   * then text codes), a little high; shared by the weights of one weighting (FLOOR_NORMS_KEPT).
   */
  private makeFloorNorms(): Float64Array {
    const key = this.frequencyKey;
    const kept = floorNormsByWeighting.get(key);
    if (kept !== undefined) return kept;
    const norms = new Float64Array(512);
    for (let code = 0; code < 256; code++) {
      norms[code] = (this.titleWeight * BOUND_SLACK) / (1 - BM25_B + this.titleLengthFactor * LENGTH_FLOORS[code]);
      norms[256 + code] = (this.textWeight * BOUND_SLACK) / (1 - BM25_B + this.textLengthFactor * LENGTH_FLOORS[code]);
    }
    if (floorNormsByWeighting.size >= FLOOR_NORMS_KEPT) floorNormsByWeighting.delete(floorNormsByWeighting.keys().next().value!);
    floorNormsByWeighting.set(key, norms);
    return norms;
  }

  score(titleTf: number, titleLength: number, textTf: number, textLength: number): number {
    return this.saturated(this.pseudoFrequency(titleTf, titleLength, textTf, textLength));
  }

  /** The score of a pseudo-frequency (summed over fields): boost × idf × tf × (k1 + 1) / (k1 + tf). */
  saturated(tf: number): number {
    return tf === 0 ? 0 : (this.boost * this.idf * tf * (BM25_K1 + 1)) / (BM25_K1 + tf);
  }

  /** An upper bound of `score` over docs whose tfs and lengths lie within `bounds`. */
  upperBound(bounds: TfBounds): number {
    return this.score(bounds.maxTitleTf, bounds.minTitleLength, bounds.maxTextTf, bounds.minTextLength) * BOUND_SLACK;
  }

  /** An upper bound of `pseudoFrequency` over docs whose tfs and lengths lie within `bounds`. */
  frequencyBound(bounds: TfBounds): number {
    return this.pseudoFrequency(bounds.maxTitleTf, bounds.minTitleLength, bounds.maxTextTf, bounds.minTextLength) * BOUND_SLACK;
  }

  /**
   * A pseudo-frequency below which `saturated` stays below `score` (the inverse of the
   * saturation, a little low so rounding never leaves out a doc that reaches it): 0 for a score
   * of 0 or less, Infinity for one no frequency reaches.
   */
  frequencyBelow(score: number): number {
    if (!(score > 0)) return 0;
    const ceiling = this.boost * this.idf * (BM25_K1 + 1);
    if (score >= ceiling) return Infinity;
    return ((BM25_K1 * score) / (ceiling - score)) * (1 - 1e-9);
  }

  /** An upper bound of `saturated` for pseudo-frequencies up to `tf`. */
  saturatedBound(tf: number): number {
    return this.saturated(tf) * BOUND_SLACK;
  }

  /** The explanation of a pseudo-frequency summed over fields (`parts`: each field's `explainFrequency`). */
  explainSum(label: string, tf: number, parts: ScoreExplanation[]): ScoreExplanation {
    const boost: ScoreExplanation[] = this.boost === 1 ? [] : [{ value: this.boost, description: `boost: ${this.boostReason}`, details: [] }];
    return {
      value: this.saturated(tf),
      description: `weight(${label}) BM25F over its fields: ${this.boost === 1 ? '' : 'boost × '}idf × tf × (k1 + 1) / (k1 + tf), k1=${BM25_K1}, b=${BM25_B}`,
      details: [
        ...boost,
        { value: this.idf, description: `idf = ln(1 + (N - n + 0.5) / (n + 0.5)), N=${this.stats.docCount}, n: documents with it in any searched field`, details: [] },
        { value: tf, description: 'tf = Σ over the fields of weight × freq / (1 - b + b × length / avgLength)', details: parts },
      ],
    };
  }

  /** The explanation of the pseudo-frequency alone (one field's part of a sum). */
  explainFrequency(titleTf: number, titleLength: number, textTf: number, textLength: number): ScoreExplanation {
    return this.explain('', titleTf, titleLength, textTf, textLength).details.at(-1)!;
  }

  explain(label: string, titleTf: number, titleLength: number, textTf: number, textLength: number): ScoreExplanation {
    const tf = this.pseudoFrequency(titleTf, titleLength, textTf, textLength);
    const value = this.score(titleTf, titleLength, textTf, textLength);
    const boosted = this.boost === 1 ? '' : 'boost × ';
    const boost: ScoreExplanation[] = this.boost === 1 ? [] : [{ value: this.boost, description: `boost: ${this.boostReason}`, details: [] }];
    return {
      value,
      description: `weight(${label}) BM25F: ${boosted}idf × tf × (k1 + 1) / (k1 + tf), k1=${BM25_K1}, b=${BM25_B}`,
      details: [
        ...boost,
        {
          value: this.idf,
          description: `idf = ln(1 + (N - n + 0.5) / (n + 0.5)), N=${this.stats.docCount}`,
          details: [],
        },
        {
          value: tf,
          description:
            this.stats.textLabel !== undefined
              ? `tf = weight × freq / (1 - b + b × length / avgLength) in ${this.stats.textLabel}` +
                ` (weight ${this.textWeight}, freq ${textTf}, length ${textLength}, avgLength ${round(this.stats.avgTextLength)})`
              : 'tf = Σ weight × freq / (1 - b + b × length / avgLength) over title and text' +
                ` (title: weight ${this.titleWeight}, freq ${titleTf}, length ${titleLength}, avgLength ${round(this.stats.avgTitleLength)};` +
                ` text: weight ${this.textWeight}, freq ${textTf}, length ${textLength}, avgLength ${round(this.stats.avgTextLength)})`,
          details: [],
        },
      ],
    };
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
