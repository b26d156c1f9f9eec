// Builds a segment's term dictionary sections: the batch's terms in code-point (= UTF-8 byte)
// order, their UTF-8 bytes back to back and where each starts. The order is what
// term-dictionary.ts binary-searches.

import { compareCodePoints } from './term-order.ts';
import { encodeUtf8Strings } from './utf8-strings.ts';
import { newArray } from '../../storage/index.ts';

const FIRST_SURROGATE = 0xd800;

/** Leading characters of a term packed into its numeric sort key, 7 bits each (ASCII). */
const KEY_CHARS = 5;
const KEY_RADIX = 128;
/** The key's low bits carry the term's index: up to 2^18 terms, within a double's 53 exact bits. */
const INDEX_BITS = 18;
const INDEX_RANGE = 2 ** INDEX_BITS;

/** The indexes of `terms` in code-point order. */
export function termOrder(terms: readonly string[]): Uint32Array {
  const surrogates = hasSurrogates(terms);
  return prefixKeyOrder(terms, surrogates) ?? stringOrder(terms, surrogates);
}

/**
 * The order by one numeric sort of keys — each term's first KEY_CHARS characters, then its
 * index — and a string sort of each run of terms that share those characters (short runs): twice
 * as fast as sorting the strings, and no hash of them to find their indexes. Null where a term's
 * first characters are not ASCII or there are too many terms for the key.
 */
function prefixKeyOrder(terms: readonly string[], surrogates: boolean): Uint32Array | null {
  const count = terms.length;
  if (count > INDEX_RANGE) return null;
  const keys = newArray(Float64Array, count);
  for (let i = 0; i < count; i++) {
    const term = terms[i];
    let key = 0;
    for (let c = 0; c < KEY_CHARS; c++) {
      const code = c < term.length ? term.charCodeAt(c) : 0;
      if (code >= KEY_RADIX) return null;
      key = key * KEY_RADIX + code;
    }
    keys[i] = key * INDEX_RANGE + i;
  }
  keys.sort();
  const order = newArray(Uint32Array, count);
  for (let i = 0; i < count; i++) order[i] = keys[i] % INDEX_RANGE;
  // A term shorter than KEY_CHARS pads with 0, below every character a term holds, so it
  // sorts before the terms it is a prefix of; runs of a shared prefix are sorted in full.
  const compare = surrogates ? compareCodePoints : compareCodeUnits;
  let start = 0;
  for (let i = 1; i <= count; i++) {
    if (i < count && Math.floor(keys[i] / INDEX_RANGE) === Math.floor(keys[start] / INDEX_RANGE)) continue;
    if (i - start > 1) {
      const run = Array.from(order.subarray(start, i));
      run.sort((a, b) => compare(terms[a], terms[b]));
      order.set(run, start);
    }
    start = i;
  }
  return order;
}

/** The order by sorting the strings, then a hash of them to find each one's index. */
function stringOrder(terms: readonly string[], surrogates: boolean): Uint32Array {
  // Without surrogates, UTF-16 code-unit order (the default sort) is code-point order, and
  // the default sort compares strings natively, far faster than a comparator.
  const sorted = surrogates ? terms.slice().sort(compareCodePoints) : terms.slice().sort();
  const indexes = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) indexes.set(terms[i], i);
  const order = new Uint32Array(terms.length);
  for (let i = 0; i < sorted.length; i++) order[i] = indexes.get(sorted[i])!;
  return order;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function hasSurrogates(terms: readonly string[]): boolean {
  for (const term of terms) {
    for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) >= FIRST_SURROGATE) return true;
  }
  return false;
}

/** UTF-8 bytes of `terms` taken in `order`, and u32 × (terms + 1) offsets into them. */
export function encodeTerms(terms: readonly string[], order: Uint32Array): { bytes: Uint8Array; offsets: Uint32Array } {
  return encodeUtf8Strings(order.length, (index) => terms[order[index]]);
}
