// Iterates one term's postings in a segment: `next` and `advance(target)` move through doc
// numbers block by block, skipping whole blocks through the skip entries without decoding them;
// term frequencies are decoded only when asked for, positions only for the docs that need them.
// A shallow advance (`shallowBlock`) finds the block holding a doc without decoding it, and a
// block's impacts (impacts.ts) bound its best score.

import { BLOCK_SIZE, unpackWholeBlock, unpackWholeBlockOfGaps } from '../../storage/index.ts';
import { readImpacts } from './impacts.ts';
import { IMPACT_GROUP_BLOCKS, SKIP_ENTRY_WORDS, SkipField, skipVarints } from './segment-format.ts';

/** Doc number past every real doc: iteration is over. */
export const NO_MORE_DOCS = 0x7fffffff;

/** The byte sections a cursor reads. */
export interface PostingsData {
  docs: Uint8Array;
  /** `docs` again, for the whole-block decoders' word loads. */
  docsView: DataView;
  positions: Uint8Array;
  skips: Uint32Array;
  /** postings.impacts and postings.impactOffsets; null in layouts before 6. */
  impacts: Uint8Array | null;
  impactOffsets: Uint32Array | null;
  /** postings.groupImpacts and postings.groupImpactOffsets; null in layouts before 6. */
  groupImpacts: Uint8Array | null;
  groupImpactOffsets: Uint32Array | null;
}

/** Extremes over a block (or a whole term) from which a score upper bound follows. */
export interface TfBounds {
  maxTitleTf: number;
  maxTextTf: number;
  minTitleLength: number;
  minTextLength: number;
}

export class PostingsCursor {
  doc = -1;
  blockCount: number;
  private block = -1;
  private blockSize = 0;
  private index = -1;
  private readonly docs = new Uint32Array(BLOCK_SIZE);
  private readonly titleTfs = new Uint32Array(BLOCK_SIZE);
  private readonly textTfs = new Uint32Array(BLOCK_SIZE);
  private tfsDecoded = false;
  private tfsOffset = 0;
  private titleBits = 0;
  private textBits = 0;
  private positionsDoc = 0;
  private positionsOffset = 0;
  /** The block a shallow advance last found (see `shallowBlock`). */
  private shallow = 0;
  /** The encoded positions of the block `loadWholeBlock` loaded. */
  positionsFrom = 0;
  positionsTo = 0;

  /** Impact groups of the term (0: none, see IMPACT_GROUP_BLOCKS), and the group a shallow advance last found. */
  groupCount = 0;
  private shallowGroupIndex = 0;

  constructor(
    private readonly data: PostingsData,
    private firstSkip: number,
    public docFreq: number,
    private firstGroup = 0,
  ) {
    this.blockCount = Math.ceil(docFreq / BLOCK_SIZE);
    this.groupCount = this.countGroups();
  }

  /** Points this cursor (its block buffers reused) at another term's postings, unread. */
  reset(firstSkip: number, docFreq: number, firstGroup = 0): this {
    this.firstSkip = firstSkip;
    this.docFreq = docFreq;
    this.firstGroup = firstGroup;
    this.blockCount = Math.ceil(docFreq / BLOCK_SIZE);
    this.groupCount = this.countGroups();
    this.shallowGroupIndex = 0;
    this.doc = -1;
    this.block = -1;
    this.blockSize = 0;
    this.index = -1;
    this.tfsDecoded = false;
    this.tfsOffset = 0;
    this.titleBits = 0;
    this.textBits = 0;
    this.positionsDoc = 0;
    this.positionsOffset = 0;
    this.shallow = 0;
    return this;
  }

  /**
   * The block holding the first doc ≥ target, found from the skip entries without decoding it
   * or moving the cursor; -1 when every doc is below target. Targets must not go back.
   */
  shallowBlock(target: number): number {
    let block = Math.max(this.block, this.shallow);
    while (block < this.blockCount && this.skipWord(block, SkipField.lastDoc) < target) block++;
    this.shallow = block;
    return block < this.blockCount ? block : -1;
  }

