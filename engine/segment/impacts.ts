// A block's competitive impacts (Lucene's CompetitiveImpactAccumulator, over BM25F's four
// inputs): of the (title tf, title length, text tf, text length) of a postings block's docs, those
// that no other doc of the block beats on all four at once — a higher or equal tf and a shorter
// or equal length in both fields. A score that rises with tf and falls with length is highest, over
// the block, at one of them, whatever the weights, k1, b and average lengths of the search: so a
// search bounds each block's best score tightly (block-max WAND) with the statistics of its own.
//
// postings.impacts holds, per skip entry, a u8 count and count × four varints; a count of 0 means
// a single impact, the skip entry's own extremes (maxTitleTf, minTitleLength, maxTextTf,
// minTextLength). A field's length is written as 0 where its tf is 0 (it does not count there).

import { BLOCK_SIZE, ByteWriter, SpillFile, growArray } from '../../storage/index.ts';
import type { FilePiece } from '../../storage/index.ts';

/** Words per impact read back: titleTf, titleLength, textTf, textLength. */
export const IMPACT_WORDS = 4;
/**
 * Most impacts a block keeps; past it, the weakest are folded into ones that beat them (looser,
 * still bounds). On the synthetic 1M corpus the most frequent words' blocks keep 26 (median) to 39.
 */
export const MAX_BLOCK_IMPACTS = 48;
/** Text tfs below this (with no title occurrence) are gathered per tf as the docs are added. */
const SMALL_TF = 32;
const U32_MAX = 0xffffffff;

/** Collects one block's docs at a time and writes each block's competitive impacts. */
export class ImpactsWriter {
  private readonly bytes = new ByteWriter(1 << 16);
  private offsets = new Uint32Array(1024);
  /** Blocks finished, and how many of them (and of `bytes`) went to the spill files. */
  private entries = 0;
  private entriesBase = 0;
  private bytesBase = 0;
  private spill: { bytes: SpillFile; offsets: SpillFile } | null = null;
  /** Docs without a title occurrence and a small text tf: the shortest text length per tf. */
  private readonly shortestByTf = new Uint32Array(SMALL_TF).fill(U32_MAX);
  private smallTfs = 0;
  /** The other docs, as they came. */
  private readonly others: Uint32Array;
  private otherCount = 0;
  /** The front being built (candidates first). */
  private readonly front: Uint32Array;
  /** Per candidate: its reference score; candidates in that order; those kept; the kept ones packed. */
  private readonly keys: Float64Array;
  private readonly order: Uint16Array;
  private readonly kept: Uint16Array;
  private readonly packed: Uint32Array;
  /** Impacts of the last finished block (or group), as written (`lastImpact`). */
  private lastCount = 0;

  /**
   * `capacity`: the most docs (or impacts, for a group's writer) one block adds. `single`: a
   * block of one impact writes it (a group's: no skip entry holds its extremes) rather than 0.
   */
  constructor(
    capacity = BLOCK_SIZE,
    private readonly single = false,
  ) {
    this.others = new Uint32Array(capacity * IMPACT_WORDS);
    this.front = new Uint32Array((SMALL_TF + capacity) * IMPACT_WORDS);
    this.keys = new Float64Array(SMALL_TF + capacity);
    this.order = new Uint16Array(SMALL_TF + capacity);
    this.kept = new Uint16Array(SMALL_TF + capacity);
    this.packed = new Uint32Array((SMALL_TF + capacity) * IMPACT_WORDS);
  }

  /** How many impacts the last finished block kept (see `lastImpact`). */
  get lastImpactCount(): number {
    return this.lastCount;
  }

  /** Word `word` (0–3) of the last finished block's impact `index`, lengths 0 where the tf is 0. */
  lastImpact(index: number, word: number): number {
    const value = this.front[index * IMPACT_WORDS + word];
    return value === U32_MAX ? 0 : value;
  }

  /** Forgets the docs added since the last finished block (a term too short for a group). */
  discardBlock(): void {
    this.gatherCandidates();
  }

  /** Adds a doc of the block being written. */
  addDoc(titleTf: number, titleLength: number, textTf: number, textLength: number): void {
    if (titleTf === 0 && textTf < SMALL_TF && textTf > 0) {
      if (textLength < this.shortestByTf[textTf]) this.shortestByTf[textTf] = textLength;
      this.smallTfs |= 1 << textTf;
      return;
    }
    const at = this.otherCount++ * IMPACT_WORDS;
    this.others[at] = titleTf;
    this.others[at + 1] = titleLength;
    this.others[at + 2] = textTf;
    this.others[at + 3] = textLength;
  }

