// Inverts the searchable metadata fields of a batch of documents: for each field, its string
// values (a string, or each string of an array) are analysed like text, and their words become
// the field's own terms (segment-format.ts `fieldTerm`), as one InvertedBatch per field whose
// documents have no title — so the postings writer encodes them as it encodes text, and a
// field's length is its word count. Values of an array are FIELD_VALUE_GAP positions apart.

import type { Analyzer } from '../analysis/index.ts';
import { TermInterner } from '../analysis/index.ts';
import type { IndexDocument, MetadataValue } from '../document.ts';
import { NO_TERM, groupByTerm } from './inverter.ts';
import type { InvertedBatch } from './inverter.ts';
import { FIELD_VALUE_GAP, fieldTerm } from './segment-format.ts';
import { U32List } from './u32-list.ts';

/** The strings of a metadata value that are searched: a string, or the strings of an array. */
export function searchedStrings(value: MetadataValue | undefined): readonly string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'string') return value as string[];
  return [];
}

/** One field's inverted batch; its terms are already the field's terms. */
export function invertField(docs: readonly IndexDocument[], field: string, analyzer: Analyzer): InvertedBatch {
  const interner = new TermInterner();
  const tokens = new U32List(1 << 12);
  const docStarts = new Uint32Array(docs.length + 1);
  const lengths = new Uint32Array(docs.length);
  const visit = (termId: number): void => tokens.push(termId);
  for (let doc = 0; doc < docs.length; doc++) {
    docStarts[doc] = tokens.length;
    let words = 0;
    const values = searchedStrings(docs[doc].metadata[field]);
    for (let v = 0; v < values.length; v++) {
      if (v > 0 && words > 0) for (let g = 0; g < FIELD_VALUE_GAP; g++) tokens.push(NO_TERM);
      words += analyzer.forEachTermId(values[v], interner, visit);
    }
    lengths[doc] = words;
  }
  docStarts[docs.length] = tokens.length;
  const { termStarts, occurrences } = groupByTerm(tokens.view(), interner.size);
  return {
    terms: interner.terms.map((word) => fieldTerm(field, word)),
    termStarts,
    occurrences,
    docStarts,
    titleLengths: new Uint32Array(docs.length),
    textLengths: lengths,
    pageStarts: new Array(docs.length).fill(null),
    rawTokens: new Map(),
  };
}
