// Turns query text (docs/api.md, "Search") into an AnalyzedQuery: lexes it into parts (query-lexer.ts),
// runs each through the collection's analyzer, and applies the match mode. Never throws.
//
// - A word gives a term clause; a word with no terms ("--", "…") is dropped. An identifier
//   the analyzer splits at `_ . / @ ::` ("asn1_der_decoding", "node.js", "v1.2.3") matches as a
//   whole, never as a bag of its parts (issue 14): it gives the phrase of its parts, which
//   also matches the parts written together as one term ("nodejs" — Elasticsearch's
//   word_delimiter "catenate"). Other split words ("e-mail", "IL-6") give a clause per part,
//   as Lucene's and Elasticsearch's query parsers do by default (measured: see
//   IDENTIFIER_CONNECTOR); parts that touch with no separator between them (ideographs:
//   "東京") stay together as a phrase. Excluding a split word ("-e-mail") excludes the phrase
//   of its parts, not each part.
// - A phrase gives a phrase clause, or a term clause when it has a single term.
// - `prefix*` gives a prefix clause on the folded, unstemmed word. Because indexed terms are
//   stemmed, the prefix is cut back to where the word and its stem agree, so a complete word
//   still finds itself: "computer*" searches "comput…" (the stem of "computer" is "comput").
//   The word as typed goes along: the terms of the documents' words that start with it match
//   too (segment/surface-forms.ts), so "runn*" finds "running" (indexed as "run").
//   Of a word the analyzer splits, the last token is the prefix and the leading tokens are a
//   term or phrase clause of the same occur ("e-ma*" → "e" and prefix "ma").
// - `match=all` makes every plain (`should`) clause required; `-x` stays excluded.
// - Typos: a term clause of a plain word (one token, not quoted, not excluded) gets the typo
//   budget of the word as typed under the search's rule (engine/typo/typo-rules.ts); phrases,
//   prefixes and exclusions never get one.
// - `prefix=last` (search as you type, as Meilisearch does): the last word of a query that
//   does not end in a space is a prefix ("hello wor" finds "world"), unless quoted or excluded.
// - Synonyms (synonyms.ts; the rules the search was given): a plain word (not quoted, excluded
//   or a prefix) that is a rule's input gets the rule's synonyms as other forms it matches; the
//   longest run of plain words that together are an input is searched as one unit — the words
//   in a row (a phrase) or one of its synonyms — as Elasticsearch's synonym graph does. Typos
//   apply to the word as typed, never to its synonyms.
// - Identical clauses are kept once; at most MAX_QUERY_CLAUSES are kept, in query order.

import type { Analyzer, Token } from '../analysis/index.ts';
import { prefixAgreeingWithStem } from '../analysis/index.ts';
import { lexQuery } from './query-lexer.ts';
import type { QueryPart } from './query-lexer.ts';
import { MAX_QUERY_CLAUSES } from './query-types.ts';
import { NO_TYPOS, typoBudget } from '../typo/typo-rules.ts';
import type { TypoBudgetRule } from '../typo/typo-rules.ts';
import type { AnalyzedQuery, FieldScope, Occur, PhraseClause, QueryClause, TermClause } from './query-types.ts';
import { synonymLookup } from './synonyms.ts';
import type { Synonym, SynonymRule } from './synonyms.ts';

export type QueryMatchMode = 'any' | 'all';
/** `none`: only words ending in `*` are prefixes; `last`: the word being typed is one too. */
export type QueryPrefixMode = 'none' | 'last';

/** Separates the parts of a clause's identity in the duplicate check (never inside a term). */
const KEY_SEPARATOR = '\u0000';

/** Collects clauses, dropping duplicates and stopping at MAX_QUERY_CLAUSES. */
class ClauseList {
  readonly clauses: QueryClause[] = [];
  private readonly seen = new Set<string>();

  get full(): boolean {
    return this.clauses.length >= MAX_QUERY_CLAUSES;
  }

