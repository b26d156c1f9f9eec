// A clause's forms in the searchable metadata fields (docs/api.md, "Searchable fields"): each form
// it has in title and text (the word, its typo variants, its synonyms, a phrase, a prefix's
// terms) is looked for again as the terms of each metadata field the search weighs, weighed by
// BM25 with the field's weight and length statistics (bm25.ts fieldStatistics); a word also gets
// the typo variants, and a prefix the terms, that only the field has. A word then scores in its
// best field, as a best-fields multi-field match does. A clause scoped to a field
// (`author:knuth`) keeps its forms in that field only, weight 1 where the search leaves it out.

import { metadataFieldOf } from '../../query/query-types.ts';
import type { FieldScope } from '../../query/query-types.ts';
import { fieldTerm, fieldTermPrefix } from '../../segment/segment-format.ts';
import { Bm25fWeight, bm25Idf, fieldStatistics } from '../bm25.ts';
import type { SearchedField } from '../bm25.ts';
import { EXISTING_WORD_MAX_TYPOS, TYPO_SCORE_FACTOR, UNKNOWN_WORD_TYPO_SCORE_FACTOR, typoVariants } from '../typo-expansions.ts';
import type { ClauseForm, PrepareContext, PreparedClause } from './clause-forms.ts';
import { MAX_PREFIX_EXPANSIONS } from './prefix-clause.ts';

/** The fields a clause of scope `scope` looks in: the searched ones, or the one it is scoped to. */
function fieldsOf(scope: FieldScope, context: PrepareContext): SearchedField[] {
  const fields = context.stats.metadataFields ?? [];
  const scoped = metadataFieldOf(scope);
  if (scoped === null) return scope === 'all' ? fields.filter((field) => field.weight > 0) : [];
  return fields.filter((field) => field.name === scoped).map((field) => ({ ...field, weight: field.weight || 1 }));
}

/** Whether a clause of scope `field` also looks in title or text. */
function searchesTitleOrText(field: FieldScope, context: PrepareContext): boolean {
  if (field === 'title' || field === 'text') return true;
  if (field !== 'all') return false;
  const weights = context.stats.fieldWeights;
  return weights === undefined || weights.title > 0 || weights.text > 0;
}

/**
 * The clause with its forms in the metadata fields it looks in (unchanged when it looks in none);
 * `scope` is its field as typed (the search may have narrowed it to title or text since).
 */
export function withFieldForms(prepared: PreparedClause, context: PrepareContext, scope: FieldScope = prepared.clause.field): PreparedClause {
  const fields = fieldsOf(scope, context);
  const plain = searchesTitleOrText(scope, context);
  if (fields.length === 0) return plain ? prepared : { clause: prepared.clause, own: null, alternatives: [], fieldForms: [] };
  const fieldForms = fields.flatMap((field) => formsInField(prepared, field, context));
  return plain ? { ...prepared, fieldForms } : { clause: prepared.clause, own: null, alternatives: [], fieldForms };
}

function formsInField(prepared: PreparedClause, field: SearchedField, context: PrepareContext): ClauseForm[] {
  const stats = fieldStatistics(context.stats, field);
  const idfOf = (terms: readonly string[]): number => terms.reduce((sum, term) => sum + context.idf(term), 0);
  const { clause, own, alternatives } = prepared;
  const ownTerms = own === null ? null : own.terms.map((term) => fieldTerm(field.name, term));
  const ownIdf = ownTerms === null ? Infinity : idfOf(ownTerms);
  const forms: ClauseForm[] = [];
  const seen = new Set<string>();
  const add = (terms: string[], idf: number, from: ClauseForm | null, extra: Partial<ClauseForm> = {}): void => {
    const key = terms.join(' ');
    if (seen.has(key)) return;
    seen.add(key);
    const weight = new Bm25fWeight(idf, stats, 'text', from?.weight.boost ?? 1, from?.weight.boostReason ?? '');
    forms.push({ terms, weight, role: from?.role ?? 'expansion', field: field.name, ...(from?.typos !== undefined && { typos: from.typos }), ...extra });
  };
  if (own !== null) add(ownTerms!, ownIdf, own);
  for (const form of alternatives) {
    // A prefix's checked term ("run" for `runn*`) would match every form of it in the field.
    if (form.checked === true) continue;
    const terms = form.terms.map((term) => fieldTerm(field.name, term));
    add(terms, Math.min(idfOf(terms), ownIdf), form);
  }
  if (clause.kind === 'prefix' && clause.occur !== 'must_not') {
    // The field's own words starting with the prefix.
    const found = new Set<string>();
    for (const { reader } of context.views) {
      for (const index of reader.terms.withPrefix(fieldTermPrefix(field.name) + clause.prefix, MAX_PREFIX_EXPANSIONS)) found.add(reader.terms.term(index));
    }
    for (const term of found) if (forms.length < MAX_PREFIX_EXPANSIONS) add([term], context.idf(term), null);
  }
  if (clause.kind === 'term' && clause.maxTypos !== undefined && own !== null && !context.options.typoDisabledFields?.includes('text')) {
    // Typo variants only the field has ("knuht" → "knuth" in `author`).
    const exactDocFreq = context.docFreq(ownTerms![0]);
    const factor = exactDocFreq === 0 ? UNKNOWN_WORD_TYPO_SCORE_FACTOR : TYPO_SCORE_FACTOR;
    const budget = exactDocFreq > 0 ? Math.min(clause.maxTypos, EXISTING_WORD_MAX_TYPOS) : clause.maxTypos;
    const prefix = fieldTermPrefix(field.name);
    for (const variant of typoVariants(ownTerms![0], budget, context.views)) {
      if (!variant.term.startsWith(prefix)) continue;
      const reason = `${variant.typos} typo${variant.typos === 1 ? '' : 's'} from '${clause.term}', ${factor} per typo`;
      const weight = new Bm25fWeight(Math.min(bm25Idf(context.stats.docCount, variant.docFreq), ownIdf), stats, 'text', factor ** variant.typos, reason);
      if (!seen.has(variant.term)) {
        seen.add(variant.term);
        forms.push({ terms: [variant.term], weight, role: 'expansion', typos: variant.typos, field: field.name });
      }
    }
  }
  return forms;
}

/** Per metadata field, the words (analysed) the query's positive clauses match there: what hits highlight in its values. */
export function metadataFieldTerms(prepared: readonly PreparedClause[]): Map<string, Set<string>> {
  const byField = new Map<string, Set<string>>();
  for (const { clause, fieldForms } of prepared) {
    if (clause.occur === 'must_not' || fieldForms === undefined) continue;
    for (const form of fieldForms) {
      const prefix = fieldTermPrefix(form.field!);
      let words = byField.get(form.field!);
      if (words === undefined) byField.set(form.field!, (words = new Set()));
      for (const term of form.terms) words.add(term.slice(prefix.length));
    }
  }
  return byField;
}
