// A column of optional strings by doc number (document titles, for sorting by title): UTF-8
// bytes back to back, an offsets array, and a presence byte per doc (null vs empty string).

import { u32View, u32Bytes } from './segment-format.ts';
import { encodeUtf8Strings } from './utf8-strings.ts';

const decoder = new TextDecoder();

export function encodeStringColumn(values: readonly (string | null)[]): { bytes: Uint8Array; offsets: Uint8Array; present: Uint8Array } {
  const { bytes, offsets } = encodeUtf8Strings(values.length, (i) => values[i]);
  const present = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) if (values[i] !== null) present[i] = 1;
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