  private countGroups(): number {
    return this.data.groupImpacts === null || this.blockCount < IMPACT_GROUP_BLOCKS ? 0 : Math.ceil(this.blockCount / IMPACT_GROUP_BLOCKS);
  }

  /**
   * The impact group (IMPACT_GROUP_BLOCKS blocks) holding the first doc ≥ target, by the skip
   * entries alone; -1 when every doc is below target, or the term has no groups (groupCount 0).
   * Targets must not go back.
   */
  shallowGroup(target: number): number {
    if (this.groupCount === 0) return -1;
    let group = Math.max(this.shallowGroupIndex, Math.floor(Math.max(this.block, 0) / IMPACT_GROUP_BLOCKS));
    while (group < this.groupCount && this.groupLastDoc(group) < target) group++;
    this.shallowGroupIndex = group;
    return group < this.groupCount ? group : -1;
  }

  /** Block `block`'s skip entry number in the segment (an index of the segment's per-block arrays). */
  skipEntry(block: number): number {
    return this.firstSkip + block;
  }

  /** Group `group`'s number in the segment. */
  groupEntry(group: number): number {
    return this.firstGroup + group;
  }

  /** The last doc of group `group`. */
  groupLastDoc(group: number): number {
    return this.skipWord(Math.min((group + 1) * IMPACT_GROUP_BLOCKS, this.blockCount) - 1, SkipField.lastDoc);
  }

  /** Where group `group`'s impacts start in `groupImpactBytes` (a count byte, then four varints each). */
  groupImpactsAt(group: number): number {
    return this.data.groupImpactOffsets![this.firstGroup + group];
  }

  /** postings.groupImpacts (null in layouts before 6). */
  get groupImpactBytes(): Uint8Array | null {
    return this.data.groupImpacts;
  }

  /** The last doc of block `block`. */
  blockLastDoc(block: number): number {
    return this.skipWord(block, SkipField.lastDoc);
  }

  /**
   * Where block `block`'s impacts start in `impactBytes` (impacts.ts: a count byte, then four
   * varints each), or -1 where its one impact is its skip entry's extremes (`blockImpacts`
   * reads those).
   */
  impactsAt(block: number): number {
    const offsets = this.data.impactOffsets;
    if (offsets === null) return -1;
    const offset = offsets[this.firstSkip + block];
    return this.data.impacts![offset] === 0 ? -1 : offset;
  }

  /** postings.impacts (null in layouts before 6). */
  get impactBytes(): Uint8Array | null {
    return this.data.impacts;
  }

  /**
   * The competitive impacts of block `block` into `out` (impacts.ts: IMPACT_WORDS each);
   * answers how many.
   */
  blockImpacts(block: number, out: Uint32Array): number {
    const count = readImpacts(this.data.impacts, this.data.impactOffsets, this.firstSkip + block, out);
    if (count > 0) return count;
    // One impact: the block's extremes.
    out[0] = this.skipWord(block, SkipField.maxTitleTf);
    out[1] = this.skipWord(block, SkipField.minTitleLength);
    out[2] = this.skipWord(block, SkipField.maxTextTf);
    out[3] = this.skipWord(block, SkipField.minTextLength);
    return 1;
  }

  next(): number {
    if (++this.index < this.blockSize) return (this.doc = this.docs[this.index]);
    if (this.block + 1 >= this.blockCount) {
      this.index = this.blockSize;
      return (this.doc = NO_MORE_DOCS);
    }
    this.loadBlock(this.block + 1);
    this.index = 0;
    return (this.doc = this.docs[0]);
  }

