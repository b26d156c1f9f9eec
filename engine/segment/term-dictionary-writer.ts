// Builds a segment's term dictionary sections: the batch's terms in code-point (= UTF-8 byte)
// order, their UTF-8 bytes back to back and where each starts. The order is what
// term-dictionary.ts binary-searches.

import { compareCodePoints } from './term-order.ts';
import { encodeUtf8Strings } from './utf8-strings.ts';

const FIRST_SURROGATE = 0xd800;

/**
 * The indexes of `terms` in code-point order. `indexOf` finds a term's index where the caller
 * has a hash of them already (an interner's); else one is built.
 */
export function termOrder(terms: readonly string[], indexOf?: (term: string) => number): Uint32Array {
  // Without surrogates, UTF-16 code-unit order (the default sort) is code-point order, and
  // the default sort compares strings natively, far faster than a comparator.
  const sorted = hasSurrogates(terms) ? terms.slice().sort(compareCodePoints) : terms.slice().sort();
  if (indexOf === undefined) {
    const indexes = new Map<string, number>();
    for (let i = 0; i < terms.length; i++) indexes.set(terms[i], i);
    indexOf = (term) => indexes.get(term)!;
  }
  const order = new Uint32Array(terms.length);
  for (let i = 0; i < sorted.length; i++) order[i] = indexOf(sorted[i]);
  return order;
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
