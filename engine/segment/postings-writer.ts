// Encodes one term's postings: blocks of BLOCK_SIZE docs (doc gaps, title tf, text tf
// bit-packed; the last partial block as varints), one skip entry per block with the block's
// last doc, offsets and the tf/length extremes that bound its best score, and positions as
// varint deltas, and each block's competitive impacts (impacts.ts). From an inverted batch (`add`: docs, tfs and positions derived from the
// batch's token numbers as they are written, nothing per term held), or block by block with
// positions already encoded (`startTerm`/`appendBlock`/`finishTerm`: a merge copying postings).
// A merge's writer spills its sections to files between terms once they pass SPILL_BYTES
// (`spillTo`, `spillIfLarge`), so its memory stays bounded however large the segment.

import { BLOCK_SIZE, ByteWriter, SpillFile, growArray, newArray, bitsForValues, packBlock } from '../../storage/index.ts';
import type { FilePiece } from '../../storage/index.ts';
import { ImpactsWriter, MAX_BLOCK_IMPACTS } from './impacts.ts';
import { IMPACT_GROUP_BLOCKS, SKIP_ENTRY_WORDS, SkipField, TITLE_TEXT_GAP, skipVarints } from './segment-format.ts';
import type { InvertedBatch } from './inverter.ts';

const U32_MAX = 0xffffffff;
const EMPTY = new Uint32Array(1);
/** A position delta (< 2^32) takes at most 5 LEB128 bytes. */
const MAX_VARINT_BYTES = 5;

/** Bytes a spilling writer's sections may hold in memory before they go to their files. */
export const SPILL_BYTES = 8 * 1024 * 1024;

/** A section as written: in memory, or spilled bytes followed by those still in memory. */
export type PostingsSection = Uint8Array | (Uint8Array | FilePiece)[];

/** Expected section sizes (a merge knows them from its sources), so buffers are not regrown. */
export interface PostingsCapacity {
  docsBytes: number;
  positionBytes: number;
  skipEntries: number;
}

export class PostingsWriter {
  readonly docs: ByteWriter;
  /** postings.impacts and postings.impactOffsets. */
  readonly impacts = new ImpactsWriter();
  /** postings.groupImpacts and postings.groupImpactOffsets: fed each block's impacts. */
  readonly groupImpacts = new ImpactsWriter(IMPACT_GROUP_BLOCKS * MAX_BLOCK_IMPACTS, true);
  /** Blocks of the current term, and groups written (the next term's first group). */
  private termBlocks = 0;
  private groups = 0;
  /** postings.positions, written in place (the hottest loop of a build). */
  private positions: Uint8Array;
  private positionsLength = 0;
  /** Skip entries, SKIP_ENTRY_WORDS u32s each. */
  private skips: Uint32Array;
  private skipCount = 0;
  // The block being written: per doc its gap, title tf and text tf.
  private readonly gaps = new Uint32Array(BLOCK_SIZE);
  private readonly titleTfs = new Uint32Array(BLOCK_SIZE);
  private readonly textTfs = new Uint32Array(BLOCK_SIZE);
  // The batch `add` reads (empty for a writer fed with `appendBlock` only).
  private occurrences: Uint32Array = EMPTY;
  private termStarts: Uint32Array = EMPTY;
  private docStarts: Uint32Array = EMPTY;
  private titleLengths: Uint32Array = EMPTY;
  private textLengths: Uint32Array = EMPTY;
  private docCount = 0;

  /** The spill files (see `spillTo`), and what each section spilled before its buffer's start. */
  private spill: { docs: SpillFile; positions: SpillFile; skips: SpillFile } | null = null;
  private spillBytes = SPILL_BYTES;
  private docsBase = 0;
  private positionsBase = 0;
  private skipBase = 0;

  /** The term being appended block by block (see `startTerm`). */
  private readonly appending = { docFreq: 0, count: 0, entry: 0, previousDoc: -1, maxTitleTf: 0, maxTextTf: 0, minTitleLength: U32_MAX, minTextLength: U32_MAX };

  /** `batch` for `add`; null for a writer fed with `appendBlock` only. */
  constructor(batch: InvertedBatch | null, capacity: PostingsCapacity = { docsBytes: 1 << 20, positionBytes: 1 << 20, skipEntries: 1024 }) {
    this.docs = new ByteWriter(Math.max(1, capacity.docsBytes));
    this.positions = newArray(Uint8Array, Math.max(1, capacity.positionBytes));
    this.skips = newArray(Uint32Array, SKIP_ENTRY_WORDS * Math.max(1, capacity.skipEntries));
    if (batch !== null) this.useBatch(batch);
  }

