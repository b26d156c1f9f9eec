// Encodes one term's postings: blocks of BLOCK_SIZE docs (doc gaps, title tf, text tf bit-packed;
// the last partial block as varints), one skip entry per block with the block's last doc,
// offsets and the tf/length extremes that bound its best score, and positions as varint deltas.

import { BLOCK_SIZE, ByteWriter, bitsForValues, packBlock } from '../../storage/index.ts';
import { SKIP_ENTRY_WORDS, SkipField } from './segment-format.ts';
import type { TermPostings } from './inverter.ts';

const U32_MAX = 0xffffffff;

export class PostingsWriter {
  readonly docs = new ByteWriter(1 << 20);
  readonly positions = new ByteWriter(1 << 20);
  /** Skip entries, SKIP_ENTRY_WORDS u32s each. */
  private skips = new Uint32Array(SKIP_ENTRY_WORDS * 1024);
  private skipCount = 0;
  private readonly gaps = new Uint32Array(BLOCK_SIZE);

  constructor(
    private readonly titleLengths: Uint32Array,
    private readonly textLengths: Uint32Array,
  ) {}

  get skipEntries(): number {
    return this.skipCount;
  }

  skipBytes(): Uint8Array {
    const words = this.skips.subarray(0, this.skipCount * SKIP_ENTRY_WORDS);
    return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  }

  /** Writes a term's postings; returns the index of its first skip entry. */
  add(postings: TermPostings): number {
    const firstSkip = this.skipCount;
    const { docs, titleTfs, textTfs, positions } = postings;
    let previousDoc = -1;
    let positionIndex = 0;
    for (let start = 0; start < docs.length; start += BLOCK_SIZE) {
      const count = Math.min(BLOCK_SIZE, docs.length - start);
      const entry = this.addSkipEntry();
      this.skips[entry + SkipField.docsOffset] = this.checkedOffset(this.docs.length);
      this.skips[entry + SkipField.positionsOffset] = this.checkedOffset(this.positions.length);
      let maxTitleTf = 0;
      let maxTextTf = 0;
      let minTitleLength = U32_MAX;
      let minTextLength = U32_MAX;
      for (let i = 0; i < count; i++) {
        const doc = docs[start + i];
        this.gaps[i] = doc - previousDoc - 1;
        previousDoc = doc;
        const titleTf = titleTfs[start + i];
        const textTf = textTfs[start + i];
        if (titleTf > maxTitleTf) maxTitleTf = titleTf;
        if (textTf > maxTextTf) maxTextTf = textTf;
        if (titleTf > 0 && this.titleLengths[doc] < minTitleLength) minTitleLength = this.titleLengths[doc];
        if (textTf > 0 && this.textLengths[doc] < minTextLength) minTextLength = this.textLengths[doc];
        // Positions: delta-coded within the doc.
        let previousPosition = 0;
        const end = positionIndex + titleTf + textTf;
        for (; positionIndex < end; positionIndex++) {
          const position = positions[positionIndex];
          this.positions.writeVarint(position - previousPosition);
          previousPosition = position;
        }
      }
      this.skips[entry + SkipField.lastDoc] = previousDoc;
      this.skips[entry + SkipField.maxTitleTf] = maxTitleTf;
      this.skips[entry + SkipField.maxTextTf] = maxTextTf;
      this.skips[entry + SkipField.minTitleLength] = minTitleLength === U32_MAX ? 0 : minTitleLength;
      this.skips[entry + SkipField.minTextLength] = minTextLength === U32_MAX ? 0 : minTextLength;
      if (count === BLOCK_SIZE) this.writePackedBlock(titleTfs, textTfs, start);
      else this.writeVarintBlock(titleTfs, textTfs, start, count);
    }
    return firstSkip;
  }

  private writePackedBlock(titleTfs: number[], textTfs: number[], start: number): void {
    const title = titleTfs.slice(start, start + BLOCK_SIZE);
    const text = textTfs.slice(start, start + BLOCK_SIZE);
    const gapBits = bitsForValues(this.gaps, BLOCK_SIZE);
    const titleBits = bitsForValues(title, BLOCK_SIZE);
    const textBits = bitsForValues(text, BLOCK_SIZE);
    this.docs.writeU8(gapBits);
    this.docs.writeU8(titleBits);
    this.docs.writeU8(textBits);
    packBlock(this.gaps, BLOCK_SIZE, gapBits, this.docs);
    packBlock(title, BLOCK_SIZE, titleBits, this.docs);
    packBlock(text, BLOCK_SIZE, textBits, this.docs);
  }

  private writeVarintBlock(titleTfs: number[], textTfs: number[], start: number, count: number): void {
    for (let i = 0; i < count; i++) {
      this.docs.writeVarint(this.gaps[i]);
      this.docs.writeVarint(titleTfs[start + i]);
      this.docs.writeVarint(textTfs[start + i]);
    }
  }

  private addSkipEntry(): number {
    if ((this.skipCount + 1) * SKIP_ENTRY_WORDS > this.skips.length) {
      const grown = new Uint32Array(this.skips.length * 2);
      grown.set(this.skips);
      this.skips = grown;
    }
    return this.skipCount++ * SKIP_ENTRY_WORDS;
  }

  private checkedOffset(offset: number): number {
    if (offset > U32_MAX) throw new RangeError('segment postings exceed 4 GiB; merge policy must cap segment size');
    return offset;
  }
}
