// The caller's document ids of a segment: the ids in doc order (for hits and tie-breaks) and the
// doc numbers sorted by id (for finding a document by id with a binary search).

import { u32View, u32Bytes } from './segment-format.ts';
import { compareBytes } from './term-order.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeDocIds(ids: readonly string[]): { bytes: Uint8Array; offsets: Uint8Array; order: Uint8Array } {
  const encoded = ids.map((id) => encoder.encode(id));
  const total = encoded.reduce((sum, bytes) => sum + bytes.length, 0);
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(ids.length + 1);
  let at = 0;
  encoded.forEach((id, doc) => {
    offsets[doc] = at;
    bytes.set(id, at);
    at += id.length;
  });
  offsets[ids.length] = at;
  // Ids are ASCII (SPEC §5), so string order is byte order.
  const order = Uint32Array.from(ids.keys()).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  return { bytes, offsets: u32Bytes(offsets), order: u32Bytes(order) };
}

export class DocIds {
  private readonly offsets: Uint32Array;
  private readonly order: Uint32Array;
  private rankByDoc: Uint32Array | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    offsets: Uint8Array,
    order: Uint8Array,
  ) {
    this.offsets = u32View(offsets);
    this.order = u32View(order);
  }

  /** Doc numbers in ascending id order. */
  byIdOrder(): Uint32Array {
    return this.order;
  }

  /** Compares the id of `doc` here with the id of `otherDoc` in `other`, byte-wise (= id order). */
  compare(doc: number, other: DocIds, otherDoc: number): number {
    return compareBytes(this.bytes, this.offsets[doc], this.offsets[doc + 1], other.bytes.subarray(other.offsets[otherDoc], other.offsets[otherDoc + 1]));
  }

  /** Per doc, its position in id order (built on first use). */
  ranks(): Uint32Array {
    if (this.rankByDoc === null) {
      const ranks = new Uint32Array(this.order.length);
      this.order.forEach((doc, rank) => (ranks[doc] = rank));
      this.rankByDoc = ranks;
    }
    return this.rankByDoc;
  }

  id(doc: number): string {
    return decoder.decode(this.bytes.subarray(this.offsets[doc], this.offsets[doc + 1]));
  }

  /** The doc number holding `id`, or -1. */
  find(id: string): number {
    const key = encoder.encode(id);
    let low = 0;
    let high = this.order.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const doc = this.order[mid];
      const cmp = compareBytes(this.bytes, this.offsets[doc], this.offsets[doc + 1], key);
      if (cmp === 0) return doc;
      if (cmp < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}