  /** Ends the block of skip entry number `entry` (entries come in order, one block each). */
  finishBlock(entry: number): void {
    if (entry !== this.entries) throw new RangeError(`impacts for skip entry ${entry} written after ${this.entries}`);
    const local = this.entries - this.entriesBase;
    if (local === this.offsets.length) {
      this.offsets = growArray(this.offsets, this.offsets.length * 2);
    }
    this.offsets[local] = this.bytesBase + this.bytes.length;
    this.entries++;
    const count = this.gatherCandidates();
    const kept = this.keepUnbeaten(count);
    this.lastCount = kept;
    if (kept <= 1 && !this.single) {
      this.bytes.writeU8(0); // one impact: the skip entry's extremes are exactly it
      return;
    }
    this.bytes.writeU8(kept);
    const front = this.front;
    for (let i = 0; i < kept * IMPACT_WORDS; i += IMPACT_WORDS) {
      this.bytes.writeVarint(front[i]);
      this.bytes.writeVarint(front[i] === 0 ? 0 : front[i + 1]);
      this.bytes.writeVarint(front[i + 2]);
      this.bytes.writeVarint(front[i + 2] === 0 ? 0 : front[i + 3]);
    }
  }

  /** Spills to `<prefix>.spill-<name>` and `<prefix>.spill-<name>offsets` from now on (postings-writer.ts spillTo). */
  spillTo(prefix: string, name: string): void {
    this.spill = { bytes: new SpillFile(`${prefix}.spill-${name}`), offsets: new SpillFile(`${prefix}.spill-${name}offsets`) };
  }

  /** Between blocks: moves what passed `limit` bytes to the spill files. */
  spillIfLarge(limit: number): void {
    if (this.spill === null) return;
    if (this.bytes.length >= limit) {
      this.bytesBase += this.bytes.length;
      this.spill.bytes.append(this.bytes.finish());
      this.bytes.reset();
    }
    if ((this.entries - this.entriesBase) * 4 >= limit) {
      this.spill.offsets.append(this.offsetsInMemory());
      this.entriesBase = this.entries;
    }
  }

  removeSpill(): void {
    this.spill?.bytes.remove();
    this.spill?.offsets.remove();
    this.spill = null;
  }

  /** postings.impacts (write nothing more afterwards). */
  impactsSection(): Uint8Array | (Uint8Array | FilePiece)[] {
    const tail = this.bytes.finish();
    return this.spill === null ? tail : [this.spill.bytes.piece(), tail];
  }

  /** postings.impactOffsets: one u32 per skip entry (write nothing more afterwards). */
  offsetsSection(): Uint8Array | (Uint8Array | FilePiece)[] {
    const tail = this.offsetsInMemory();
    return this.spill === null ? tail : [this.spill.offsets.piece(), tail];
  }

  private offsetsInMemory(): Uint8Array {
    return new Uint8Array(this.offsets.buffer, 0, (this.entries - this.entriesBase) * 4);
  }

  /**
   * Puts the block's candidates in `front` (lengths of fields a doc lacks as U32_MAX, so any
   * doc beats it there) and clears the block; answers how many. Docs without a title
   * occurrence and with a small tf are already reduced to the shortest per tf, which only
   * the higher tfs' shorter ones beat.
   */
  private gatherCandidates(): number {
    const front = this.front;
    let count = 0;
    let shortestAbove = U32_MAX;
    for (let tf = SMALL_TF - 1; tf >= 0; tf--) {
      if ((this.smallTfs & (1 << tf)) === 0 || tf === 0) continue;
      const length = this.shortestByTf[tf];
      this.shortestByTf[tf] = U32_MAX;
      if (length >= shortestAbove) continue;
      shortestAbove = length;
      const at = count++ * IMPACT_WORDS;
      front[at] = 0;
      front[at + 1] = U32_MAX;
      front[at + 2] = tf;
      front[at + 3] = length;
    }
    this.shortestByTf[0] = U32_MAX;
    this.smallTfs = 0;
    const others = this.others;
    for (let i = 0; i < this.otherCount * IMPACT_WORDS; i += IMPACT_WORDS) {
      const at = count++ * IMPACT_WORDS;
      front[at] = others[i];
      front[at + 1] = others[i] === 0 ? U32_MAX : others[i + 1];
      front[at + 2] = others[i + 2];
      front[at + 3] = others[i + 2] === 0 ? U32_MAX : others[i + 3];
    }
    this.otherCount = 0;
    return count;
  }

