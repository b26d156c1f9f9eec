// Deterministic typos for the typo robustness benchmark (benchmarks/typos.ts, issue 14 point 8):
// every word of MIN_TYPO_WORD_LETTERS or more letters in a query gets exactly one typo — a
// transposition of two adjacent letters, a deletion, an insertion or a substitution — with the
// kind, the position and the letter drawn from a PRNG seeded by the seed and the query's id, so a
// query's typos do not depend on which other queries are run. A word is a run of letters
// (\p{L}); digits, hyphens and punctuation between words are kept as typed. Positions are
// uniform over the word, the first letter included (Meilisearch counts a typo there as two, so
// such a word is only corrected from 9 letters); inserted and substituted letters are a–z.

import { seededRandom } from '../test/helpers/seeded-random.ts';

/** Words with at least this many letters get a typo (Meilisearch's one-typo size). */
export const MIN_TYPO_WORD_LETTERS = 5;

export type TypoKind = 'transposition' | 'deletion' | 'insertion' | 'substitution';
export const TYPO_KINDS: readonly TypoKind[] = ['transposition', 'deletion', 'insertion', 'substitution'];

export interface WordTypo {
  word: string;
  typed: string;
  kind: TypoKind;
  /** Code-point index in the word where the typo is (for a transposition, the first of the two). */
  position: number;
}

export interface TypoQuery {
  text: string;
  typos: WordTypo[];
}

/** mulberry32, the project's seeded PRNG (test/helpers/seeded-random.ts). */
export const mulberry32 = seededRandom;

/** FNV-1a over UTF-16 code units: the per-query seed. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const WORD = /\p{L}+/gu;

/** One typo in `word` (an array of code points, at least 2 long); never the word itself. */
function typoInWord(chars: string[], random: () => number): { typed: string; kind: TypoKind; position: number } {
  const pick = (n: number): number => Math.floor(random() * n);
  const letter = (not?: string): string => {
    for (;;) {
      const candidate = LETTERS[pick(LETTERS.length)];
      if (candidate !== not?.toLowerCase()) return candidate;
    }
  };
  const word = chars.join('');
  for (;;) {
    const kind = TYPO_KINDS[pick(TYPO_KINDS.length)];
    const edited = [...chars];
    let position: number;
    switch (kind) {
      case 'transposition':
        position = pick(chars.length - 1);
        [edited[position], edited[position + 1]] = [edited[position + 1], edited[position]];
        break;
      case 'deletion':
        position = pick(chars.length);
        edited.splice(position, 1);
        break;
      case 'insertion':
        position = pick(chars.length + 1);
        edited.splice(position, 0, letter());
        break;
      case 'substitution':
        position = pick(chars.length);
        edited[position] = letter(chars[position]);
        break;
    }
    const typed = edited.join('');
    // Swapping two equal letters, or deleting one of a double letter, can still leave a
    // different word; only an unchanged one is drawn again.
    if (typed !== word) return { typed, kind, position };
  }
}

/** The query with one typo in each word of MIN_TYPO_WORD_LETTERS+ letters. */
export function addTypos(text: string, queryId: string, seed: number): TypoQuery {
  const random = mulberry32(fnv1a(`${seed}:${queryId}`));
  const typos: WordTypo[] = [];
  const typed = text.replace(WORD, (word) => {
    const chars = [...word];
    if (chars.length < MIN_TYPO_WORD_LETTERS) return word;
    const typo = typoInWord(chars, random);
    typos.push({ word, ...typo });
    return typo.typed;
  });
  return { text: typed, typos };
}
