// A clause's forms in the searchable metadata fields (docs/api.md, "Searchable fields"): each form
// it has in title and text (the word, its typo variants, its synonyms, a phrase, a prefix's
// terms) is looked for again as the terms of each metadata field the search weighs, and scored
// with them by BM25F (scorers/fields-sum-scorer.ts): each field's frequency normalised by the
// field's length and times its weight (bm25.ts fieldStatistics), summed with title and text,
// saturated once, with the idf of the documents holding it in any of those fields. A word also
// gets the typo variants, and a prefix the terms, that only a field has: forms of that field
// alone. A clause scoped to a field (`author:knuth`) keeps its forms in that field only, weight
// 1 where the search leaves the field out.

import { metadataFieldOf } from '../../query/index.ts';
import type { FieldScope } from '../../query/index.ts';
import { fieldTerm, fieldTermPrefix } from '../../segment/segment-format.ts';
import { Bm25fWeight, bm25Idf, fieldStatistics } from '../bm25.ts';
import type { CollectionStatistics, SearchedField } from '../bm25.ts';
import type { ClauseForm, PrepareContext, PreparedClause } from './clause-forms.ts';
import { MAX_PREFIX_EXPANSIONS, termsWithPrefix, typoForms } from './expansion-forms.ts';

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

/** A field and the statistics its terms are weighed with. */
interface WeighedField {
  field: SearchedField;
  stats: CollectionStatistics;
}

/**
 * The clause with its forms in the metadata fields it looks in (unchanged when it looks in none);
 * `scope` is its field as typed (the search may have narrowed it to title or text since).
 */
export function withFieldForms(prepared: PreparedClause, context: PrepareContext, scope: FieldScope = prepared.clause.field): PreparedClause {
  const fields = fieldsOf(scope, context).map((field) => ({ field, stats: fieldStatistics(context.stats, field) }));
  const plain = searchesTitleOrText(scope, context);
  if (fields.length === 0) return plain ? prepared : { clause: prepared.clause, own: null, alternatives: [], fieldForms: [] };
  const seen = new Set<string>();
  if (!plain) {
    // Only metadata fields: each form as that field's terms alone.
    const fieldForms: ClauseForm[] = [];
    const ownIdf = prepared.own === null ? Infinity : fieldIdf(prepared.own.terms, fields, context);
    for (const form of formsOf(prepared)) {
      for (const weighed of fields) {
        const terms = form.terms.map((term) => fieldTerm(weighed.field.name, term));
        const idf = Math.min(termsIdf(terms, context), ownIdf);
        if (remember(seen, terms)) fieldForms.push(copyInField(form, terms, idf, weighed));
      }
    }
    fieldForms.push(...fieldOnlyForms(prepared, fields, seen, ownIdf, context));
    return { clause: prepared.clause, own: null, alternatives: [], fieldForms };
  }
  // Title and text too: each form gets its parts in the fields, and the idf of all of them.
  const ownIdf = prepared.own === null ? Infinity : combinedIdf(prepared.own.terms, fields, context);
  const spread = (form: ClauseForm, idf: number): ClauseForm => {
    const inFields = fields.map((weighed) => {
      const terms = form.terms.map((term) => fieldTerm(weighed.field.name, term));
      remember(seen, terms);
      return copyInField(form, terms, idf, weighed);
    });
    const weight = new Bm25fWeight(idf, form.weight.stats, form.weight.field, form.weight.boost, form.weight.boostReason);
    return { ...form, weight, inFields };
  };
  const own = prepared.own === null ? null : spread(prepared.own, ownIdf);
  // A prefix's checked term ("run" for `runn*`) would match every form of it in a field: it stays in title and text.
  const alternatives = prepared.alternatives.map((form) => (form.checked === true ? form : spread(form, Math.min(combinedIdf(form.terms, fields, context), ownIdf))));
  return { ...prepared, own, alternatives, fieldForms: fieldOnlyForms(prepared, fields, seen, ownIdf, context) };
}

function formsOf(prepared: PreparedClause): ClauseForm[] {
  const forms = prepared.own === null ? prepared.alternatives : [prepared.own, ...prepared.alternatives];
  return forms.filter((form) => form.checked !== true);
}

