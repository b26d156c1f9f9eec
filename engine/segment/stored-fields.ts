// Stored documents: each document is msgpack-encoded, documents are grouped into blocks of about
// STORED_BLOCK_BYTES, and each block is deflate-compressed. Reading a doc inflates its block
// (a small cache keeps recently used blocks).

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Packr } from 'msgpackr';
import { ByteWriter, ByteReader } from '../../storage/index.ts';
import type { IndexDocument } from '../document.ts';
import { STORED_BLOCK_BYTES, u32View } from './segment-format.ts';

const packr = new Packr({ useRecords: false, moreTypes: false });
const COMPRESSION_LEVEL = 4;
const BLOCK_CACHE_SIZE = 8;

/** What is stored per document: the document plus its page start positions. */
export interface StoredRecord {
  document: IndexDocument;
  /** Absolute position of each page's first token, or null for unpaged documents. */
  pageStarts: number[] | null;
}

export class StoredFieldsWriter {
  private readonly blocks = new ByteWriter(1 << 20);
  /** Per block: first doc, byte offset; plus a final sentinel pair. */
  private readonly index: number[] = [];
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private nextDoc = 0;
  private blockFirstDoc = 0;

  add(record: StoredRecord): void {
    const encoded = packr.pack(record);
    this.pending.push(encoded);
    this.pendingBytes += encoded.length;
    this.nextDoc++;
    if (this.pendingBytes >= STORED_BLOCK_BYTES) this.flushBlock();
  }

  finish(): { blocks: Uint8Array; index: Uint8Array } {
    this.flushBlock();
    this.index.push(this.nextDoc, this.blocks.length);
    return { blocks: this.blocks.finish(), index: new Uint8Array(Uint32Array.from(this.index).buffer) };
  }

  private flushBlock(): void {
    if (this.pending.length === 0) return;
    const raw = new ByteWriter(this.pendingBytes + 4 * (this.pending.length + 2));
    raw.writeU32(this.pending.length);
    let offset = 0;
    for (const doc of this.pending) {
      raw.writeU32(offset);
      offset += doc.length;
    }
    raw.writeU32(offset);
    for (const doc of this.pending) raw.writeBytes(doc);
    this.index.push(this.blockFirstDoc, this.blocks.length);
    this.blocks.writeBytes(deflateRawSync(raw.finish(), { level: COMPRESSION_LEVEL }));
    this.blockFirstDoc = this.nextDoc;
    this.pending = [];
    this.pendingBytes = 0;
  }
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
    return packr.unpack(raw.subarray(headerBytes + start, headerBytes + end)) as StoredRecord;
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
    const raw = inflateRawSync(this.blocks.subarray(start, end));
    if (this.cache.size >= BLOCK_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(block, raw);
    return raw;
  }
}
