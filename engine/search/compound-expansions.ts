// Words inside longer compounds (issue 14 point 7). Japanese katakana and Korean hangul words
// are written without spaces around their parts: "パッケージ" (package) stands inside
// "パッケージング" (packaging) and "ソースパッケージ" (source package), and "패키지" inside
// "패키지를" (with its particle). The tokenizer keeps such a run as one token, so a query word
// of these scripts also matches the collection's terms that contain it — found by scanning the
// dictionary's range of that script (terms sort by code point, so a script's terms are one
// range) — each scoring COMPOUND_SCORE_FACTOR of the word, so whole words rank first.
// Han and hiragana need none of this: they are one token per character and a word of them is
// a phrase, found inside longer text already. Bounded: each segment's scan reads at most
// MAX_COMPOUND_TERMS_READ terms of the script (bytes compared in place: about 3 ms per 100,000
// terms on the reference machine; a dictionary with more terms of the script is scanned up to
// that many), and at most MAX_COMPOUND_EXPANSIONS are kept.

import type { SegmentView } from './segment-view.ts';

const encoder = new TextEncoder();

/** A compound containing the word scores this much of it (whole words rank first). */
export const COMPOUND_SCORE_FACTOR = 0.5;
/** Compounds a word expands to at most (those in the most documents). */
export const MAX_COMPOUND_EXPANSIONS = 50;
/** Terms one segment's scan may read. */
export const MAX_COMPOUND_TERMS_READ = 100_000;

/** The scripts whose runs are compounds: [first, one past last] code point. */
const COMPOUND_SCRIPTS: readonly (readonly [number, number])[] = [
  [0x30a0, 0x3100], // katakana, with the prolonged sound mark ー
  [0xac00, 0xd7b0], // hangul syllables
];

function scriptOf(codePoint: number): readonly [number, number] | null {
  for (const range of COMPOUND_SCRIPTS) if (codePoint >= range[0] && codePoint < range[1]) return range;
  return null;
}

/** The script range of `term` when it is a word of two or more characters all in one compound script. */
export function compoundScript(term: string): readonly [number, number] | null {
  const codePoints = [...term].map((char) => char.codePointAt(0)!);
  if (codePoints.length < 2) return null;
  const script = scriptOf(codePoints[0]);
  if (script === null) return null;
  return codePoints.every((codePoint) => scriptOf(codePoint) === script) ? script : null;
}

export interface Compound {
  term: string;
  /** Documents containing it, over all segments. */
  docFreq: number;
}

/** The terms of the collection that contain `term` (itself excluded): most documents first. */
export function compoundsContaining(term: string, views: readonly SegmentView[], limit = MAX_COMPOUND_EXPANSIONS): Compound[] {
  const script = compoundScript(term);
  if (script === null || limit <= 0) return [];
  const found = new Map<string, Compound>();
  const from = String.fromCodePoint(script[0]);
  const to = String.fromCodePoint(script[1]);
  const needle = encoder.encode(term);
  for (const { reader } of views) {
    const dictionary = reader.terms;
    const start = dictionary.lowerBoundOf(from);
    const end = Math.min(dictionary.lowerBoundOf(to), start + MAX_COMPOUND_TERMS_READ);
    dictionary.forEachContaining(start, end, needle, (index) => {
      const candidate = dictionary.term(index);
      if (candidate === term) return;
      const known = found.get(candidate);
      if (known !== undefined) known.docFreq += dictionary.docFreq(index);
      else found.set(candidate, { term: candidate, docFreq: dictionary.docFreq(index) });
    });
  }
  return [...found.values()].sort((a, b) => b.docFreq - a.docFreq || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)).slice(0, limit);
}
