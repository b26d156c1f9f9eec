// The caller's document ids of a segment: the ids in doc order (for hits and tie-breaks) and the
// doc numbers sorted by id (for finding a document by id with a binary search).

import { u32View, u32Bytes } from './segment-format.ts';
import { compareBytes } from './term-order.ts';
import { encodeUtf8Strings } from './utf8-strings.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeDocIds(ids: readonly string[]): { bytes: Uint8Array; offsets: Uint8Array; order: Uint8Array } {
  const { bytes, offsets } = encodeUtf8Strings(ids.length, (doc) => ids[doc]);
  return { bytes, offsets: u32Bytes(offsets), order: u32Bytes(idOrder(ids)) };
}

/** Doc numbers in ascending id order (ids are unique). */
function idOrder(ids: readonly string[]): Uint32Array {
  const order = new Uint32Array(ids.length);
  let ascending = true;
  for (let doc = 0; doc < ids.length; doc++) {
    order[doc] = doc;
    if (doc > 0 && ids[doc - 1] > ids[doc]) ascending = false;
  }
  if (ascending) return order;
  // Ids are ASCII (docs/api.md, "Documents"), so the default (UTF-16) string order is byte order; sorting the
  // strings natively is much faster than sorting doc numbers with a comparator.
  const docOf = new Map<string, number>();
  ids.forEach((id, doc) => docOf.set(id, doc));
  const sorted = ids.slice().sort();
  for (let rank = 0; rank < sorted.length; rank++) order[rank] = docOf.get(sorted[rank])!;
  return order;
}

export class DocIds {
  private readonly offsets: Uint32Array;
  private readonly order: Uint32Array;
  private rankByDoc: Uint32Array | null = null;
  private ascending: boolean | null = null;

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

  /**
   * Whether doc numbers follow id order (as when ids grow as documents come: counters,
   * time-ordered ids): a later doc then always has the greater id. Found on first use.
   */
  idsAscending(): boolean {
    if (this.ascending === null) {
      const order = this.order;
      let ascending = true;
      for (let rank = 0; rank < order.length && ascending; rank++) ascending = order[rank] === rank;
      this.ascending = ascending;
    }
    return this.ascending;
  }

  /** How many docs have an id at or below the id of `otherDoc` in `other`. */
  countIdsUpTo(other: DocIds, otherDoc: number): number {
    const key = other.bytes.subarray(other.offsets[otherDoc], other.offsets[otherDoc + 1]);
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const doc = this.order[mid];
      if (compareBytes(this.bytes, this.offsets[doc], this.offsets[doc + 1], key) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
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

  /**
   * The doc number holding `id`, or -1. An ASCII id (every id docs/api.md, "Documents" allows) is compared with
   * the stored bytes code unit by code unit, without encoding it: a write looks its ids up in
   * every segment, so this runs millions of times during an import.
   */
  find(id: string): number {
    const key = isAscii(id) ? null : encoder.encode(id);
    let low = 0;
    let high = this.order.length - 1;
    if (high < 0) return -1;
    // An id past either end of the segment's id range is not searched for: with ids that grow
    // (counters, time-ordered ids) every new id of an import misses each older segment here.
    const last = this.compareAt(high, id, key);
    if (last <= 0) return last === 0 ? this.order[high] : -1;
    const first = this.compareAt(low, id, key);
    if (first >= 0) return first === 0 ? this.order[low] : -1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const cmp = this.compareAt(mid, id, key);
      if (cmp === 0) return this.order[mid];
      if (cmp < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** Byte order of the id at `rank` in id order against `id` (its UTF-8 `key` when not ASCII). */
  private compareAt(rank: number, id: string, key: Uint8Array | null): number {
    const doc = this.order[rank];
    const start = this.offsets[doc];
    const end = this.offsets[doc + 1];
    return key === null ? compareWithAscii(this.bytes, start, end, id) : compareBytes(this.bytes, start, end, key);
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Byte order of bytes[start, end) against an ASCII string (negative: the bytes come first). */
function compareWithAscii(bytes: Uint8Array, start: number, end: number, ascii: string): number {
  const length = Math.min(end - start, ascii.length);
  for (let i = 0; i < length; i++) {
    const diff = bytes[start + i] - ascii.charCodeAt(i);
    if (diff !== 0) return diff;
  }
  return end - start - ascii.length;
}
