// The text analyzer of a collection: splits text into tokens and turns each into the term
// that is indexed and searched. One pipeline serves indexing (forEachToken), queries
// (analyzeWord, fold) and highlighting (tokenize / forEachToken with offsets), so a word is
// always seen the same way everywhere.
//
// Tokens are maximal runs of letters, digits and combining marks (`\p{L}\p{N}\p{M}`), so
// "naïve", "Straße" and "x86" are one token each and "e-mail" is two. Han ideographs and
// Hiragana are one token per character (CJK text has no spaces; a query "東京" becomes the
// phrase "東 京"). An English possessive "'s" / "’s" is dropped ("Folio's" → "folio"); other
// apostrophes split ("don't" → "don", "t"). Tokens longer than MAX_TOKEN_LENGTH are junk
// (base64, hashes) and skipped; skipped tokens take no position, so positions stay 0, 1, 2…
// Each token is folded (see fold-term.ts) and then stemmed with the language's Snowball
// stemmer. Stop words are kept, so phrases keep working.

import { EngineError } from '../errors.ts';
import { SEPARATOR, WORD, charClass, charClassAt, codePointClass } from './char-class.ts';
import { createStemmer } from './create-stemmer.ts';
import type { StemFunction } from './create-stemmer.ts';
import { foldTerm } from './fold-term.ts';
import { TOKEN_HASH_PRIME, TOKEN_HASH_SEED, TermCache, extendTokenHash } from './term-cache.ts';
import type { TermInterner } from './term-interner.ts';
import { SUPPORTED_LANGUAGES, isSupportedLanguage } from './supported-languages.ts';

export { SUPPORTED_LANGUAGES, isSupportedLanguage } from './supported-languages.ts';

/** One token of a text: its term and where it sits. */
export interface Token {
  /** The analyzed (folded and stemmed) term. */
  term: string;
  /** 0, 1, 2… in text order. */
  position: number;
  /** UTF-16 offset of the token's first code unit in the ORIGINAL text. */
  start: number;
  /** UTF-16 offset just past the token in the ORIGINAL text: `text.slice(start, end)`. */
  end: number;
}

/** Called once per token, in text order. */
export type TokenVisitor = (term: string, position: number, start: number, end: number) => void;

/** Called once per token, in text order, with the term's id in a TermInterner (indexing). */
export type TermIdVisitor = (termId: number, start: number) => void;

export interface AnalyzerOptions {
  /** Entries of the raw-token → term cache before it is cleared (default TERM_CACHE_ENTRIES). */
  cacheEntries?: number;
}

/** Tokens longer than this (UTF-16 code units) are skipped as junk. */
export const MAX_TOKEN_LENGTH = 64;
/** Default bound of each analyzer's raw-token → term cache. */
export const TERM_CACHE_ENTRIES = 100_000;
/**
 * Bound of the cache of an analyzer that builds segments (`Analyzer.forIndexing`). A batch of
 * 20,000 documents of a 200,000-word vocabulary holds about 300,000 distinct raw tokens (case
 * variants count); a cache that fills is emptied, and every token after that is analyzed
 * again: 100,000 entries built five such batches in 10.5 s, 262,144 in 8.9 s. It costs 16 MiB
 * of tables plus the cached strings in each index thread (which exits when idle), none in
 * search threads.
 */
export const INDEXING_TERM_CACHE_ENTRIES = 1 << 18;

const APOSTROPHE = 0x27;
const RIGHT_SINGLE_QUOTE = 0x2019;
const LOWER_S = 0x73;
const ASCII_CASE_BIT = 0x20;
const ASCII_LIMIT = 0x80;
const HIGH_SURROGATE_FIRST = 0xd800;
const HIGH_SURROGATE_LAST = 0xdbff;
const LOW_SURROGATE_FIRST = 0xdc00;
const LOW_SURROGATE_LAST = 0xdfff;
const SUPPLEMENTARY_BASE = 0x10000;
/** Cached term of a token that folds to nothing (only combining marks): skip it. */
const NO_TERM = '';

/** 1 for ASCII letters and digits: the tokenizer's fast path. */
const ASCII_WORD = new Uint8Array(ASCII_LIMIT);
for (let code = 0; code < ASCII_LIMIT; code++) ASCII_WORD[code] = charClass(code) === WORD ? 1 : 0;

