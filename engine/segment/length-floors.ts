// Each doc's title and text lengths rounded down to a byte each (exact below 64, then eight
// steps per power of two), side by side in one u16 per doc: 2 bytes a doc where the exact
// lengths take 8, in two arrays. A score bound from a doc's tfs and these floors reads one small
// array that stays in the CPU's caches, so most docs that cannot reach a search's threshold are
// passed over without reading their exact lengths — at a million docs, two loads that miss the
// caches (Lucene keeps a byte per doc, its norms, for the same reason). Made from a segment's
// lengths when a search first needs them; scores themselves still use the exact lengths.

/** Codes below this are the length itself. */
const EXACT_BELOW = 64;

/** The largest code's smallest length, and the code of any length at or above it. */
const TOP_CODE = 255;

/** The byte of `length` (≥ 0): a code whose floor (`LENGTH_FLOORS`) is at most `length`. */
export function lengthCode(length: number): number {
  if (length < EXACT_BELOW) return length;
  const exponent = 31 - Math.clz32(length); // ≥ 6
  const code = EXACT_BELOW + (exponent - 6) * 8 + ((length >>> (exponent - 3)) & 7);
  return code > TOP_CODE ? TOP_CODE : code;
}

/** The smallest length of each code. */
export const LENGTH_FLOORS: Float64Array = (() => {
  const floors = new Float64Array(TOP_CODE + 1);
  for (let code = 0; code <= TOP_CODE; code++) {
    floors[code] = code < EXACT_BELOW ? code : (8 + ((code - EXACT_BELOW) & 7)) * 2 ** (((code - EXACT_BELOW) >>> 3) + 3);
  }
  return floors;
})();

/** Per doc, its title length's code in the high byte and its text length's in the low one. */
export function lengthFloorPairs(titleLengths: Uint32Array, textLengths: Uint32Array): Uint16Array {
  const pairs = new Uint16Array(titleLengths.length);
  for (let doc = 0; doc < pairs.length; doc++) pairs[doc] = (lengthCode(titleLengths[doc]) << 8) | lengthCode(textLengths[doc]);
  return pairs;
}
