// How many typos a query word may have (docs/api.md, "Typo tolerance", issue 14): a collection's typo tolerance
// settings, a search's `typos` override, and the rule that turns both and the word as typed into
// 0, 1 or 2. The rules are Meilisearch's:
// - 0 typos for words under `oneTypo` characters (default 5), 1 from there, 2 from `twoTypos`
//   (default 9), counted in characters (code points, NFC) of the word as typed, before folding
//   and stemming — the automaton then runs on the analyzed term;
// - a typo on the first character counts as two (levenshtein-automaton.ts);
// - never on a word with a digit in it (`disableOnNumbers`, on by default): "2024" must not
//   find "2025", nor a code such as "rfc7231", "sku12345" or "il6" a neighbouring one;
// - never on a phrase's words, a prefix (`pre*`) or an excluded word (the query parser gives
//   those clauses no budget);
// - `disableOnFields` keeps typo matches out of `title` or `text` (both: none at all).
// A search's `typos`: `auto` (default) follows the collection's settings; `0` turns typos off;
// `1` and `2` allow at most that many per word even when the collection has them disabled — the
// minimum word sizes, numbers and fields of the collection still apply.

/** The two text fields a typo match may be kept out of. */
export type TypoField = 'title' | 'text';
export const TYPO_FIELDS: readonly TypoField[] = ['title', 'text'];

/** A collection's typo tolerance settings (the API's `typo_tolerance`, camelCase). */
export interface TypoTolerance {
  enabled: boolean;
  minWordSize: {
    /** Characters a word needs for one typo (default 5). */
    oneTypo: number;
    /** Characters a word needs for two typos (default 9); ≥ oneTypo. */
    twoTypos: number;
  };
  /** No typos on words with a digit in them: numbers and codes (default true). */
  disableOnNumbers: boolean;
  /** Fields where only exact words match (default none). */
  disableOnFields: TypoField[];
}

/** A search's `typos` parameter. */
export type TypoMode = 'auto' | 0 | 1 | 2;

export const DEFAULT_TYPO_TOLERANCE: Readonly<TypoTolerance> = Object.freeze({
  enabled: true,
  minWordSize: Object.freeze({ oneTypo: 5, twoTypos: 9 }),
  disableOnNumbers: true,
  disableOnFields: Object.freeze([]) as unknown as TypoField[],
});

/** The defaults with typos disabled: what the engine assumes when a search names no settings. */
export const TYPO_TOLERANCE_OFF: Readonly<TypoTolerance> = Object.freeze({ ...DEFAULT_TYPO_TOLERANCE, enabled: false });

/** The most characters a minimum word size may ask for (a word that long is rare). */
export const MAX_TYPO_WORD_SIZE = 255;

/** What the query parser needs to give each word its budget. */
export interface TypoBudgetRule {
  /** The most typos any word may get: 0 (off), 1 or 2. */
  maxTypos: number;
  oneTypo: number;
  twoTypos: number;
  disableOnNumbers: boolean;
}

export const NO_TYPOS: Readonly<TypoBudgetRule> = Object.freeze({ maxTypos: 0, oneTypo: 0, twoTypos: 0, disableOnNumbers: true });

/** The rule a search runs with, from the collection's settings and the search's `typos`. */
export function typoBudgetRule(tolerance: TypoTolerance, mode: TypoMode): TypoBudgetRule {
  const fieldsLeft = TYPO_FIELDS.some((field) => !tolerance.disableOnFields.includes(field));
  const maxTypos = mode === 'auto' ? (tolerance.enabled ? 2 : 0) : mode;
  if (maxTypos === 0 || !fieldsLeft) return NO_TYPOS;
  return {
    maxTypos,
    oneTypo: tolerance.minWordSize.oneTypo,
    twoTypos: tolerance.minWordSize.twoTypos,
    disableOnNumbers: tolerance.disableOnNumbers,
  };
}

const DIGIT = /\p{N}/u;

/** Typos allowed for one query word as typed (one token: "histgram", not "e-mail"). */
export function typoBudget(word: string, rule: TypoBudgetRule): number {
  if (rule.maxTypos === 0) return 0;
  if (rule.disableOnNumbers && DIGIT.test(word)) return 0;
  let length = 0;
  for (const _ of word.normalize('NFC')) length++;
  const allowed = length >= rule.twoTypos ? 2 : length >= rule.oneTypo ? 1 : 0;
  return Math.min(allowed, rule.maxTypos);
}
