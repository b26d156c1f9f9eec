// A column of optional strings by doc number (document titles, for sorting by title): UTF-8
// bytes back to back, an offsets array, and a presence byte per doc (null vs empty string).

import { u32View, u32Bytes } from './segment-format.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeStringColumn(values: readonly (string | null)[]): { bytes: Uint8Array; offsets: Uint8Array; present: Uint8Array } {
  const encoded = values.map((value) => (value === null ? null : encoder.encode(value)));
  const offsets = new Uint32Array(values.length + 1);
  const present = new Uint8Array(values.length);
  let total = 0;
  encoded.forEach((bytes, i) => {
    offsets[i] = total;
    if (bytes !== null) {
      present[i] = 1;
      total += bytes.length;
    }
  });
  offsets[values.length] = total;
  const bytes = new Uint8Array(total);
  encoded.forEach((value, i) => {
    if (value !== null) bytes.set(value, offsets[i]);
  });
  return { bytes, offsets: u32Bytes(offsets), present };
}

export class StringColumn {
  private readonly offsets: Uint32Array;

  constructor(
    private readonly bytes: Uint8Array,
    offsets: Uint8Array,
    private readonly present: Uint8Array,
  ) {
    this.offsets = u32View(offsets);
  }

  get(doc: number): string | null {
    if (this.present[doc] !== 1) return null;
    return decoder.decode(this.bytes.subarray(this.offsets[doc], this.offsets[doc + 1]));
  }
}
