// Folds one token into its index form before stemming: compatibility decomposition (NFKD:
// "ﬁ" → "fi", full-width "Ａ" → "a"), removal of diacritics ("café" → "cafe", "İ" → "i",
// "ё" → "е"), lower-casing, and a few letters that carry no decomposition but are commonly
// typed without their mark ("ß"/"ẞ" → "ss", "æ" → "ae", "œ" → "oe", "ø" → "o", "ł" → "l",
// "đ"/"ð" → "d", "þ" → "th", dotless "ı" → "i", final "ς" → "σ").
//
// Only diacritical marks are removed (the Combining Diacritical Marks blocks, Hebrew points,
// Arabic harakat). Marks that are letters in their script — Indic and Tamil vowel signs,
// Thai vowels — are kept, since removing them would merge unrelated words; so is the
// breve of Cyrillic "й", which Russian stemming relies on ("новый" and "новая" both → "нов").
// The result is recomposed (NFC) so stemmers see the forms they were written for.
//
// Folding happens before stemming, so accented and unaccented spellings always give the same
// term; the price is that a stemmer sees some words without the accents its rules expect.

const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ς: 'σ',
};
const SPECIAL_LETTER = /[ßæœøłđðþıς]/g;

const ASCII_LIMIT = 0x80;
const COMBINING_BREVE = 0x0306;
const CYRILLIC_FIRST = 0x0400;
const CYRILLIC_LAST = 0x04ff;

/** True for a combining mark that is a removable diacritic (not a letter of its script). */
function isDiacritic(code: number): boolean {
  return (
    (code >= 0x0300 && code <= 0x036f) || // Combining Diacritical Marks
    (code >= 0x0591 && code <= 0x05c7) || // Hebrew points and accents
    (code >= 0x0610 && code <= 0x061a) || // Arabic honorific marks
    (code >= 0x064b && code <= 0x065f) || // Arabic harakat
    code === 0x0670 || // Arabic superscript alef
    (code >= 0x1ab0 && code <= 0x1aff) || // Combining Diacritical Marks Extended
    (code >= 0x1dc0 && code <= 0x1dff) || // Combining Diacritical Marks Supplement
    (code >= 0x20d0 && code <= 0x20ff) || // Combining Diacritical Marks for Symbols
    (code >= 0xfe20 && code <= 0xfe2f) // Combining Half Marks
  );
}

function isAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) >= ASCII_LIMIT) return false;
  return true;
}

/** Folds a single token (not a phrase: nothing is split). Pure-ASCII input is only lower-cased. */
export function foldTerm(word: string): string {
  if (isAscii(word)) return word.toLowerCase();
  const decomposed = word.normalize('NFKD');
  let stripped = '';
  let runStart = 0;
  for (let i = 0; i < decomposed.length; i++) {
    const code = decomposed.charCodeAt(i);
    if (!isDiacritic(code)) continue;
    if (code === COMBINING_BREVE && i > 0) {
      const base = decomposed.charCodeAt(i - 1);
      if (base >= CYRILLIC_FIRST && base <= CYRILLIC_LAST) continue; // keep "й", "ў"
    }
    stripped += decomposed.slice(runStart, i);
    runStart = i + 1;
  }
  stripped = runStart === 0 ? decomposed : stripped + decomposed.slice(runStart);
  const lower = stripped.normalize('NFC').toLowerCase();
  return lower.replace(SPECIAL_LETTER, (letter) => SPECIAL_LETTERS[letter]);
}
