// Orders strings by Unicode code point, which is the byte order of their UTF-8 encoding: the
// order of the term dictionary, so binary search over bytes and sorting over strings agree.

/** Maps a UTF-16 code unit so that surrogates (code points ≥ U+10000) sort after U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x < 0xd800 && y < 0xd800 ? x - y : codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Compares `bytes[start, end)` with `key` as unsigned bytes. */
export function compareBytes(bytes: Uint8Array, start: number, end: number, key: Uint8Array): number {
  const length = Math.min(end - start, key.length);
  for (let i = 0; i < length; i++) {
    const diff = bytes[start + i] - key[i];
    if (diff !== 0) return diff;
  }
  return end - start - key.length;
}