  /**
   * A term clause for one term, a phrase clause for several (with `joined`, the parts written
   * together, as another form it matches), nothing for none.
   */
  addTerms(occur: Occur, field: FieldScope, terms: string[], joined?: string, synonyms?: Synonym[]): void {
    if (terms.length === 1) this.add(withSynonyms({ kind: 'term', occur, field, term: terms[0] }, synonyms), terms[0]);
    else if (terms.length > 1) {
      const phrase: PhraseClause = joined === undefined ? { kind: 'phrase', occur, field, terms } : { kind: 'phrase', occur, field, terms, joined };
      this.add(withSynonyms(phrase, synonyms), terms.join(KEY_SEPARATOR));
    }
  }

  /** A term clause that may match with up to `maxTypos` typos (0: exactly). */
  addTerm(occur: Occur, field: FieldScope, term: string, maxTypos: number, synonyms?: Synonym[]): void {
    const clause: TermClause = maxTypos > 0 ? { kind: 'term', occur, field, term, maxTypos } : { kind: 'term', occur, field, term };
    this.add(withSynonyms(clause, synonyms), term);
  }

  addPrefix(occur: Occur, field: FieldScope, prefix: string, word: string): void {
    this.add(word === prefix ? { kind: 'prefix', occur, field, prefix } : { kind: 'prefix', occur, field, prefix, word }, `${prefix}${KEY_SEPARATOR}${word}`);
  }

  private add(clause: QueryClause, identity: string): void {
    if (this.full) return;
    const key = [clause.kind, clause.occur, clause.field, identity].join(KEY_SEPARATOR);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.clauses.push(clause);
  }
}

/** The clause with its synonyms, when it has some. */
function withSynonyms<C extends TermClause | PhraseClause>(clause: C, synonyms: Synonym[] | undefined): C {
  return synonyms === undefined || synonyms.length === 0 ? clause : { ...clause, synonyms };
}

function addPrefixPart(list: ClauseList, part: QueryPart, occur: Occur, analyzer: Analyzer): void {
  const tokens = analyzer.tokenize(part.text);
  if (tokens.length === 0) return;
  const last = tokens[tokens.length - 1];
  list.addTerms(
    occur,
    part.field,
    tokens.slice(0, -1).map((token) => token.term),
  );
  const folded = analyzer.fold(part.text.slice(last.start, last.end));
  if (folded.length === 0) return;
  list.addPrefix(occur, part.field, prefixAgreeingWithStem(folded, last.term), folded);
}

/**
 * A word with one of these between its tokens is an identifier whose parts match only
 * together: "asn1_der_decoding", "node.js", "v1.2.3", "user@example.org", "usr/share/doc",
 * "std::vector". A single colon is not ("author:smith" reads as two words, as an unknown
 * field does), nor are hyphens: making "IL-6", "T-cell" or "high-fat" phrases
 * cost SciFact's train queries 0.008 nDCG@10 (0.7116 → 0.7034; with this set, 0.7111).
 */
const IDENTIFIER_CONNECTOR = /[_./@]|::/;

/** The parts of a split word written together, analyzed as one word: its single term, or undefined. */
function joinedTerm(text: string, tokens: readonly Token[], analyzer: Analyzer): string | undefined {
  const terms = analyzer.analyzeWord(tokens.map((token) => text.slice(token.start, token.end)).join(''));
  return terms.length === 1 ? terms[0] : undefined;
}

/** A plain word: a term clause, or the phrase of its parts (see the top of this file). */
function addWordPart(list: ClauseList, part: QueryPart, occur: Occur, analyzer: Analyzer, typos: TypoBudgetRule, synonymsOf: SynonymLookup): void {
  const tokens = analyzer.tokenize(part.text);
  const terms = tokens.map((token) => token.term);
  if (part.quoted || occur === 'must_not') {
    list.addTerms(occur, part.field, terms);
    return;
  }
  if (tokens.length === 0) return;
  const synonyms = synonymsOf(terms);
  if (tokens.length === 1) {
    list.addTerm(occur, part.field, terms[0], typoBudget(part.text.slice(tokens[0].start, tokens[0].end), typos), synonyms);
    return;
  }
  if (synonyms !== undefined) {
    // A word with synonyms of its own is searched as one unit: its parts in a row, or a synonym.
    list.addTerms(occur, part.field, terms, joinedTerm(part.text, tokens, analyzer), synonyms);
    return;
  }
  const inner = part.text.slice(tokens[0].start, tokens[tokens.length - 1].end);
  if (IDENTIFIER_CONNECTOR.test(inner)) {
    list.addTerms(occur, part.field, terms, joinedTerm(part.text, tokens, analyzer));
    return;
  }
  // Hyphens, apostrophes and the like: a clause per run of touching tokens.
  let run: Token[] = [];
  const addRun = (): void => {
    if (run.length === 1) list.addTerm(occur, part.field, run[0].term, typoBudget(part.text.slice(run[0].start, run[0].end), typos));
    else list.addTerms(occur, part.field, run.map((token) => token.term));
  };
  tokens.forEach((token, i) => {
    if (i > 0 && token.start !== tokens[i - 1].end) {
      addRun();
      run = [];
    }
    run.push(token);
  });
  addRun();
}