  /** Moves to the first doc ≥ target (stays put if already there). */
  advance(target: number): number {
    if (this.doc >= target) return this.doc;
    let block = Math.max(this.block, 0);
    while (block < this.blockCount && this.skipWord(block, SkipField.lastDoc) < target) block++;
    if (block >= this.blockCount) {
      this.index = this.blockSize;
      return (this.doc = NO_MORE_DOCS);
    }
    if (block !== this.block) {
      this.loadBlock(block);
      this.index = -1;
    }
    const docs = this.docs;
    let i = this.index + 1;
    while (docs[i] < target) i++;
    this.index = i;
    return (this.doc = docs[i]);
  }

  /**
   * Marks on `bits` (bit `doc - base`) the docs of the current block from the current one up to
   * `last` inclusive, without moving the cursor; answers how many. The cursor must be on a doc.
   */
  markBlockDocs(bits: Uint32Array, base: number, last: number): number {
    const docs = this.docs;
    const end = this.blockSize;
    let i = this.index;
    let doc = docs[i];
    while (doc <= last) {
      const slot = doc - base;
      bits[slot >>> 5] |= 1 << (slot & 31);
      if (++i === end) break;
      doc = docs[i];
    }
    return i - this.index;
  }

  /** The current block's docs (its first `blockEnd` slots), and the slot of the current doc. */
  get blockDocs(): Uint32Array {
    return this.docs;
  }

  get blockEnd(): number {
    return this.blockSize;
  }

  get slot(): number {
    return this.index;
  }

  /**
   * The current block's shortest title and text lengths among its docs with the term in that
   * field: with a doc's tfs, a bound of its weighted frequency that reads no length.
   */
  get blockMinTitleLength(): number {
    return this.skipWord(this.block, SkipField.minTitleLength);
  }

  get blockMinTextLength(): number {
    return this.skipWord(this.block, SkipField.minTextLength);
  }

  /** The current block's title and text tfs, by slot (decoded on first use). */
  blockTitleTfs(): Uint32Array {
    if (!this.tfsDecoded) this.decodeTfs();
    return this.titleTfs;
  }

  blockTextTfs(): Uint32Array {
    if (!this.tfsDecoded) this.decodeTfs();
    return this.textTfs;
  }

  /** Moves to slot `slot` of the current block (at or after the current one, below blockEnd). */
  moveToSlot(slot: number): number {
    this.index = slot;
    return (this.doc = this.docs[slot]);
  }

  titleTf(): number {
    if (!this.tfsDecoded) this.decodeTfs();
    return this.titleTfs[this.index];
  }

  textTf(): number {
    if (!this.tfsDecoded) this.decodeTfs();
    return this.textTfs[this.index];
  }

  /** Positions of the current doc, ascending (the first `limit` of them), written to `out` (cleared first). */
  positions(out: number[], limit = Infinity): number[] {
    out.length = 0;
    const bytes = this.data.positions;
    const start = this.startOfCurrentPositions();
    let offset = start;
    const total = this.titleTfs[this.index] + this.textTfs[this.index];
    const count = Math.min(total, limit);
    let position = 0;
    for (let i = 0; i < count; i++) {
      let byte = bytes[offset++];
      let delta = byte & 0x7f;
      let shift = 7;
      while (byte >= 0x80) {
        byte = bytes[offset++];
        delta |= (byte & 0x7f) << shift;
        shift += 7;
      }
      position += delta;
      out.push(position);
    }
    if (count === total) {
      this.positionsDoc = this.index + 1;
      this.positionsOffset = offset;
    } else {
      // Cut short: the next doc's positions are found from this doc's start.
      this.positionsDoc = this.index;
      this.positionsOffset = start;
    }
    return out;
  }

  /**
   * Loads block `block` whole, as a merge copies it: its docs (`blockDocs`, `blockEnd` of them)
   * and tfs decoded, and the range its docs' encoded positions fill back to back,
   * [positionsFrom, positionsTo). The cursor stands before the block's first doc; answers the
   * block's doc count.
   */
  loadWholeBlock(block: number): number {
    this.loadBlock(block);
    if (!this.tfsDecoded) this.decodeTfs();
    this.index = -1;
    const from = this.skipWord(block, SkipField.positionsOffset);
    this.positionsFrom = from;
    if (block + 1 < this.blockCount) {
      // A term's positions are written block after block: the next block's start ends this one.
      this.positionsTo = this.skipWord(block + 1, SkipField.positionsOffset);
      return this.blockSize;
    }
    let count = 0;
    for (let i = 0; i < this.blockSize; i++) count += this.titleTfs[i] + this.textTfs[i];
    this.positionsTo = skipVarints(this.data.positions, from, count);
    return this.blockSize;
  }