/** Adds the form's terms to `seen`; false when they were there already. */
function remember(seen: Set<string>, terms: readonly string[]): boolean {
  const key = terms.join(' ');
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

function copyInField(form: ClauseForm, terms: string[], idf: number, { field, stats }: WeighedField): ClauseForm {
  const weight = new Bm25fWeight(idf, stats, 'text', form.weight.boost, form.weight.boostReason);
  return { terms, weight, role: form.role, field: field.name, ...(form.typos !== undefined && { typos: form.typos }) };
}

function termsIdf(terms: readonly string[], context: PrepareContext): number {
  return terms.reduce((sum, term) => sum + context.idf(term), 0);
}

/** The idf of terms in the metadata fields alone: each term's documents in its most frequent field. */
function fieldIdf(terms: readonly string[], fields: readonly WeighedField[], context: PrepareContext): number {
  return terms.reduce((sum, term) => {
    const docFreq = Math.max(...fields.map(({ field }) => context.docFreq(fieldTerm(field.name, term))));
    return sum + bm25Idf(context.stats.docCount, docFreq);
  }, 0);
}

/** The idf of terms over title, text and the fields: each term's documents in the field that has most (BM25F's one document frequency). */
function combinedIdf(terms: readonly string[], fields: readonly WeighedField[], context: PrepareContext): number {
  return terms.reduce((sum, term) => {
    const docFreq = Math.max(context.docFreq(term), ...fields.map(({ field }) => context.docFreq(fieldTerm(field.name, term))));
    return sum + bm25Idf(context.stats.docCount, docFreq);
  }, 0);
}

/** The prefix terms and typo variants only a field has, as forms of that field alone. */
function fieldOnlyForms(prepared: PreparedClause, fields: readonly WeighedField[], seen: Set<string>, ownIdf: number, context: PrepareContext): ClauseForm[] {
  const { clause, own } = prepared;
  const forms: ClauseForm[] = [];
  for (const weighed of fields) {
    const prefix = fieldTermPrefix(weighed.field.name);
    if (clause.kind === 'prefix' && clause.occur !== 'must_not') {
      for (const term of [...termsWithPrefix(context.views, prefix + clause.prefix)].sort()) {
        if (forms.length >= MAX_PREFIX_EXPANSIONS || !remember(seen, [term])) continue;
        forms.push({ terms: [term], weight: new Bm25fWeight(context.idf(term), weighed.stats, 'text'), role: 'expansion', field: weighed.field.name });
      }
    }
    if (clause.kind === 'term' && clause.maxTypos !== undefined && own !== null && !context.options.typoDisabledFields?.includes('text')) {
      // Typo variants only the field has ("knuht" → "knuth" in `author`).
      const exact = fieldTerm(weighed.field.name, clause.term);
      const termDocFreq = context.docFreq(exact);
      const expansion = {
        word: clause.term,
        term: exact,
        maxTypos: clause.maxTypos,
        termDocFreq,
        unknownWord: termDocFreq === 0 && context.docFreq(clause.term) === 0,
        maxIdf: ownIdf,
        stats: weighed.stats,
        scope: 'text' as const,
        field: weighed.field.name,
        keep: (term: string): boolean => term.startsWith(prefix) && remember(seen, [term]),
      };
      forms.push(...typoForms(expansion, context));
    }
  }
  return forms;
}

/** Per metadata field, the words (analysed) the query's positive clauses match there: what hits highlight in its values. */
export function metadataFieldTerms(prepared: readonly PreparedClause[]): Map<string, Set<string>> {
  const byField = new Map<string, Set<string>>();
  const note = (form: ClauseForm): void => {
    const prefix = fieldTermPrefix(form.field!);
    let words = byField.get(form.field!);
    if (words === undefined) byField.set(form.field!, (words = new Set()));
    for (const term of form.terms) words.add(term.slice(prefix.length));
  };
  for (const { clause, own, alternatives, fieldForms } of prepared) {
    if (clause.occur === 'must_not') continue;
    for (const form of own === null ? alternatives : [own, ...alternatives]) for (const copy of form.inFields ?? []) note(copy);
    for (const form of fieldForms ?? []) note(form);
  }
  return byField;
}
