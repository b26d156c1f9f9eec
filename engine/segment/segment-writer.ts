// Builds an immutable segment file from a batch of documents: inverts them, encodes the term
// dictionary, postings with skip data and positions, field lengths, ids and stored fields, and
// writes everything durably through storage's segment-file container.

import { newArray, writeSegmentFile } from '../../storage/index.ts';
import type { Analyzer } from '../analysis/index.ts';
import type { IndexDocument } from '../document.ts';
import { encodeDocIds } from './doc-ids.ts';
import { invertField } from './field-inverter.ts';
import { invertDocuments } from './inverter.ts';
import { PostingsWriter } from './postings-writer.ts';
import { PAGE_FLAG, SECTION, SEGMENT_LAYOUT_VERSION, TERM_INFO_WORDS, TermInfoField, metadataSection, u32Bytes } from './segment-format.ts';
import { contentsPages } from '../analysis/index.ts';
import { encodeMetadata } from './metadata-writer.ts';
import { encodeStringColumn } from './string-column.ts';
import type { SegmentMeta } from './segment-format.ts';
import { StoredFieldsWriter } from './stored-fields.ts';
import { encodeSurfaceForms } from './surface-forms.ts';
import { encodeTerms, termOrder } from './term-dictionary-writer.ts';

export interface SegmentWriteResult {
  docCount: number;
  byteLength: number;
}

const encoder = new TextEncoder();

/**
 * Writes `docs` (unique ids) as a new segment at `path`, with the words of the metadata fields
 * `searchFields` indexed as their own terms; durable when it returns.
 */
export function writeSegment(path: string, docs: readonly IndexDocument[], analyzer: Analyzer, searchFields: readonly string[] = []): SegmentWriteResult {
  const seen = new Set<string>();
  for (const doc of docs) {
    if (seen.has(doc.id)) throw new Error(`duplicate document id '${doc.id}' in one segment`);
    seen.add(doc.id);
  }
  const batch = invertDocuments(docs, analyzer);
  const fieldBatches = searchFields.map((field) => invertField(docs, field, analyzer));
  // Term ids: the batch's, then each field batch's after the one before.
  const batches = [batch, ...fieldBatches];
  const firstIds = new Uint32Array(batches.length + 1);
  batches.forEach((inverted, b) => (firstIds[b + 1] = firstIds[b] + inverted.terms.length));
  const allTerms = fieldBatches.length === 0 ? batch.terms : batches.flatMap((inverted) => inverted.terms);
  const order = termOrder(allTerms);
  const { bytes: termBytes, offsets: termOffsets } = encodeTerms(allTerms, order);

  const termIndex = newArray(Uint32Array, order.length);
  order.forEach((id, index) => (termIndex[id] = index));
  const surfaces = encodeSurfaceForms(batch.rawTokens, batch.terms, termIndex, (word) => analyzer.stemFolded(word));

  const postings = new PostingsWriter(batch);
  const termInfo = newArray(Uint32Array, order.length * TERM_INFO_WORDS);
  let current = 0;
  for (let index = 0; index < order.length; index++) {
    const id = order[index];
    let b = 0;
    while (id >= firstIds[b + 1]) b++;
    if (b !== current) postings.useBatch(batches[(current = b)]);
    termInfo[index * TERM_INFO_WORDS + TermInfoField.firstSkip] = postings.skipEntries;
    termInfo[index * TERM_INFO_WORDS + TermInfoField.firstImpactGroup] = postings.impactGroups;
    termInfo[index * TERM_INFO_WORDS + TermInfoField.docFreq] = postings.add(id - firstIds[b]);
  }

  const lengths = newArray(Uint32Array, docs.length * 2);
  lengths.set(batch.titleLengths, 0);
  lengths.set(batch.textLengths, docs.length);

  const stored = new StoredFieldsWriter();
  docs.forEach((document, doc) => stored.add({ document, pageStarts: batch.pageStarts[doc] }));
  const storedBytes = stored.finish();
  const ids = encodeDocIds(docs.map((doc) => doc.id));
  const titles = encodeStringColumn(docs.map((doc) => doc.title));
  const metadata = encodeMetadata(docs.map((doc) => doc.metadata));

  return writeSegmentParts(path, {
    meta: {
      layoutVersion: SEGMENT_LAYOUT_VERSION,
      docCount: docs.length,
      termCount: order.length,
      sumTitleLength: batch.titleLengths.reduce((sum, n) => sum + n, 0),
      sumTextLength: batch.textLengths.reduce((sum, n) => sum + n, 0),
      ...(searchFields.length > 0 && {
        searchFields: [...searchFields],
        sumFieldLengths: fieldBatches.map((inverted) => inverted.textLengths.reduce((sum, n) => sum + n, 0)),
      }),
    },
    termBytes,
    termOffsets,
    termInfo,
    postings,
    lengths,
    ids,
    stored: storedBytes,
    titles,
    metadata,
    pageStarts: encodePageStarts(batch.pageStarts),
    pageFlags: encodePageFlags(docs),
    surfaces,
    fieldLengths: concatLengths(fieldBatches.map((inverted) => inverted.textLengths)),
  });
}

