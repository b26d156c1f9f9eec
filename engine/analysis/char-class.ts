// Classifies characters for the tokenizer: part of a word (letters, digits and combining
// marks, `\p{L}\p{N}\p{M}`), a standalone ideograph that is a token by itself (Han and
// Hiragana, which are written without spaces), or a separator. Results are memoised in a
// 64 Ki table for the Basic Multilingual Plane, so the tokenizer's inner loop is an array
// read; each distinct character pays for one regex test, once per process.

/** Not part of any token: spaces, punctuation, symbols, lone surrogates. */
export const SEPARATOR = 1;
/** Part of a word: a run of these is one token. */
export const WORD = 2;
/** An ideograph: one token on its own (CJK text has no spaces between words). */
export const IDEOGRAPH = 3;

export type CharClass = typeof SEPARATOR | typeof WORD | typeof IDEOGRAPH;

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const IDEOGRAPH_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}]$/u;

const FIRST_SURROGATE = 0xd800;
const LAST_SURROGATE = 0xdfff;
const ASCII_LIMIT = 0x80;

/** Memoised classes of BMP code units; 0 means "not classified yet". */
const bmpClasses = new Uint8Array(0x10000);
/** Memoised classes of supplementary-plane code points (rare: extension ideographs, math letters). */
const astralClasses = new Map<number, CharClass>();

function classify(char: string): CharClass {
  if (!WORD_CHAR.test(char)) return SEPARATOR;
  return IDEOGRAPH_CHAR.test(char) ? IDEOGRAPH : WORD;
}

for (let code = 0; code < ASCII_LIMIT; code++) bmpClasses[code] = classify(String.fromCharCode(code));
bmpClasses.fill(SEPARATOR, FIRST_SURROGATE, LAST_SURROGATE + 1);

/**
 * Class of one UTF-16 code unit. Surrogates answer SEPARATOR: the caller must combine a
 * surrogate pair and ask `codePointClass` instead.
 */
export function charClass(code: number): CharClass {
  const known = bmpClasses[code];
  if (known !== 0) return known as CharClass;
  const computed = classify(String.fromCharCode(code));
  bmpClasses[code] = computed;
  return computed;
}

/** Class of any code point (BMP or supplementary). */
export function codePointClass(codePoint: number): CharClass {
  if (codePoint < 0x10000) return charClass(codePoint);
  let known = astralClasses.get(codePoint);
  if (known === undefined) {
    known = classify(String.fromCodePoint(codePoint));
    astralClasses.set(codePoint, known);
  }
  return known;
}

/** True for a high (leading) surrogate code unit. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True for a low (trailing) surrogate code unit. */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Class of the character starting at `index` in `text`, combining a surrogate pair when
 * one starts there (a lone surrogate is a SEPARATOR).
 */
export function charClassAt(text: string, index: number): CharClass {
  const code = text.charCodeAt(index);
  if (!isHighSurrogate(code)) return charClass(code);
  const next = text.charCodeAt(index + 1);
  if (!isLowSurrogate(next)) return SEPARATOR;
  return codePointClass(((code - 0xd800) << 10) + (next - 0xdc00) + 0x10000);
}