/**
 * A copy of `s` that does not share memory with a larger string. V8 represents slices of 13+
 * characters as views into their parent, so caching a raw slice would keep whole documents
 * alive; concatenation then slicing yields a short, flat copy.
 */
function detach(s: string): string {
  return (' ' + s).slice(1);
}

export class Analyzer {
  private static readonly instances = new Map<string, Analyzer>();
  private static readonly indexingInstances = new Map<string, Analyzer>();

  /** The shared analyzer of `language` (one per language per thread). */
  static for(language: string): Analyzer {
    let analyzer = Analyzer.instances.get(language);
    if (analyzer === undefined) {
      analyzer = new Analyzer(language);
      Analyzer.instances.set(language, analyzer);
    }
    return analyzer;
  }

  /** The shared analyzer of `language` for building segments: a larger term cache (INDEXING_TERM_CACHE_ENTRIES). */
  static forIndexing(language: string): Analyzer {
    let analyzer = Analyzer.indexingInstances.get(language);
    if (analyzer === undefined) {
      analyzer = new Analyzer(language, { cacheEntries: INDEXING_TERM_CACHE_ENTRIES });
      Analyzer.indexingInstances.set(language, analyzer);
    }
    return analyzer;
  }

  readonly language: string;
  private readonly stem: StemFunction | null;
  /** Raw token text (as in the document, before folding) → term, or NO_TERM. */
  private readonly terms: TermCache;

  /** Prefer `Analyzer.for`, which shares instances; construct directly to tune the cache. */
  constructor(language: string, options: AnalyzerOptions = {}) {
    if (!isSupportedLanguage(language)) {
      throw new EngineError(
        'invalid_language',
        `unsupported language '${language}'; supported: ${SUPPORTED_LANGUAGES.join(', ')}`,
      );
    }
    this.language = language;
    this.stem = createStemmer(language);
    this.terms = new TermCache(options.cacheEntries ?? TERM_CACHE_ENTRIES);
  }

  /** Entries currently in the term cache (never more than its bound). */
  get cachedTerms(): number {
    return this.terms.size;
  }

