// Public surface of the query language: parse query text into analyzed clauses; a collection's
// synonyms, applied at query time.

export { parseQuery } from './query-parser.ts';
export type { QueryMatchMode, QueryPrefixMode } from './query-parser.ts';
export { lexQuery } from './query-lexer.ts';
export type { QueryPart } from './query-lexer.ts';
export { MAX_QUERY_CLAUSES } from './query-types.ts';
export { MAX_SYNONYM_TERMS, SynonymTable } from './synonyms.ts';
export type { Synonym, SynonymEntry, SynonymRule } from './synonyms.ts';
export type {
  AnalyzedQuery,
  FieldScope,
  Occur,
  PhraseClause,
  PrefixClause,
  QueryClause,
  TermClause,
} from './query-types.ts';
export { metadataFieldOf } from './query-types.ts';