/**
 * Parses and analyzes query text `q` for a collection analyzed by `analyzer`; `typos` gives
 * plain words their typo budgets (default: none); `metadataFields` are the searchable metadata
 * fields `name:word` may name.
 */
export function parseQuery(
  q: string,
  match: QueryMatchMode,
  analyzer: Analyzer,
  typos: TypoBudgetRule = NO_TYPOS,
  prefix: QueryPrefixMode = 'none',
  synonyms: readonly SynonymRule[] = [],
  metadataFields: readonly string[] = [],
): AnalyzedQuery {
  const list = new ClauseList();
  const parts = lexQuery(q, metadataFields);
  // Search as you type: the word being typed — the last, when the query does not end in a
  // space — is a prefix, unless it is quoted or excluded.
  const last = parts[parts.length - 1];
  if (prefix === 'last' && last !== undefined && !last.quoted && last.occur !== 'must_not' && !/\s$/.test(q)) last.prefix = true;
  const synonymsOf = synonymLookup(synonyms);
  const longestInput = synonyms.reduce((longest, rule) => Math.max(longest, rule.input.length), 0);
  for (let i = 0; i < parts.length && !list.full; i++) {
    const part = parts[i];
    const occur: Occur = match === 'all' && part.occur === 'should' ? 'must' : part.occur;
    if (part.prefix) {
      addPrefixPart(list, part, occur, analyzer);
      continue;
    }
    const unit = longestInput > 1 ? synonymInputAt(parts, i, longestInput, analyzer, synonymsOf) : null;
    if (unit !== null) {
      // Words that together are a synonym's input: one unit, the words in a row or a synonym.
      list.addTerms(occur, part.field, unit.terms, undefined, unit.synonyms);
      i += unit.parts - 1;
      continue;
    }
    addWordPart(list, part, occur, analyzer, typos, synonymsOf);
  }
  return { clauses: list.clauses };
}

type SynonymLookup = (terms: readonly string[]) => Synonym[] | undefined;

/** Whether a part is a plain word, which synonyms may apply to (not quoted, excluded or a prefix). */
function isPlainWord(part: QueryPart): boolean {
  return !part.quoted && !part.prefix && part.occur !== 'must_not';
}

/**
 * The longest run of two or more plain words from `parts[start]` (same occur and field) whose
 * terms together are a synonym's input, or null.
 */
function synonymInputAt(
  parts: readonly QueryPart[],
  start: number,
  longestInput: number,
  analyzer: Analyzer,
  synonymsOf: SynonymLookup,
): { parts: number; terms: string[]; synonyms: Synonym[] } | null {
  const first = parts[start];
  if (!isPlainWord(first)) return null;
  const terms: string[] = [];
  const runs: { parts: number; terms: number }[] = [];
  for (let i = start; i < parts.length && terms.length < longestInput; i++) {
    const part = parts[i];
    if (!isPlainWord(part) || part.occur !== first.occur || part.field !== first.field) break;
    for (const token of analyzer.tokenize(part.text)) terms.push(token.term);
    runs.push({ parts: i - start + 1, terms: terms.length });
  }
  for (let r = runs.length - 1; r >= 1; r--) {
    const candidate = terms.slice(0, runs[r].terms);
    const synonyms = synonymsOf(candidate);
    if (synonyms !== undefined) return { parts: runs[r].parts, terms: candidate, synonyms };
  }
  return null;
}
