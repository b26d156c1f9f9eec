// Stored documents: each document is encoded (stored-record.ts) straight into the block being
// built, documents are grouped into blocks of about STORED_BLOCK_BYTES, and each block is
// compressed (stored-codec.ts: LZ4, or deflate in segments of layouts before 7). Reading a doc
// decompresses its block (a small cache keeps recently used blocks). Raw block: u32 count |
// u32 × (count + 1) record offsets | records.

import { ByteWriter, ByteReader } from '../../storage/index.ts';
import { STORED_BLOCK_BYTES, u32View } from './segment-format.ts';
import { compressStoredBlock, decompressStoredBlock } from './stored-codec.ts';
import type { StoredBlockCodec } from './stored-codec.ts';
import { readStoredRecord, writeStoredRecord } from './stored-record.ts';
import type { StoredRecord } from './stored-record.ts';

export type { StoredRecord } from './stored-record.ts';

const BLOCK_CACHE_SIZE = 8;

export class StoredFieldsWriter {
  private readonly blocks = new ByteWriter(1 << 20);
  /** Per block: first doc, byte offset; plus a final sentinel pair. */
  private readonly index: number[] = [];
  /** Records of the block being built, back to back, and where each starts. */
  private readonly body = new ByteWriter(2 * STORED_BLOCK_BYTES);
  private readonly starts: number[] = [];
  /** The raw block (header and records) handed to deflate; reused block after block. */
  private readonly raw = new ByteWriter(4 * STORED_BLOCK_BYTES);
  private nextDoc = 0;
  private blockFirstDoc = 0;

  /** `codec`: how blocks are compressed (LZ4; deflate writes blocks as layouts before 7 did). */
  constructor(private readonly codec: StoredBlockCodec = 'lz4') {}

  add(record: StoredRecord): void {
    this.starts.push(this.body.length);
    writeStoredRecord(this.body, record);
    this.nextDoc++;
    if (this.body.length >= STORED_BLOCK_BYTES) this.flushBlock();
  }

  finish(): { blocks: Uint8Array; index: Uint8Array } {
    this.flushBlock();
    this.index.push(this.nextDoc, this.blocks.length);
    return { blocks: this.blocks.finish(), index: new Uint8Array(Uint32Array.from(this.index).buffer) };
  }

  private flushBlock(): void {
    const count = this.starts.length;
    if (count === 0) return;
    const raw = this.raw;
    raw.reset();
    raw.writeU32(count);
    for (const start of this.starts) raw.writeU32(start);
    raw.writeU32(this.body.length);
    raw.writeBytes(this.body.finish());
    this.index.push(this.blockFirstDoc, this.blocks.length);
    this.blocks.writeBytes(compressStoredBlock(raw.finish(), this.codec));
    this.blockFirstDoc = this.nextDoc;
    this.body.reset();
    this.starts.length = 0;
  }
}

/**
 * The stored sections of segments merged one after the other (none with deleted documents): their
 * compressed blocks as they are — views of the sources, written without being copied or
 * decompressed, whichever codec wrote each — and one block index over them.
 */
export function concatStoredFields(sources: readonly StoredFieldsReader[]): { blocks: Uint8Array[]; index: Uint8Array } {
  const blocks: Uint8Array[] = [];
  const index: number[] = [];
  let docBase = 0;
  let byteBase = 0;
  for (const source of sources) {
    const encoded = source.encoded();
    const first = encoded.index[1];
    for (let block = 0; block < encoded.blockCount; block++) {
      index.push(docBase + encoded.index[block * 2], byteBase + encoded.index[block * 2 + 1] - first);
    }
    const end = encoded.index[encoded.blockCount * 2 + 1];
    blocks.push(encoded.blocks.subarray(first, end));
    docBase += encoded.index[encoded.blockCount * 2];
    byteBase += end - first;
  }
  index.push(docBase, byteBase);
  return { blocks, index: new Uint8Array(Uint32Array.from(index).buffer) };
}

export class StoredFieldsReader {
  private readonly index: Uint32Array;
  private readonly blockCount: number;
  private readonly cache = new Map<number, Uint8Array>();

  constructor(
    private readonly blocks: Uint8Array,
    indexBytes: Uint8Array,
  ) {
    this.index = u32View(indexBytes);
    this.blockCount = this.index.length / 2 - 1;
  }

  /** The compressed blocks and the block index (first doc, byte offset; then a sentinel pair). */
  encoded(): { blocks: Uint8Array; index: Uint32Array; blockCount: number } {
    return { blocks: this.blocks, index: this.index, blockCount: this.blockCount };
  }

  read(doc: number): StoredRecord {
    const block = this.findBlock(doc);
    const raw = this.inflate(block);
    const reader = new ByteReader(raw);
    const count = reader.readU32();
    const local = doc - this.index[block * 2];
    if (local < 0 || local >= count) throw new RangeError(`doc ${doc} is not in stored block ${block}`);
    const headerBytes = 4 + 4 * (count + 1);
    reader.pos = 4 + local * 4;
    const start = reader.readU32();
    const end = reader.readU32();
    return readStoredRecord(raw.subarray(headerBytes + start, headerBytes + end));
  }

  private findBlock(doc: number): number {
    let low = 0;
    let high = this.blockCount - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.index[mid * 2] <= doc) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  private inflate(block: number): Uint8Array {
    const cached = this.cache.get(block);
    if (cached !== undefined) {
      this.cache.delete(block);
      this.cache.set(block, cached);
      return cached;
    }
    const start = this.index[block * 2 + 1];
    const end = this.index[block * 2 + 3];
    const raw = decompressStoredBlock(this.blocks.subarray(start, end));
    if (this.cache.size >= BLOCK_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(block, raw);
    return raw;
  }
}
