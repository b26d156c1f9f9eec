// A prepared clause's scorers over one segment, for any kind of clause: each form is a term or
// a phrase scorer over the segment's postings (a `checked` prefix term keeps only the documents
// a word starting with the prefix made it); the clause scores as the best of its forms. WAND
// ranks it as its own form plus what its other forms add over it (TypoVariantsScorer), so each
// part has its own bound and documents holding only a variant or a synonym can be skipped.

import type { FieldScope } from '../../query/index.ts';
import type { SegmentReader } from '../../segment/segment-reader.ts';
import type { Bm25fWeight } from '../bm25.ts';
import { phraseShape } from '../phrase-starts.ts';
import { SearchBudget } from '../search-budget.ts';
import { DisjunctionMaxScorer } from '../scorers/disjunction-max-scorer.ts';
import { PhraseScorer } from '../scorers/phrase-scorer.ts';
import { FieldsSumScorer } from '../scorers/fields-sum-scorer.ts';
import type { FrequencyScorer, Scorer } from '../scorers/scorer.ts';
import { SurfaceCheckedScorer } from '../scorers/surface-checked-scorer.ts';
import { TermScorer } from '../scorers/term-scorer.ts';
import { TypoVariantsScorer } from '../scorers/typo-variants-scorer.ts';
import type { ClauseForm, PreparedClause } from './clause-forms.ts';

/**
 * The lengths a form's terms are normalised by, where `text` lengths would be: the text's, or
 * its metadata field's (null when the segment does not index that field).
 */
function textLengthsOf(form: ClauseForm, reader: SegmentReader): Uint32Array | null {
  return form.field === undefined ? reader.textLengths : reader.fieldLengths(form.field);
}

/** A scorer of `term` over the segment's postings, or null when the segment lacks it. */
function termScorer(reader: SegmentReader, term: string, weight: Bm25fWeight, textLengths: Uint32Array): TermScorer | null {
  const index = reader.terms.find(term);
  if (index < 0) return null;
  // The weight's field is the clause's, or (typo variants) where the variant may match.
  return new TermScorer(term, reader.postings(index), weight, weight.field, reader.titleLengths, textLengths, reader.impactBounds(weight.frequencyKey), reader.lengthFloors(textLengths));
}

/** A scorer of the phrase `terms` over the segment, or null when the segment lacks a term. */
function phraseScorer(terms: string[], weight: Bm25fWeight, field: FieldScope, reader: SegmentReader, textLengths: Uint32Array, budget: SearchBudget): PhraseScorer | null {
  const shape = phraseShape(terms);
  // One cursor per distinct word, in slot order (a repeated word is read once).
  const cursors = [];
  for (const term of new Set(terms)) {
    const index = reader.terms.find(term);
    if (index < 0) return null;
    cursors.push(reader.postings(index));
  }
  return new PhraseScorer(terms.join(' '), cursors, shape, weight, field, reader.titleLengths, textLengths, budget);
}

/**
 * The scorer of one form of the clause over the segment, or null when the segment cannot match
 * it: with its parts in metadata fields, one BM25F sum over them.
 */
function formScorer(prepared: PreparedClause, form: ClauseForm, reader: SegmentReader, budget: SearchBudget): Scorer | null {
  const scorer = fieldFormScorer(prepared, form, reader, budget);
  if (form.inFields === undefined || form.inFields.length === 0) return scorer;
  const parts: FrequencyScorer[] = scorer === null ? [] : [scorer as TermScorer | PhraseScorer];
  for (const copy of form.inFields) {
    const part = fieldFormScorer(prepared, copy, reader, budget);
    if (part !== null) parts.push(part as TermScorer | PhraseScorer);
  }
  if (parts.length === 0) return null;
  if (parts.length === 1 && parts[0] === scorer) return scorer;
  return new FieldsSumScorer(form.terms.length > 1 ? `"${form.terms.join(' ')}"` : form.terms[0], parts, form.weight);
}

/** The scorer of a form in one field (title and text, or a metadata field), or null. */
function fieldFormScorer(prepared: PreparedClause, form: ClauseForm, reader: SegmentReader, budget: SearchBudget): Scorer | null {
  const textLengths = textLengthsOf(form, reader);
  if (textLengths === null) return null;
  // A metadata field's terms are matched wherever they are (their occurrences count as text ones).
  if (form.terms.length > 1) return phraseScorer(form.terms, form.weight, form.field === undefined ? prepared.clause.field : 'all', reader, textLengths, budget);
  const scorer = termScorer(reader, form.terms[0], form.weight, textLengths);
  if (scorer === null || form.checked !== true || prepared.surfaceCheck === undefined) return scorer;
  return new SurfaceCheckedScorer(scorer, prepared.surfaceCheck(reader));
}

function formScorers(prepared: PreparedClause, forms: readonly ClauseForm[], reader: SegmentReader, budget: SearchBudget): Scorer[] {
  const scorers: Scorer[] = [];
  for (const form of forms) {
    const scorer = formScorer(prepared, form, reader, budget);
    if (scorer !== null) scorers.push(scorer);
  }
  return scorers;
}

/** The best of `scorers` as one scorer, or null for none. */
function bestOf(label: string, scorers: Scorer[]): Scorer | null {
  if (scorers.length <= 1) return scorers[0] ?? null;
  return new DisjunctionMaxScorer(label, scorers);
}

/** What explanations call the clause. */
function labelOf(prepared: PreparedClause): string {
  const { clause } = prepared;
  const scope = clause.field.startsWith('metadata.') ? `${clause.field}:` : '';
  return scope + (clause.kind === 'prefix' ? `${clause.prefix}*` : clause.kind === 'term' ? clause.term : clause.terms.join(' '));
}

/** Every form of the clause: its own, its other forms, then its forms in metadata fields. */
function allForms(prepared: PreparedClause): ClauseForm[] {
  const forms = prepared.own === null ? [...prepared.alternatives] : [prepared.own, ...prepared.alternatives];
  if (prepared.fieldForms !== undefined) forms.push(...prepared.fieldForms);
  return forms;
}

/** The clause's scorer over one segment (the best of its forms), or null when nothing in the segment can match it; phrases spend `budget`. */
export function clauseScorer(prepared: PreparedClause, reader: SegmentReader, budget = SearchBudget.UNLIMITED): Scorer | null {
  const forms = allForms(prepared);
  return bestOf(forms.length <= 1 ? labelOf(prepared) : `${labelOf(prepared)} (and its other forms)`, formScorers(prepared, forms, reader, budget));
}

/**
 * The scorers WAND ranks the clause with, summed: a word's own form, and what its other forms
 * add over it (TypoVariantsScorer), so that each has its own bound; any other clause is its one
 * scorer.
 */
export function rankingScorers(prepared: PreparedClause, reader: SegmentReader, budget = SearchBudget.UNLIMITED): Scorer[] {
  const { own } = prepared;
  const alternatives = prepared.fieldForms === undefined ? prepared.alternatives : [...prepared.alternatives, ...prepared.fieldForms];
  // A phrase is ranked as one scorer: its joined form and synonyms rarely outscore it.
  if (own === null || own.terms.length > 1 || alternatives.length === 0) {
    const scorer = clauseScorer(prepared, reader, budget);
    return scorer === null ? [] : [scorer];
  }
  const exact = formScorer(prepared, own, reader, budget);
  const others = bestOf(`other forms of ${labelOf(prepared)}`, formScorers(prepared, alternatives, reader, budget));
  if (others === null) return exact === null ? [] : [exact];
  return exact === null ? [others] : [exact, new TypoVariantsScorer(others, exact, formScorer(prepared, own, reader, budget))];
}