  /** Makes `add` read term ids of `batch` (a searchable metadata field's, field-inverter.ts) from now on. */
  useBatch(batch: InvertedBatch): void {
    this.occurrences = batch.occurrences;
    this.termStarts = batch.termStarts;
    this.docStarts = batch.docStarts;
    this.titleLengths = batch.titleLengths;
    this.textLengths = batch.textLengths;
    this.docCount = batch.titleLengths.length;
  }

  get skipEntries(): number {
    return this.skipBase + this.skipCount;
  }

  /** Impact groups written so far: the first group of the next term (terms.info). */
  get impactGroups(): number {
    return this.groups;
  }

  /**
   * From now on, sections that pass `spillBytes` go to files named `<prefix>.spill-<section>`
   * (at `spillIfLarge`); `removeSpill` deletes them once the segment is written.
   */
  spillTo(prefix: string, spillBytes = SPILL_BYTES): void {
    this.spillBytes = spillBytes;
    this.spill = {
      docs: new SpillFile(`${prefix}.spill-docs`),
      positions: new SpillFile(`${prefix}.spill-positions`),
      skips: new SpillFile(`${prefix}.spill-skips`),
    };
    this.impacts.spillTo(prefix, 'impacts');
    this.groupImpacts.spillTo(prefix, 'groupimpacts');
  }

  /** Between blocks: moves each section past the spill limit to its spill file. */
  spillIfLarge(): void {
    const spill = this.spill;
    if (spill === null) return;
    const limit = this.spillBytes;
    if (this.docs.length >= limit) {
      this.docsBase += this.docs.length;
      spill.docs.append(this.docs.finish());
      this.docs.reset();
    }
    if (this.positionsLength >= limit) {
      this.positionsBase += this.positionsLength;
      spill.positions.append(this.positions.subarray(0, this.positionsLength));
      this.positionsLength = 0;
    }
    if (this.skipCount * SKIP_ENTRY_WORDS * 4 >= limit) {
      spill.skips.append(this.skipBytesInMemory());
      this.skipBase += this.skipCount;
      this.skipCount = 0;
    }
    this.impacts.spillIfLarge(limit);
    this.groupImpacts.spillIfLarge(limit);
  }

  /** Deletes the spill files (after the segment was written, or when the merge failed). */
  removeSpill(): void {
    if (this.spill === null) return;
    this.spill.docs.remove();
    this.spill.positions.remove();
    this.spill.skips.remove();
    this.impacts.removeSpill();
    this.groupImpacts.removeSpill();
    this.spill = null;
  }

  /** postings.docs (write nothing more afterwards). */
  docsSection(): PostingsSection {
    const tail = this.docs.finish();
    return this.spill === null ? tail : [this.spill.docs.piece(), tail];
  }

  /** postings.positions (write nothing more afterwards). */
  positionsSection(): PostingsSection {
    const tail = this.positions.subarray(0, this.positionsLength);
    return this.spill === null ? tail : [this.spill.positions.piece(), tail];
  }

  /** postings.skips (write nothing more afterwards). */
  skipsSection(): PostingsSection {
    const tail = this.skipBytesInMemory();
    return this.spill === null ? tail : [this.spill.skips.piece(), tail];
  }

  private skipBytesInMemory(): Uint8Array {
    const words = this.skips.subarray(0, this.skipCount * SKIP_ENTRY_WORDS);
    return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  }

  /**
   * Writes the postings of term `termId` of the batch; returns its document frequency. Its
   * first skip entry is `skipEntries` as it was before the call.
   */
  add(termId: number): number {
    const occurrences = this.occurrences;
    const docStarts = this.docStarts;
    const end = this.termStarts[termId + 1];
    let i = this.termStarts[termId];
    let doc = -1;
    let previousDoc = -1;
    let docFreq = 0;
    let count = 0; // docs in the current block
    let entry = 0;
    let maxTitleTf = 0;
    let maxTextTf = 0;
    let minTitleLength = U32_MAX;
    let minTextLength = U32_MAX;
    while (i < end) {
      doc = this.docOf(occurrences[i], doc + 1);
      if (count === 0) {
        entry = this.openSkipEntry(this.positionsBase + this.positionsLength);
        maxTitleTf = 0;
        maxTextTf = 0;
        minTitleLength = U32_MAX;
        minTextLength = U32_MAX;
      }
      // This doc's occurrences: positions delta-coded within the doc, title ones first.
      const docStart = docStarts[doc];
      const docEnd = docStarts[doc + 1];
      const titleLength = this.titleLengths[doc];
      let titleTf = 0;
      let previousPosition = 0;
      const first = i;
      const positions = this.reservePositions(Math.min(end - i, docEnd - docStart) * MAX_VARINT_BYTES);
      let at = this.positionsLength;
      for (; i < end; i++) {
        const token = occurrences[i];
        if (token >= docEnd) break;
        const local = token - docStart;
        let position = local;
        if (local < titleLength) titleTf++;
        else position += TITLE_TEXT_GAP;
        let delta = position - previousPosition;
        while (delta >= 0x80) {
          positions[at++] = (delta & 0x7f) | 0x80;
          delta >>>= 7;
        }
        positions[at++] = delta;
        previousPosition = position;
      }
      this.positionsLength = at;
      const textTf = i - first - titleTf;
      this.impacts.addDoc(titleTf, titleLength, textTf, this.textLengths[doc]);
      this.gaps[count] = doc - previousDoc - 1;
      this.titleTfs[count] = titleTf;
      this.textTfs[count] = textTf;
      previousDoc = doc;
      docFreq++;
      if (titleTf > maxTitleTf) maxTitleTf = titleTf;
      if (textTf > maxTextTf) maxTextTf = textTf;
      if (titleTf > 0 && titleLength < minTitleLength) minTitleLength = titleLength;
      if (textTf > 0 && this.textLengths[doc] < minTextLength) minTextLength = this.textLengths[doc];
      count++;
      if (count === BLOCK_SIZE || i === end) {
        this.closeBlock(entry, count, previousDoc, maxTitleTf, maxTextTf, minTitleLength, minTextLength);
        count = 0;
      }
    }
    this.finishTermGroups();
    return docFreq;
  }

