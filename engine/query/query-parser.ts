// Turns query text (SPEC §6) into an AnalyzedQuery: lexes it into parts (query-lexer.ts),
// runs each through the collection's analyzer, and applies the match mode. Never throws.
//
// - A word gives a term clause; a word with no terms ("--", "…") is dropped. A word the
//   analyzer splits at separators ("e-mail", "IL-6") gives a clause per part, as Lucene's and
//   Elasticsearch's query parsers do by default; parts that touch with no separator between
//   them (ideographs: "東京") stay together as a phrase. Excluding a split word ("-e-mail")
//   excludes the phrase of its parts, not each part.
// - A phrase gives a phrase clause, or a term clause when it has a single term.
// - `prefix*` gives a prefix clause on the folded, unstemmed word. Because indexed terms are
//   stemmed, the prefix is cut back to where the word and its stem agree, so a complete word
//   still finds itself: "computer*" searches "comput…" (the stem of "computer" is "comput").
//   Of a word the analyzer splits, the last token is the prefix and the leading tokens are a
//   term or phrase clause of the same occur ("e-ma*" → "e" and prefix "ma").
// - `match=all` makes every plain (`should`) clause required; `-x` stays excluded.
// - Identical clauses are kept once; at most MAX_QUERY_CLAUSES are kept, in query order.

import type { Analyzer } from '../analysis/analyzer.ts';
import { lexQuery } from './query-lexer.ts';
import type { QueryPart } from './query-lexer.ts';
import { MAX_QUERY_CLAUSES } from './query-types.ts';
import type { AnalyzedQuery, FieldScope, Occur, QueryClause } from './query-types.ts';

export { queryTermMatcher } from './query-term-matcher.ts';

export type QueryMatchMode = 'any' | 'all';

/** Separates the parts of a clause's identity in the duplicate check (never inside a term). */
const KEY_SEPARATOR = '\u0000';

/** Collects clauses, dropping duplicates and stopping at MAX_QUERY_CLAUSES. */
class ClauseList {
  readonly clauses: QueryClause[] = [];
  private readonly seen = new Set<string>();

  get full(): boolean {
    return this.clauses.length >= MAX_QUERY_CLAUSES;
  }

  /** A term clause for one term, a phrase clause for several, nothing for none. */
  addTerms(occur: Occur, field: FieldScope, terms: string[]): void {
    if (terms.length === 1) this.add({ kind: 'term', occur, field, term: terms[0] }, terms[0]);
    else if (terms.length > 1) this.add({ kind: 'phrase', occur, field, terms }, terms.join(KEY_SEPARATOR));
  }

  addPrefix(occur: Occur, field: FieldScope, prefix: string): void {
    this.add({ kind: 'prefix', occur, field, prefix }, prefix);
  }

  private add(clause: QueryClause, identity: string): void {
    if (this.full) return;
    const key = [clause.kind, clause.occur, clause.field, identity].join(KEY_SEPARATOR);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.clauses.push(clause);
  }
}

/** The longest common prefix of two strings. */
function commonPrefix(a: string, b: string): string {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return a.slice(0, i);
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
  const prefix = commonPrefix(folded, last.term);
  list.addPrefix(occur, part.field, prefix.length > 0 ? prefix : folded);
}

/** A plain word: one clause per run of touching tokens (see the top of this file). */
function addWordPart(list: ClauseList, part: QueryPart, occur: Occur, analyzer: Analyzer): void {
  const tokens = analyzer.tokenize(part.text);
  if (part.quoted || occur === 'must_not') {
    list.addTerms(occur, part.field, tokens.map((token) => token.term));
    return;
  }
  let run: string[] = [];
  tokens.forEach((token, i) => {
    if (i > 0 && token.start !== tokens[i - 1].end) {
      list.addTerms(occur, part.field, run);
      run = [];
    }
    run.push(token.term);
  });
  list.addTerms(occur, part.field, run);
}

/** Parses and analyzes query text `q` for a collection analyzed by `analyzer`. */
export function parseQuery(q: string, match: QueryMatchMode, analyzer: Analyzer): AnalyzedQuery {
  const list = new ClauseList();
  for (const part of lexQuery(q)) {
    if (list.full) break;
    const occur: Occur = match === 'all' && part.occur === 'should' ? 'must' : part.occur;
    if (part.prefix) addPrefixPart(list, part, occur, analyzer);
    else addWordPart(list, part, occur, analyzer);
  }
  return { clauses: list.clauses };
}