  /** Where the current doc's positions start, skipping those of the block's docs before it. */
  private startOfCurrentPositions(): number {
    if (!this.tfsDecoded) this.decodeTfs();
    if (this.index < this.positionsDoc) {
      this.positionsDoc = 0;
      this.positionsOffset = this.skipWord(this.block, SkipField.positionsOffset);
    }
    let skip = 0;
    for (let i = this.positionsDoc; i < this.index; i++) skip += this.titleTfs[i] + this.textTfs[i];
    return skipVarints(this.data.positions, this.positionsOffset, skip);
  }

  /** Bounds over the whole term. */
  termBounds(): TfBounds {
    const bounds: TfBounds = { maxTitleTf: 0, maxTextTf: 0, minTitleLength: 0x7fffffff, minTextLength: 0x7fffffff };
    for (let block = 0; block < this.blockCount; block++) {
      const titleTf = this.skipWord(block, SkipField.maxTitleTf);
      const textTf = this.skipWord(block, SkipField.maxTextTf);
      if (titleTf > bounds.maxTitleTf) bounds.maxTitleTf = titleTf;
      if (textTf > bounds.maxTextTf) bounds.maxTextTf = textTf;
      if (titleTf > 0) bounds.minTitleLength = Math.min(bounds.minTitleLength, this.skipWord(block, SkipField.minTitleLength));
      if (textTf > 0) bounds.minTextLength = Math.min(bounds.minTextLength, this.skipWord(block, SkipField.minTextLength));
    }
    return bounds;
  }

  private skipWord(block: number, field: number): number {
    return this.data.skips[(this.firstSkip + block) * SKIP_ENTRY_WORDS + field];
  }

  private loadBlock(block: number): void {
    this.block = block;
    this.blockSize = Math.min(BLOCK_SIZE, this.docFreq - block * BLOCK_SIZE);
    const base = block === 0 ? -1 : this.skipWord(block - 1, SkipField.lastDoc);
    let offset = this.skipWord(block, SkipField.docsOffset);
    const bytes = this.data.docs;
    const docs = this.docs;
    this.positionsDoc = 0;
    this.positionsOffset = this.skipWord(block, SkipField.positionsOffset);
    if (this.blockSize === BLOCK_SIZE) {
      const gapBits = bytes[offset];
      this.titleBits = bytes[offset + 1];
      this.textBits = bytes[offset + 2];
      this.tfsOffset = unpackWholeBlockOfGaps(this.data.docsView, offset + 3, gapBits, docs, base);
      this.tfsDecoded = false;
      return;
    }
    let doc = base;
    for (let i = 0; i < this.blockSize; i++) {
      let value = 0;
      for (let field = 0; field < 3; field++) {
        let byte = bytes[offset++];
        value = byte & 0x7f;
        let shift = 7;
        while (byte >= 0x80) {
          byte = bytes[offset++];
          value += (byte & 0x7f) * 2 ** shift;
          shift += 7;
        }
        if (field === 0) {
          doc += value + 1;
          docs[i] = doc;
        } else if (field === 1) this.titleTfs[i] = value;
        else this.textTfs[i] = value;
      }
    }
    this.tfsDecoded = true;
  }

  private decodeTfs(): void {
    const offset = unpackWholeBlock(this.data.docsView, this.tfsOffset, this.titleBits, this.titleTfs);
    unpackWholeBlock(this.data.docsView, offset, this.textBits, this.textTfs);
    this.tfsDecoded = true;
  }
}
