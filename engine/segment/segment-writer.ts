// Builds an immutable segment file from a batch of documents: inverts them, encodes the term
// dictionary, postings with skip data and positions, field lengths, ids and stored fields, and
// writes everything durably through storage's segment-file container.

import { writeSegmentFile } from '../../storage/index.ts';
import type { Analyzer } from '../analysis/analyzer.ts';
import type { IndexDocument } from '../document.ts';
import { encodeDocIds } from './doc-ids.ts';
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

/** Writes `docs` (unique ids) as a new segment at `path`; durable when it returns. */
export function writeSegment(path: string, docs: readonly IndexDocument[], analyzer: Analyzer): SegmentWriteResult {
  const seen = new Set<string>();
  for (const doc of docs) {
    if (seen.has(doc.id)) throw new Error(`duplicate document id '${doc.id}' in one segment`);
    seen.add(doc.id);
  }
  const batch = invertDocuments(docs, analyzer);
  const order = termOrder(batch.terms);
  const { bytes: termBytes, offsets: termOffsets } = encodeTerms(batch.terms, order);

  const termIndex = new Uint32Array(order.length);
  order.forEach((id, index) => (termIndex[id] = index));
  const surfaces = encodeSurfaceForms(batch.rawTokens, batch.terms, termIndex, (word) => analyzer.stemFolded(word));

  const postings = new PostingsWriter(batch);
  const termInfo = new Uint32Array(order.length * TERM_INFO_WORDS);
  for (let index = 0; index < order.length; index++) {
    termInfo[index * TERM_INFO_WORDS + TermInfoField.firstSkip] = postings.skipEntries;
    termInfo[index * TERM_INFO_WORDS + TermInfoField.docFreq] = postings.add(order[index]);
  }

  const lengths = new Uint32Array(docs.length * 2);
  lengths.set(batch.titleLengths, 0);
  lengths.set(batch.textLengths, docs.length);

  const stored = new StoredFieldsWriter();
  docs.forEach((document, doc) => stored.add({ document, pageStarts: batch.pageStarts[doc] }));
  const storedBytes = stored.finish();
  const ids = encodeDocIds(docs.map((doc) => doc.id));
  const titles = encodeStringColumn(docs.map((doc) => doc.title));
  const metadata = encodeMetadata(docs.map((doc) => doc.metadata));

  const meta: SegmentMeta = {
    layoutVersion: SEGMENT_LAYOUT_VERSION,
    docCount: docs.length,
    termCount: order.length,
    sumTitleLength: batch.titleLengths.reduce((sum, n) => sum + n, 0),
    sumTextLength: batch.textLengths.reduce((sum, n) => sum + n, 0),
  };

  const byteLength = writeSegmentFile(path, [
    [SECTION.meta, encoder.encode(JSON.stringify(meta))],
    [SECTION.termBytes, termBytes],
    [SECTION.termOffsets, u32Bytes(termOffsets)],
    [SECTION.termInfo, u32Bytes(termInfo)],
    [SECTION.skips, postings.skipBytes()],
    [SECTION.docs, postings.docs.finish()],
    [SECTION.positions, postings.positionBytes()],
    [SECTION.lengths, u32Bytes(lengths)],
    [SECTION.idBytes, ids.bytes],
    [SECTION.idOffsets, ids.offsets],
    [SECTION.idOrder, ids.order],
    [SECTION.storedBlocks, storedBytes.blocks],
    [SECTION.storedIndex, storedBytes.index],
    [SECTION.titleBytes, titles.bytes],
    [SECTION.titleOffsets, titles.offsets],
    [SECTION.titlePresent, titles.present],
    [SECTION.metadataFields, encoder.encode(JSON.stringify(metadata.fields))],
    [SECTION.pageStarts, u32Bytes(encodePageStarts(batch.pageStarts))],
    [SECTION.pageFlags, encodePageFlags(docs)],
    [SECTION.surfaceBytes, surfaces.bytes],
    [SECTION.surfaceOffsets, u32Bytes(surfaces.offsets)],
    [SECTION.surfaceTerms, u32Bytes(surfaces.terms)],
    ...metadata.sections.map((bytes, index) => [metadataSection(index), bytes] as const),
  ]);
  return { docCount: docs.length, byteLength };
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
