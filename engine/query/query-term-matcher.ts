// Decides which terms of a document a query matched, for highlighting and matched pages:
// the terms of its positive (should / must) term and phrase clauses and their synonyms, and any term starting
// with one of its positive prefixes. Excluded (must_not) clauses never highlight. Field scope
// is ignored: a `title:` word is highlighted in the text too.

import type { AnalyzedQuery } from './query-types.ts';

/** A predicate over analyzed terms: true when the term is one the query looks for. */
export function queryTermMatcher(query: AnalyzedQuery): (term: string) => boolean {
  const terms = new Set<string>();
  const prefixes: string[] = [];
  for (const clause of query.clauses) {
    if (clause.occur === 'must_not') continue;
    if (clause.kind === 'term') terms.add(clause.term);
    else if (clause.kind === 'phrase') for (const term of clause.terms) terms.add(term);
    else if (!prefixes.includes(clause.prefix)) prefixes.push(clause.prefix);
    if (clause.kind !== 'prefix') for (const synonym of clause.synonyms ?? []) for (const term of synonym.terms) terms.add(term);
  }
  if (prefixes.length === 0) return (term) => terms.has(term);
  return (term) => {
    if (terms.has(term)) return true;
    for (const prefix of prefixes) if (term.startsWith(prefix)) return true;
    return false;
  };
}