  /**
   * Keeps the candidates no other one beats (of equal ones, one), packed at the start of `front`,
   * at most MAX_BLOCK_IMPACTS of them; answers how many. Candidates are taken in the order of a
   * reference score (any score that rises with tf and falls with length orders a doc after those
   * beating it), so each is only compared with those kept already.
   */
  private keepUnbeaten(count: number): number {
    // A block of one candidate (most terms' postings are a doc or two) keeps it, where it is.
    if (count <= 1) return count;
    const front = this.front;
    const keys = this.keys;
    const order = this.order;
    for (let i = 0; i < count; i++) {
      order[i] = i;
      keys[i] = referenceScore(front, i * IMPACT_WORDS);
    }
    sortByKeyDescending(order, keys, count);
    const kept = this.kept;
    let keptCount = 0;
    for (let o = 0; o < count; o++) {
      const a = order[o] * IMPACT_WORDS;
      let beaten = false;
      for (let k = 0; k < keptCount && !beaten; k++) {
        const b = kept[k] * IMPACT_WORDS;
        beaten = front[b] >= front[a] && front[b + 1] <= front[a + 1] && front[b + 2] >= front[a + 2] && front[b + 3] <= front[a + 3];
      }
      if (!beaten) kept[keptCount++] = order[o];
    }
    // Packed in the order of the reference score, at the start of `out`.
    const out = this.packed;
    for (let k = 0; k < keptCount; k++) {
      const from = kept[k] * IMPACT_WORDS;
      const to = k * IMPACT_WORDS;
      for (let w = 0; w < IMPACT_WORDS; w++) out[to + w] = front[from + w];
    }
    for (let i = 0; i < keptCount * IMPACT_WORDS; i++) front[i] = out[i];
    // Too many (rare): the weakest are folded, by pairs, into impacts that beat both.
    while (keptCount > MAX_BLOCK_IMPACTS) {
      const a = (keptCount - 2) * IMPACT_WORDS;
      const b = a + IMPACT_WORDS;
      front[a] = Math.max(front[a], front[b]);
      front[a + 1] = Math.min(front[a + 1], front[b + 1]);
      front[a + 2] = Math.max(front[a + 2], front[b + 2]);
      front[a + 3] = Math.min(front[a + 3], front[b + 3]);
      keptCount--;
    }
    return keptCount;
  }
}

/** Typical average lengths, for the reference score only (any positive values keep it exact). */
const REFERENCE_TITLE_LENGTH = 8;
const REFERENCE_TEXT_LENGTH = 150;

/** BM25F's weighted frequency with typical weights and lengths, for the candidate at `at` (lengths U32_MAX where the tf is 0). */
function referenceScore(front: Uint32Array, at: number): number {
  let score = 0;
  if (front[at] > 0) score += (3 * front[at]) / (0.25 + (0.75 * front[at + 1]) / REFERENCE_TITLE_LENGTH);
  if (front[at + 2] > 0) score += front[at + 2] / (0.25 + (0.75 * front[at + 3]) / REFERENCE_TEXT_LENGTH);
  return score;
}

/** Insertion sort of `order[0, count)` by `keys`, highest first (a block's candidates: at most a few hundred). */
function sortByKeyDescending(order: Uint16Array, keys: Float64Array, count: number): void {
  for (let i = 1; i < count; i++) {
    const index = order[i];
    const key = keys[index];
    let j = i - 1;
    while (j >= 0 && keys[order[j]] < key) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = index;
  }
}

/**
 * Reads the impacts of skip entry `entry` into `out` (IMPACT_WORDS each, lengths 0 where the tf
 * is 0); answers how many, or 0 where the entry's extremes are its one impact (or the segment
 * has none: layouts before 6).
 */
export function readImpacts(bytes: Uint8Array | null, offsets: Uint32Array | null, entry: number, out: Uint32Array): number {
  if (bytes === null || offsets === null) return 0;
  return readImpactsAt(bytes, offsets[entry], out);
}

/**
 * Reads the impacts written at `at` in `bytes` (a count byte, then four varints each) into `out`
 * (IMPACT_WORDS each; a block or a group keeps MAX_BLOCK_IMPACTS at most); answers how many.
 */
export function readImpactsAt(bytes: Uint8Array, at: number, out: Uint32Array): number {
  let offset = at;
  const count = bytes[offset++];
  for (let i = 0; i < count * IMPACT_WORDS; i++) {
    let byte = bytes[offset++];
    let value = byte & 0x7f;
    let shift = 7;
    while (byte >= 0x80) {
      byte = bytes[offset++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    out[i] = value;
  }
  return count;
}