/** Arrays of lengths one after the other (fields.metadata). */
export function concatLengths(arrays: readonly Uint32Array[]): Uint32Array {
  const out = new Uint32Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let at = 0;
  for (const array of arrays) {
    out.set(array, at);
    at += array.length;
  }
  return out;
}

/** Everything a segment file holds, encoded (segment-format.ts), before it is written. */
export interface SegmentParts {
  meta: SegmentMeta;
  termBytes: Uint8Array;
  termOffsets: Uint32Array;
  termInfo: Uint32Array;
  postings: PostingsWriter;
  /** Title lengths of every doc, then text lengths. */
  lengths: Uint32Array;
  /** Ids and titles: their bytes whole or as pieces (a merge's, views of its sources). */
  ids: { bytes: Uint8Array | readonly Uint8Array[]; offsets: Uint8Array; order: Uint8Array };
  /** Stored blocks whole, or as pieces (a merge's, views of its sources). */
  stored: { blocks: Uint8Array | readonly Uint8Array[]; index: Uint8Array };
  titles: { bytes: Uint8Array | readonly Uint8Array[]; offsets: Uint8Array; present: Uint8Array };
  metadata: { fields: string[]; sections: Uint8Array[] };
  pageStarts: Uint32Array;
  pageFlags: Uint8Array;
  surfaces: { bytes: Uint8Array; offsets: Uint32Array; terms: Uint32Array };
  /** Each searchable metadata field's lengths (meta.searchFields order), one field after another. */
  fieldLengths: Uint32Array;
}

/** Writes the segment file at `path` from its encoded parts; durable when it returns. */
export function writeSegmentParts(path: string, parts: SegmentParts): SegmentWriteResult {
  const byteLength = writeSegmentFile(path, [
    [SECTION.meta, encoder.encode(JSON.stringify(parts.meta))],
    [SECTION.termBytes, parts.termBytes],
    [SECTION.termOffsets, u32Bytes(parts.termOffsets)],
    [SECTION.termInfo, u32Bytes(parts.termInfo)],
    [SECTION.skips, parts.postings.skipsSection()],
    [SECTION.docs, parts.postings.docsSection()],
    [SECTION.positions, parts.postings.positionsSection()],
    [SECTION.impacts, parts.postings.impacts.impactsSection()],
    [SECTION.impactOffsets, parts.postings.impacts.offsetsSection()],
    [SECTION.groupImpacts, parts.postings.groupImpacts.impactsSection()],
    [SECTION.groupImpactOffsets, parts.postings.groupImpacts.offsetsSection()],
    [SECTION.lengths, u32Bytes(parts.lengths)],
    [SECTION.idBytes, parts.ids.bytes],
    [SECTION.idOffsets, parts.ids.offsets],
    [SECTION.idOrder, parts.ids.order],
    [SECTION.storedBlocks, parts.stored.blocks],
    [SECTION.storedIndex, parts.stored.index],
    [SECTION.titleBytes, parts.titles.bytes],
    [SECTION.titleOffsets, parts.titles.offsets],
    [SECTION.titlePresent, parts.titles.present],
    [SECTION.metadataFields, encoder.encode(JSON.stringify(parts.metadata.fields))],
    [SECTION.pageStarts, u32Bytes(parts.pageStarts)],
    [SECTION.pageFlags, parts.pageFlags],
    [SECTION.surfaceBytes, parts.surfaces.bytes],
    [SECTION.surfaceOffsets, u32Bytes(parts.surfaces.offsets)],
    [SECTION.surfaceTerms, u32Bytes(parts.surfaces.terms)],
    [SECTION.fieldLengths, u32Bytes(parts.fieldLengths)],
    ...parts.metadata.sections.map((bytes, index) => [metadataSection(index), bytes] as const),
  ]);
  return { docCount: parts.meta.docCount, byteLength };
}

/** pages.starts: per-doc offsets, then every paged document's page start positions. */
function encodePageStarts(pageStarts: readonly (readonly number[] | null)[]): Uint32Array {
  const docs = pageStarts.length;
  let total = 0;
  for (const starts of pageStarts) total += starts?.length ?? 0;
  const out = new Uint32Array(docs + 1 + total);
  let at = docs + 1;
  for (let doc = 0; doc < docs; doc++) {
    out[doc] = at - (docs + 1);
    for (const start of pageStarts[doc] ?? []) out[at++] = start;
  }
  out[docs] = at - (docs + 1);
  return out;
}

/** pages.flags: each page's PAGE_FLAG bits, document after document. */
function encodePageFlags(docs: readonly IndexDocument[]): Uint8Array {
  const flags: number[] = [];
  for (const { text, pages } of docs) {
    if (pages === null || pages.length === 0) continue;
    for (const contents of contentsPages(text, pages.map((page) => page.offset))) flags.push(contents ? PAGE_FLAG.contents : 0);
  }
  return Uint8Array.from(flags);
}