  /** Every token of `text` with its term, position and offsets. */
  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    this.forEachToken(text, (term, position, start, end) => {
      tokens.push({ term, position, start, end });
    });
    return tokens;
  }

  /** The terms a query word produces, in order ("e-mail" → ["e", "mail"]; "," → []). */
  analyzeWord(word: string): string[] {
    const terms: string[] = [];
    this.forEachToken(word, (term) => {
      terms.push(term);
    });
    return terms;
  }

  /**
   * Stems one already folded word, bypassing the term cache (the segment writer asks this of
   * many word prefixes that would only crowd the cache); the same term analyzeWord gives.
   */
  stemFolded(folded: string): string {
    return this.stem === null ? folded : this.stem(folded);
  }

  /** Folds one token without stemming (prefix queries: "Compu" → "compu"). Not split. */
  fold(word: string): string {
    return foldTerm(word);
  }

  /**
   * Visits every token of `text` in order without building token objects (the indexing
   * path). Returns the number of tokens visited, which is one past the last position.
   */
  forEachToken(text: string, visit: TokenVisitor): number {
    return this.scan(text, visit, null, null, null);
  }

  /**
   * Visits only the tokens at `positions` (ascending), with their terms and offsets, and stops
   * after the last of them: the snippet path, which knows from the postings where the matches
   * are. The tokens before them are counted, not analyzed (an ASCII word always has a term; only
   * other tokens are looked up, as one made of combining marks alone takes no position).
   */
  locateTokens(text: string, positions: readonly number[], visit: TokenVisitor): void {
    if (positions.length > 0) this.scan(text, visit, null, null, positions);
  }

  /**
   * The indexing path: visits every token of `text` in order with its term's id in
   * `interner` (the same terms forEachToken gives). A token seen before in this batch costs
   * one cache probe: no string is made or hashed. Returns the number of tokens visited.
   */
  forEachTermId(text: string, interner: TermInterner, visit: TermIdVisitor): number {
    return this.scan(text, null, interner, visit, null);
  }

  /**
   * The tokenizer: calls `visit` with terms, or `visitId` with ids in `interner`; with `wanted`
   * (ascending positions), calls `visit` for those tokens only and returns after the last.
   */
  private scan(
    text: string,
    visit: TokenVisitor | null,
    interner: TermInterner | null,
    visitId: TermIdVisitor | null,
    wanted: readonly number[] | null,
  ): number {
    const length = text.length;
    let position = 0;
    let nextWanted = 0;
    let i = 0;
    while (i < length) {
      const code = text.charCodeAt(i);
      let cls: number;
      let width = 1;
      if (code < ASCII_LIMIT) {
        if (ASCII_WORD[code] === 0) {
          i++;
          continue;
        }
        cls = WORD;
      } else if (code >= HIGH_SURROGATE_FIRST && code <= HIGH_SURROGATE_LAST) {
        const low = text.charCodeAt(i + 1);
        if (low >= LOW_SURROGATE_FIRST && low <= LOW_SURROGATE_LAST) {
          cls = codePointClass(((code - HIGH_SURROGATE_FIRST) << 10) + (low - LOW_SURROGATE_FIRST) + SUPPLEMENTARY_BASE);
          width = 2;
        } else {
          cls = SEPARATOR; // a lone surrogate
        }
      } else {
        cls = charClass(code);
      }
      if (cls === SEPARATOR) {
        i += width;
        continue;
      }

      const start = i;
      let ascii = code < ASCII_LIMIT;
      let hash = extendTokenHash(TOKEN_HASH_SEED, code);
      if (width === 2) hash = extendTokenHash(hash, text.charCodeAt(i + 1));
      i += width;
      if (cls === WORD) {
        // Extend the run: ASCII through a table, anything else through the memoised class.
        while (i < length) {
          const next = text.charCodeAt(i);
          if (next < ASCII_LIMIT) {
            if (ASCII_WORD[next] === 0) break;
            hash = Math.imul(hash ^ next, TOKEN_HASH_PRIME);
            i++;
            continue;
          }
          if (next >= HIGH_SURROGATE_FIRST && next <= HIGH_SURROGATE_LAST) {
            const low = text.charCodeAt(i + 1);
            if (!(low >= LOW_SURROGATE_FIRST && low <= LOW_SURROGATE_LAST)) break; // lone (NaN at the end)
            const codePoint = ((next - HIGH_SURROGATE_FIRST) << 10) + (low - LOW_SURROGATE_FIRST) + SUPPLEMENTARY_BASE;
            if (codePointClass(codePoint) !== WORD) break;
            hash = extendTokenHash(extendTokenHash(hash, next), low);
            i += 2;
          } else {
            if (charClass(next) !== WORD) break;
            hash = extendTokenHash(hash, next);
            i++;
          }
          ascii = false;
        }
      }
      const end = i;

      // Possessive: "Folio's" / "Folio’s" followed by a separator (or the end) → "Folio".
      if (i + 1 < length) {
        const quote = text.charCodeAt(i);
        if (
          (quote === APOSTROPHE || quote === RIGHT_SINGLE_QUOTE) &&
          (text.charCodeAt(i + 1) | ASCII_CASE_BIT) === LOWER_S &&
          (i + 2 === length || charClassAt(text, i + 2) === SEPARATOR)
        ) {
          i += 2;
        }
      }

      if (end - start > MAX_TOKEN_LENGTH) continue;
      if (wanted !== null && ascii && position !== wanted[nextWanted]) {
        position++; // a token before the next wanted one: counted only
        continue;
      }
      const cache = this.terms;
      let slot = cache.find(text, start, end, hash);
      if (slot < 0) slot = this.analyzeToken(text.slice(start, end), hash, ascii);
      if (cache.emptyValueAt(slot)) continue; // the token folded to nothing (NO_TERM)
      if (interner !== null) visitId!(cache.termIdAt(slot, interner), start);
      else if (wanted === null) visit!(cache.valueAt(slot), position, start, end);
      else if (position === wanted[nextWanted]) {
        visit!(cache.valueAt(slot), position, start, end);
        if (++nextWanted === wanted.length) return position + 1;
      }
      position++;
    }
    return position;
  }

  /** Folds and stems one raw token and caches the result (a cache miss); returns its slot. */
  private analyzeToken(raw: string, hash: number, ascii: boolean): number {
    const folded = ascii ? raw.toLowerCase() : foldTerm(raw);
    const term = folded.length === 0 ? NO_TERM : detach(this.stemFolded(folded));
    return this.terms.insert(detach(raw), hash, term, folded !== term);
  }
}
