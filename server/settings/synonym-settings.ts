// A collection's `synonyms` setting (docs/api.md, "Synonyms"): the rules a schema cannot say —
// a group has at least two words, and every word or phrase analyzes to between one and
// MAX_SYNONYM_TERMS terms in the collection's language — checked when a client writes them,
// and the stored form read back. A write replaces the whole list; searches use it at once
// (it is applied at query time, so nothing is re-indexed).

import { Compile } from 'typebox/compile';
import { Type } from 'typebox';
import { Analyzer, MAX_SYNONYM_TERMS } from '../../engine/index.ts';
import type { SynonymEntry } from '../../engine/index.ts';
import { SynonymEntrySchema } from './settings-shapes.ts';
import type { SynonymEntryWire } from './settings-shapes.ts';
import { FolioError, MAX_LISTED_FIELD_ERRORS } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';

const storedSynonyms = Compile(Type.Array(SynonymEntrySchema));

/**
 * The entries a client wrote, checked against the collection's `language`; `path` names them in
 * the request for errors. Throws FolioError `validation_failed` listing each broken rule.
 */
export function checkSynonyms(entries: readonly SynonymEntryWire[], language: string, path: string): SynonymEntry[] {
  const analyzer = Analyzer.for(language);
  const errors: FieldError[] = [];
  const checkWords = (words: readonly string[], at: string): void => {
    words.forEach((word, w) => {
      const terms = analyzer.tokenize(word).length;
      if (terms === 0) errors.push({ path: `${at}/${w}`, message: `${JSON.stringify(word)} has no word to search (only spaces or punctuation)` });
      else if (terms > MAX_SYNONYM_TERMS) errors.push({ path: `${at}/${w}`, message: `a synonym has at most ${MAX_SYNONYM_TERMS} words; ${JSON.stringify(word)} has ${terms}` });
    });
  };
  entries.forEach((entry, e) => {
    if (errors.length >= MAX_LISTED_FIELD_ERRORS) return;
    if (entry.input === undefined && entry.words.length < 2) {
      errors.push({ path: `${path}/${e}/words`, message: 'a group of synonyms needs at least two words (or an `input` for a one-way synonym)' });
    }
    checkWords(entry.words, `${path}/${e}/words`);
    if (entry.input !== undefined) checkWords(entry.input, `${path}/${e}/input`);
  });
  if (errors.length > 0) throw new FolioError('validation_failed', `${errors[0].path}: ${errors[0].message}`, errors.slice(0, MAX_LISTED_FIELD_ERRORS));
  return entries.map(copyEntry);
}

/** The entries as collection.json and the cluster's catalog store them (the API's shape). */
export function synonymsToStored(entries: readonly SynonymEntry[]): SynonymEntryWire[] {
  return entries.map(copyEntry);
}

/** Entries read back from their stored form (absent: none); null when they are not valid. */
export function synonymsFromStored(value: unknown): SynonymEntry[] | null {
  if (value === undefined) return [];
  if (!storedSynonyms.Check(value)) return null;
  return (value as SynonymEntryWire[]).map(copyEntry);
}

function copyEntry(entry: SynonymEntryWire): SynonymEntry {
  return entry.input === undefined ? { words: [...entry.words] } : { input: [...entry.input], words: [...entry.words] };
}
