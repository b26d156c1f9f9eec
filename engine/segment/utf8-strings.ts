// Encodes many strings as UTF-8 bytes back to back with a u32 offset per string (plus a final
// one): the layout of the term dictionary, the ids and the titles. Pure-ASCII strings (most
// of them) are copied code unit by code unit; others go through TextEncoder.encodeInto.
// Nothing is allocated per string.

import { growArray } from '../../storage/index.ts';

const encoder = new TextEncoder();
/** Most UTF-8 bytes one UTF-16 code unit takes. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * UTF-8 bytes of `count` strings, string i being `get(i)` (null is stored as empty), and
 * u32 × (count + 1) offsets into them.
 */
export function encodeUtf8Strings(count: number, get: (index: number) => string | null): { bytes: Uint8Array; offsets: Uint32Array } {
  let bytes = new Uint8Array(1024);
  const offsets = new Uint32Array(count + 1);
  let at = 0;
  for (let index = 0; index < count; index++) {
    offsets[index] = at;
    const value = get(index);
    if (value === null) continue;
    const length = value.length;
    if (at + length * MAX_BYTES_PER_UNIT > bytes.length) {
      bytes = growArray(bytes, Math.max(bytes.length * 2, at + length * MAX_BYTES_PER_UNIT), at);
    }
    let i = 0;
    for (; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code >= 0x80) break;
      bytes[at + i] = code;
    }
    if (i === length) at += length;
    else at += encoder.encodeInto(value, bytes.subarray(at)).written;
  }
  offsets[count] = at;
  return { bytes: bytes.subarray(0, at), offsets };
}
