// Each postings block's (and impact group's) best weighted frequency, kept per segment for the
// weights a search uses: BM25F's frequency before saturation depends only on the field weights
// and the average lengths, not on the word, so a frequent word searched again — or in another
// query — reads its blocks' bounds instead of decoding their impacts again (impacts.ts). One
// array per weighting, indexed by skip entry (groups by group number), NaN where not computed
// yet; the few most recent weightings are kept (the average lengths move with every write).

/** Weightings kept per segment (a collection's searches mostly share one). */
const MAX_WEIGHTINGS = 4;

export interface ImpactBounds {
  /** Per skip entry: the block's best weighted frequency, or NaN. */
  readonly blocks: Float32Array;
  /** Per impact group: the group's, or NaN. */
  readonly groups: Float32Array;
}

export class ImpactBoundCache {
  private readonly byWeighting = new Map<string, ImpactBounds>();

  constructor(
    private readonly skipEntries: number,
    private readonly groupCount: number,
  ) {}

  /** The bounds for the weighting named `key` (made, empty, when first asked for). */
  forWeighting(key: string): ImpactBounds {
    let bounds = this.byWeighting.get(key);
    if (bounds !== undefined) return bounds;
    if (this.byWeighting.size >= MAX_WEIGHTINGS) this.byWeighting.delete(this.byWeighting.keys().next().value!);
    bounds = { blocks: new Float32Array(this.skipEntries).fill(NaN), groups: new Float32Array(this.groupCount).fill(NaN) };
    this.byWeighting.set(key, bounds);
    return bounds;
  }
}

/**
 * A frequency as a float32 that is not below it (a bound must not shrink in the rounding):
 * the cache stores these.
 */
export function float32Above(value: number): number {
  const rounded = Math.fround(value);
  return rounded >= value ? rounded : Math.fround(value * (1 + 2 ** -22));
}
