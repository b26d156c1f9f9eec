// A collection's synonyms (docs/api.md, "Synonyms"), applied at query time: nothing is
// re-indexed when they change. Each entry is a multi-way group (`words` equivalent to one
// another) or one-way (`input` → `words`); an entry may be a phrase. The table analyzes every
// entry once with the collection's analyzer, so "Laptops" in a query finds the rule written
// for "laptop"; a search then carries only the rules its words can use (`rulesFor`), so a table
// of tens of thousands of entries costs a search a few map look-ups, not a copy of the table.
//
// A rule's input is the analyzed terms of one side; its synonyms are what the query may also
// match there, each with the text as written (for `explain`). The word as typed is always still
// searched (as Meilisearch and Typesense do; Elasticsearch's `=>` would replace it).

import type { Analyzer } from '../analysis/index.ts';

/** One entry of the `synonyms` setting: `words` alone are a multi-way group; with `input`, one-way. */
export interface SynonymEntry {
  words: string[];
  input?: string[];
}

/** Something a query word (or words) may also match: analyzed terms (one, or a phrase's) and the text as written. */
export interface Synonym {
  terms: string[];
  text: string;
}

/** The synonyms of one input: its analyzed terms, and what else they may match. */
export interface SynonymRule {
  input: string[];
  synonyms: Synonym[];
}

/** Most synonyms one input gets (the first ones, in the order of the entries): a query's cost stays bounded. */
export const MAX_SYNONYMS_PER_INPUT = 32;
/** Longest input, in terms: longer entries are refused when the setting is written. */
export const MAX_SYNONYM_TERMS = 8;

/** Separates terms in a rule's key (never inside a term). */
const TERM_SEPARATOR = ' ';

export class SynonymTable {
  static readonly EMPTY = new SynonymTable(new Map(), 0);

  private constructor(
    private readonly rules: ReadonlyMap<string, SynonymRule>,
    /** Terms of the longest input. */
    private readonly longestInput: number,
  ) {}

  /** Rules from the setting's entries, analyzed with `analyzer`; words that analyze to nothing are left out. */
  static build(entries: readonly SynonymEntry[], analyzer: Analyzer): SynonymTable {
    if (entries.length === 0) return SynonymTable.EMPTY;
    const rules = new Map<string, SynonymRule>();
    const analyze = (text: string): Synonym | null => {
      const terms = analyzer.tokenize(text).map((token) => token.term);
      return terms.length === 0 ? null : { terms, text };
    };
    const add = (input: Synonym, synonym: Synonym): void => {
      const key = input.terms.join(TERM_SEPARATOR);
      if (key === synonym.terms.join(TERM_SEPARATOR)) return; // "Laptop" and "laptops" analyze alike
      let rule = rules.get(key);
      if (rule === undefined) rules.set(key, (rule = { input: input.terms, synonyms: [] }));
      if (rule.synonyms.length >= MAX_SYNONYMS_PER_INPUT) return;
      const synonymKey = synonym.terms.join(TERM_SEPARATOR);
      if (rule.synonyms.some((known) => known.terms.join(TERM_SEPARATOR) === synonymKey)) return;
      rule.synonyms.push(synonym);
    };
    let longestInput = 0;
    for (const entry of entries) {
      const words = entry.words.map(analyze).filter((word): word is Synonym => word !== null);
      const inputs = entry.input === undefined ? words : entry.input.map(analyze).filter((word): word is Synonym => word !== null);
      for (const input of inputs) {
        longestInput = Math.max(longestInput, input.terms.length);
        for (const word of words) add(input, word);
      }
    }
    return rules.size === 0 ? SynonymTable.EMPTY : new SynonymTable(rules, longestInput);
  }

  get size(): number {
    return this.rules.size;
  }

  /**
   * The rules whose input is a run of consecutive terms of `q` (analyzed as a query is): all a
   * search of `q` can use, whatever the query language makes of its words.
   */
  rulesFor(q: string, analyzer: Analyzer): SynonymRule[] {
    if (this.rules.size === 0) return [];
    const terms = analyzer.tokenize(q).map((token) => token.term);
    const found = new Map<string, SynonymRule>();
    for (let start = 0; start < terms.length; start++) {
      for (let length = 1; length <= this.longestInput && start + length <= terms.length; length++) {
        const key = terms.slice(start, start + length).join(TERM_SEPARATOR);
        const rule = this.rules.get(key);
        if (rule !== undefined) found.set(key, rule);
      }
    }
    return [...found.values()];
  }
}

/** The rules a search was given, by input, for the query parser. */
export function synonymLookup(rules: readonly SynonymRule[]): (terms: readonly string[]) => Synonym[] | undefined {
  if (rules.length === 0) return () => undefined;
  const byInput = new Map(rules.map((rule) => [rule.input.join(TERM_SEPARATOR), rule.synonyms]));
  return (terms) => byInput.get(terms.join(TERM_SEPARATOR));
}