  /** Starts a term whose docs come block by block through `appendBlock` (ascending doc numbers). */
  startTerm(): void {
    const term = this.appending;
    term.docFreq = 0;
    term.count = 0;
    term.previousDoc = -1;
  }

  /**
   * Appends a block of a source's postings to the current term (a merge): doc numbers
   * `docs[0, count)` shifted by `base`, their tfs, their field lengths (for the blocks' score
   * bounds, by shifted doc number), and their positions, encoded as `add` writes them and lying
   * back to back in positions[from, to) — copied at once. Where one doc's positions start is
   * found (by counting the varints before it) only where a written block starts there.
   */
  appendBlock(
    base: number,
    docs: Uint32Array,
    titleTfs: Uint32Array,
    textTfs: Uint32Array,
    count: number,
    titleLengths: Uint32Array,
    textLengths: Uint32Array,
    positions: Uint8Array,
    from: number,
    to: number,
  ): void {
    const term = this.appending;
    const outStart = this.positionsBase + this.positionsLength;
    const out = this.reservePositions(to - from);
    if (to - from < 64) {
      let at = this.positionsLength;
      for (let k = from; k < to; k++) out[at++] = positions[k];
    } else {
      out.set(positions.subarray(from, to), this.positionsLength);
    }
    this.positionsLength += to - from;
    let scannedDocs = 0;
    let scanned = from;
    for (let i = 0; i < count; i++) {
      if (term.count === 0) {
        let skip = 0;
        for (; scannedDocs < i; scannedDocs++) skip += titleTfs[scannedDocs] + textTfs[scannedDocs];
        scanned = skipVarints(positions, scanned, skip);
        term.entry = this.openSkipEntry(outStart + scanned - from);
        term.maxTitleTf = 0;
        term.maxTextTf = 0;
        term.minTitleLength = U32_MAX;
        term.minTextLength = U32_MAX;
      }
      const doc = base + docs[i];
      const titleTf = titleTfs[i];
      const textTf = textTfs[i];
      const titleLength = titleLengths[doc];
      const textLength = textLengths[doc];
      this.impacts.addDoc(titleTf, titleLength, textTf, textLength);
      this.gaps[term.count] = doc - term.previousDoc - 1;
      this.titleTfs[term.count] = titleTf;
      this.textTfs[term.count] = textTf;
      term.previousDoc = doc;
      if (titleTf > term.maxTitleTf) term.maxTitleTf = titleTf;
      if (textTf > term.maxTextTf) term.maxTextTf = textTf;
      if (titleTf > 0 && titleLength < term.minTitleLength) term.minTitleLength = titleLength;
      if (textTf > 0 && textLength < term.minTextLength) term.minTextLength = textLength;
      if (++term.count === BLOCK_SIZE) this.closeAppendedBlock();
    }
    term.docFreq += count;
  }

  /** Ends the current term (its last block); returns its document frequency. */
  finishTerm(): number {
    if (this.appending.count > 0) this.closeAppendedBlock();
    this.finishTermGroups();
    return this.appending.docFreq;
  }

  /** At a term's end: its last, shorter group, when it has groups (IMPACT_GROUP_BLOCKS blocks or more). */
  private finishTermGroups(): void {
    if (this.termBlocks % IMPACT_GROUP_BLOCKS !== 0) {
      if (this.termBlocks > IMPACT_GROUP_BLOCKS) this.groupImpacts.finishBlock(this.groups++);
      else this.groupImpacts.discardBlock();
    }
    this.termBlocks = 0;
  }

