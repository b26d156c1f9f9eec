// Reads one metadata field of a segment (see metadata-writer.ts for the layout): its typed
// value dictionary, the docs of each value (contiguous in value order, so a value range is one
// slice), and each doc's value ordinals. Ordinal order is value order within a segment:
// numbers ascending, then strings by code point, then false, true.

import { ByteReader } from '../../storage/index.ts';
import { FIELD_HEADER_WORDS } from './metadata-writer.ts';
import { compareBytes } from './term-order.ts';

export type FieldValue = string | number | boolean;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function alignedArray<T extends Uint32Array | Float64Array>(
  Kind: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
  bytes: Uint8Array,
  offset: number,
  length: number,
): T {
  const start = bytes.byteOffset + offset;
  if (start % Kind.BYTES_PER_ELEMENT === 0) return new Kind(bytes.buffer, start, length);
  const copy = bytes.slice(offset, offset + length * Kind.BYTES_PER_ELEMENT);
  return new Kind(copy.buffer, 0, length);
}

export class FieldIndex {
  readonly numberCount: number;
  readonly stringCount: number;
  readonly booleanCount: number;
  /** Number of distinct values (= ordinals). */
  readonly distinct: number;
  readonly numbers: Float64Array;
  /** valueStarts[ord]…valueStarts[ord + 1] indexes docsByValue. */
  readonly valueStarts: Uint32Array;
  readonly docsByValue: Uint32Array;
  /** docStarts[doc]…docStarts[doc + 1] indexes docOrds. */
  readonly docStarts: Uint32Array;
  readonly docOrds: Uint32Array;
  private readonly stringOffsets: Uint32Array;
  private readonly stringBytes: Uint8Array;
  private readonly booleans: Uint8Array;

  constructor(readonly name: string, section: Uint8Array) {
    const header = new ByteReader(section);
    const [numberCount, stringCount, booleanCount, postingCount, docCount, stringByteLength] = Array.from(
      { length: FIELD_HEADER_WORDS },
      () => header.readU32(),
    );
    this.numberCount = numberCount;
    this.stringCount = stringCount;
    this.booleanCount = booleanCount;
    this.distinct = numberCount + stringCount + booleanCount;
    let at = FIELD_HEADER_WORDS * 4;
    this.numbers = alignedArray(Float64Array, section, at, numberCount);
    at += numberCount * 8;
    this.stringOffsets = alignedArray(Uint32Array, section, at, stringCount + 1);
    at += (stringCount + 1) * 4;
    this.stringBytes = section.subarray(at, at + stringByteLength);
    at += stringByteLength;
    this.booleans = section.subarray(at, at + booleanCount);
    at += booleanCount;
    const take = (length: number): Uint32Array => {
      at = Math.ceil(at / 8) * 8;
      const array = alignedArray(Uint32Array, section, at, length);
      at += length * 4;
      return array;
    };
    this.valueStarts = take(this.distinct + 1);
    this.docsByValue = take(postingCount);
    this.docStarts = take(docCount + 1);
    this.docOrds = take(postingCount);
  }

  private compactColumn: Uint8Array | Uint16Array | Uint32Array | null | undefined;

  /**
   * For a field with at most one value per doc: each doc's ordinal in the narrowest array that
   * holds it, with `distinct` standing for "no value" (built on first use). Null for
   * multi-valued fields. Counting through it reads a fraction of the memory docStarts/docOrds do.
   */
  singleValueColumn(): Uint8Array | Uint16Array | Uint32Array | null {
    if (this.compactColumn !== undefined) return this.compactColumn;
    const docCount = this.docStarts.length - 1;
    for (let doc = 0; doc < docCount; doc++) {
      if (this.docStarts[doc + 1] - this.docStarts[doc] > 1) return (this.compactColumn = null);
    }
    const Kind = this.distinct < 0xff ? Uint8Array : this.distinct < 0xffff ? Uint16Array : Uint32Array;
    const column = new Kind(docCount).fill(this.distinct);
    for (let doc = 0; doc < docCount; doc++) {
      if (this.docStarts[doc + 1] > this.docStarts[doc]) column[doc] = this.docOrds[this.docStarts[doc]];
    }
    return (this.compactColumn = column);
  }

  /** Decoded strings by string index, filled as they are asked for. */
  private readonly decodedStrings: (string | undefined)[] = [];

  /** The value of an ordinal. */
  value(ord: number): FieldValue {
    if (ord < this.numberCount) return this.numbers[ord];
    const s = ord - this.numberCount;
    if (s < this.stringCount) return (this.decodedStrings[s] ??= this.decodeValue(ord) as string);
    return this.booleans[s - this.stringCount] === 1;
  }

  /** Facet keys (the value as a string) by ordinal, filled as they are asked for. */
  private readonly keys: (string | undefined)[] = [];

  /** The value of an ordinal as a facet key: `"2020"`, `"news"`, `"true"`. */
  key(ord: number): string {
    return (this.keys[ord] ??= String(this.value(ord)));
  }

  private decodeValue(ord: number): FieldValue {
    if (ord < this.numberCount) return this.numbers[ord];
    const s = ord - this.numberCount;
    if (s < this.stringCount) return decoder.decode(this.stringBytes.subarray(this.stringOffsets[s], this.stringOffsets[s + 1]));
    return this.booleans[s - this.stringCount] === 1;
  }

  /** The ordinal of `value` (type-strict), or -1. */
  ordOf(value: FieldValue): number {
    if (typeof value === 'number') {
      const i = this.lowerNumber(value);
      return i < this.numberCount && this.numbers[i] === value ? i : -1;
    }
    if (typeof value === 'string') {
      const key = encoder.encode(value);
      const i = this.lowerString(key);
      return i < this.stringCount && this.compareString(i, key) === 0 ? this.numberCount + i : -1;
    }
    for (let i = 0; i < this.booleanCount; i++) {
      if ((this.booleans[i] === 1) === value) return this.numberCount + this.stringCount + i;
    }
    return -1;
  }

  /** Ordinals [from, to) of the numbers within the bounds. */
  numberRange(low: number, lowInclusive: boolean, high: number, highInclusive: boolean): [number, number] {
    let from = this.lowerNumber(low);
    if (!lowInclusive) while (from < this.numberCount && this.numbers[from] === low) from++;
    let to = this.lowerNumber(high);
    if (highInclusive) while (to < this.numberCount && this.numbers[to] === high) to++;
    return [from, Math.max(from, to)];
  }

  /** Ordinals [from, to) of the strings within the bounds (null: unbounded). */
  stringRange(low: string | null, lowInclusive: boolean, high: string | null, highInclusive: boolean): [number, number] {
    let from = 0;
    if (low !== null) {
      const key = encoder.encode(low);
      from = this.lowerString(key);
      if (!lowInclusive && from < this.stringCount && this.compareString(from, key) === 0) from++;
    }
    let to = this.stringCount;
    if (high !== null) {
      const key = encoder.encode(high);
      to = this.lowerString(key);
      if (highInclusive && to < this.stringCount && this.compareString(to, key) === 0) to++;
    }
    return [this.numberCount + from, this.numberCount + Math.max(from, to)];
  }

  private lowerNumber(value: number): number {
    let low = 0;
    let high = this.numberCount;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.numbers[mid] < value) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private compareString(index: number, key: Uint8Array): number {
    return compareBytes(this.stringBytes, this.stringOffsets[index], this.stringOffsets[index + 1], key);
  }

  private lowerString(key: Uint8Array): number {
    let low = 0;
    let high = this.stringCount;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compareString(mid, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