  private closeAppendedBlock(): void {
    const term = this.appending;
    this.closeBlock(term.entry, term.count, term.previousDoc, term.maxTitleTf, term.maxTextTf, term.minTitleLength, term.minTextLength);
    term.count = 0;
    // No block is open: a spilling writer may move what it holds to its files (one term's
    // postings may be larger than memory should hold).
    if (this.spill !== null) this.spillIfLarge();
  }

  /** Fills the block's skip entry and writes its `count` docs. */
  private closeBlock(entry: number, count: number, lastDoc: number, maxTitleTf: number, maxTextTf: number, minTitleLength: number, minTextLength: number): void {
    this.skips[entry + SkipField.lastDoc] = lastDoc;
    this.skips[entry + SkipField.maxTitleTf] = maxTitleTf;
    this.skips[entry + SkipField.maxTextTf] = maxTextTf;
    this.skips[entry + SkipField.minTitleLength] = minTitleLength === U32_MAX ? 0 : minTitleLength;
    this.skips[entry + SkipField.minTextLength] = minTextLength === U32_MAX ? 0 : minTextLength;
    this.impacts.finishBlock(this.skipBase + entry / SKIP_ENTRY_WORDS);
    // The block's impacts go to its group's: the group's best docs are among them.
    const impacts = this.impacts;
    for (let i = 0; i < impacts.lastImpactCount; i++) {
      this.groupImpacts.addDoc(impacts.lastImpact(i, 0), impacts.lastImpact(i, 1), impacts.lastImpact(i, 2), impacts.lastImpact(i, 3));
    }
    if (++this.termBlocks % IMPACT_GROUP_BLOCKS === 0) this.groupImpacts.finishBlock(this.groups++);
    if (count === BLOCK_SIZE) this.writePackedBlock();
    else this.writeVarintBlock(count);
  }

  /**
   * The doc holding token number `token`, searching from doc `from` on (the docs of a term's
   * occurrences ascend): the next doc is tried first, then a galloping search.
   */
  private docOf(token: number, from: number): number {
    const starts = this.docStarts;
    let low = from; // starts[low] <= token
    if (starts[low + 1] > token) return low;
    let step = 1;
    let high = low + 1;
    for (;;) {
      const probe = low + step;
      if (probe >= this.docCount || starts[probe] > token) {
        high = Math.min(probe, this.docCount);
        break;
      }
      low = probe;
      step *= 2;
    }
    while (high - low > 1) {
      const mid = (low + high) >>> 1;
      if (starts[mid] <= token) low = mid;
      else high = mid;
    }
    return low;
  }

  /** The positions buffer with room for `extra` more bytes. */
  private reservePositions(extra: number): Uint8Array {
    const needed = this.positionsLength + extra;
    if (needed > this.positions.length) {
      this.positions = growArray(this.positions, Math.max(needed, this.positions.length * 2), this.positionsLength);
    }
    return this.positions;
  }

  private writePackedBlock(): void {
    const gapBits = bitsForValues(this.gaps, BLOCK_SIZE);
    const titleBits = bitsForValues(this.titleTfs, BLOCK_SIZE);
    const textBits = bitsForValues(this.textTfs, BLOCK_SIZE);
    this.docs.writeU8(gapBits);
    this.docs.writeU8(titleBits);
    this.docs.writeU8(textBits);
    packBlock(this.gaps, BLOCK_SIZE, gapBits, this.docs);
    packBlock(this.titleTfs, BLOCK_SIZE, titleBits, this.docs);
    packBlock(this.textTfs, BLOCK_SIZE, textBits, this.docs);
  }

  private writeVarintBlock(count: number): void {
    for (let i = 0; i < count; i++) {
      this.docs.writeVarint(this.gaps[i]);
      this.docs.writeVarint(this.titleTfs[i]);
      this.docs.writeVarint(this.textTfs[i]);
    }
  }
  /** Starts a block's skip entry: its docs start where the docs written so far end, its positions at `positionsOffset`. */
  private openSkipEntry(positionsOffset: number): number {
    const entry = this.addSkipEntry();
    this.skips[entry + SkipField.docsOffset] = this.checkedOffset(this.docsBase + this.docs.length);
    this.skips[entry + SkipField.positionsOffset] = this.checkedOffset(positionsOffset);
    return entry;
  }

  private addSkipEntry(): number {
    if ((this.skipCount + 1) * SKIP_ENTRY_WORDS > this.skips.length) {
      this.skips = growArray(this.skips, this.skips.length * 2);
    }
    return this.skipCount++ * SKIP_ENTRY_WORDS;
  }

  private checkedOffset(offset: number): number {
    if (offset > U32_MAX) throw new RangeError('segment postings exceed 4 GiB; merge policy must cap segment size');
    return offset;
  }
}
