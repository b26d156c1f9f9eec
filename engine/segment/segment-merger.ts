// Merges segments that have no deleted documents by combining what they already encode, not by
// analyzing their documents again: the sorted term dictionaries are merged (k-way, over their
// UTF-8 bytes), each merged term's postings are the sources' postings one after the other with
// doc numbers shifted, a decoded source block at a time (its docs' positions copied as encoded
// bytes, in one copy), stored blocks are copied compressed,
// and lengths, ids, titles, page sections and surface words are concatenated or merged. The
// result is the segment writeSegment would build from the same documents in the same order
// (every section byte for byte but the stored blocks' boundaries), at a fraction of the cost:
// a bulk import's merges are most of its indexing work otherwise. It streams: postings spill to
// files beside the output as they are written (postings-writer.ts), and stored blocks, ids and
// titles are written from the sources' bytes, so memory holds per-doc arrays (lengths, id order,
// offsets) and metadata values, not the segment — however large it is.

import { ByteWriter, newArray } from '../../storage/index.ts';
import type { SegmentReader } from './segment-reader.ts';
import { MetadataEncoder } from './metadata-writer.ts';
import { PostingsWriter, SPILL_BYTES } from './postings-writer.ts';
import { SECTION, SEGMENT_LAYOUT_VERSION, SKIP_ENTRY_WORDS, TERM_INFO_WORDS, TermInfoField, u32Bytes, u32View } from './segment-format.ts';
import { concatLengths, writeSegmentParts } from './segment-writer.ts';
import type { SegmentWriteResult } from './segment-writer.ts';
import { concatStoredFields } from './stored-fields.ts';
import { U32List } from './u32-list.ts';

/**
 * The oldest layout merged from what it encodes: layout 5 has every section but the impacts,
 * which the merge derives from the postings it copies (so layout 5 segments are rewritten as 6).
 */
const OLDEST_ENCODED_MERGE_LAYOUT = 5;

/**
 * Whether `mergeEncodedSegments` can merge these into a segment searching `searchFields`: a
 * layout it reads, no deleted documents, and those metadata fields' words indexed in each.
 */
export function canMergeEncoded(sources: readonly { reader: SegmentReader; deleted: { size: number } | null }[], searchFields: readonly string[] = []): boolean {
  return sources.every(
    ({ reader, deleted }) =>
      reader.layoutVersion >= OLDEST_ENCODED_MERGE_LAYOUT && (deleted?.size ?? 0) === 0 && sameFields(reader.searchFields, searchFields),
  );
}

function sameFields(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((field, i) => field === b[i]);
}

const decoder = new TextDecoder();

/** The metadata field of term `index` of `source` when it is a field's term (segment-format.ts fieldTerm), else null. */
function fieldOfTerm(source: SortedStrings, index: number): string | null {
  const start = source.offsets[index];
  if (source.bytes[start] !== 1) return null;
  const end = source.bytes.indexOf(1, start + 1);
  return decoder.decode(source.bytes.subarray(start + 1, end));
}

/** Sorted UTF-8 strings back to back (a term dictionary, the surface words) of one source. */
interface SortedStrings {
  bytes: Uint8Array;
  offsets: Uint32Array;
  size: number;
}

function sortedStrings(reader: SegmentReader, bytesSection: string, offsetsSection: string): SortedStrings {
  const offsets = u32View(reader.encodedSection(offsetsSection));
  return { bytes: reader.encodedSection(bytesSection), offsets, size: offsets.length - 1 };
}

/** Byte order of string `i` of `a` against string `j` of `b`. */
function compareStrings(a: SortedStrings, i: number, b: SortedStrings, j: number): number {
  const aStart = a.offsets[i];
  const aLength = a.offsets[i + 1] - aStart;
  const bStart = b.offsets[j];
  const bLength = b.offsets[j + 1] - bStart;
  const length = Math.min(aLength, bLength);
  for (let k = 0; k < length; k++) {
    const diff = a.bytes[aStart + k] - b.bytes[bStart + k];
    if (diff !== 0) return diff;
  }
  return aLength - bLength;
}

/**
 * Walks the union of sorted string lists in order. For each distinct string, `visit` gets the
 * list holding it first (its bytes are copied from there) and, in `holders`, every list that
 * holds it with the string's index in that list (holders[s] = -1: list s lacks it).
 */
function mergeSorted(sources: readonly SortedStrings[], visit: (first: number, holders: Int32Array) => void): void {
  const at = new Uint32Array(sources.length);
  const holders = new Int32Array(sources.length);
  // Each list's current string's first four bytes as a number (-1: the list is done): most
  // comparisons end there, without reading the strings.
  const heads = new Float64Array(sources.length);
  for (let s = 0; s < sources.length; s++) heads[s] = headKey(sources[s], 0);
  for (;;) {
    let smallest = -1;
    for (let s = 0; s < sources.length; s++) {
      const head = heads[s];
      if (head < 0) continue;
      if (smallest < 0 || head < heads[smallest] || (head === heads[smallest] && compareStrings(sources[s], at[s], sources[smallest], at[smallest]) < 0)) smallest = s;
    }
    if (smallest < 0) return;
    const head = heads[smallest];
    for (let s = 0; s < sources.length; s++) {
      const here = s === smallest || (heads[s] === head && compareStrings(sources[s], at[s], sources[smallest], at[smallest]) === 0);
      holders[s] = here ? at[s] : -1;
    }
    visit(smallest, holders);
    for (let s = 0; s < sources.length; s++) {
      if (holders[s] >= 0) heads[s] = headKey(sources[s], ++at[s]);
    }
  }
}

/**
 * String `index` of `source`'s first four bytes, big-endian and zero-padded, as a number: two
 * strings whose keys differ order as their keys do (equal keys say nothing); -1 past the last
 * string.
 */
function headKey(source: SortedStrings, index: number): number {
  if (index >= source.size) return -1;
  const start = source.offsets[index];
  const length = source.offsets[index + 1] - start;
  const bytes = source.bytes;
  let key = 0;
  for (let k = 0; k < 4; k++) key = key * 256 + (k < length ? bytes[start + k] : 0);
  return key;
}

/** Copies string `index` of `source` to the end of `out` and records where it ends. */
function copyString(source: SortedStrings, index: number, out: ByteWriter, offsets: U32List): void {
  out.writeBytes(source.bytes.subarray(source.offsets[index], source.offsets[index + 1]));
  offsets.push(out.length);
}

/**
 * Writes the merge of `readers` (in this order; none with deleted documents) at `path`; durable
 * when it returns. Postings past `spillBytes` a section wait in files beside it meanwhile.
 */
export function mergeEncodedSegments(path: string, readers: readonly SegmentReader[], spillBytes = SPILL_BYTES): SegmentWriteResult {
  const bases = new Uint32Array(readers.length);
  let docCount = 0;
  readers.forEach((reader, s) => {
    bases[s] = docCount;
    docCount += reader.docCount;
  });

  // Lengths: every title length, then every text length.
  const lengths = newArray(Uint32Array, docCount * 2);
  readers.forEach((reader, s) => {
    lengths.set(reader.titleLengths, bases[s]);
    lengths.set(reader.textLengths, docCount + bases[s]);
  });

  // The searchable metadata fields' lengths, by field (every source indexes the same fields).
  const searchFields = readers[0]?.searchFields ?? [];
  const fieldLengths = new Map<string, Uint32Array>();
  for (const field of searchFields) {
    const merged = newArray(Uint32Array, docCount);
    readers.forEach((reader, s) => merged.set(reader.fieldLengths(field)!, bases[s]));
    fieldLengths.set(field, merged);
  }

  // Buffers sized as the sources' sections, up to what a spilling writer holds before it spills.
  const sectionBytes = (name: string): number => readers.reduce((sum, reader) => sum + reader.encodedSection(name).length, 0);
  const postings = new PostingsWriter(null, {
    docsBytes: Math.min(sectionBytes(SECTION.docs), spillBytes) + 65_536,
    positionBytes: Math.min(sectionBytes(SECTION.positions), spillBytes),
    skipEntries: Math.min(sectionBytes(SECTION.skips), spillBytes) / (4 * SKIP_ENTRY_WORDS),
  });
  postings.spillTo(path, spillBytes);
  try {
    return writeMerged(path, readers, bases, docCount, lengths, fieldLengths, postings);
  } finally {
    postings.removeSpill();
  }
}

/** The rest of mergeEncodedSegments, with its postings writer spilling beside `path`. */
function writeMerged(
  path: string,
  readers: readonly SegmentReader[],
  bases: Uint32Array,
  docCount: number,
  lengths: Uint32Array,
  fieldLengths: Map<string, Uint32Array>,
  postings: PostingsWriter,
): SegmentWriteResult {
  const searchFields = readers[0]?.searchFields ?? [];
  // Terms and their postings, in byte order; mergedIndex[s][t]: where term t of source s went.
  const termSources = readers.map((reader) => sortedStrings(reader, SECTION.termBytes, SECTION.termOffsets));
  const mergedIndex = readers.map((reader) => newArray(Uint32Array, reader.terms.size));
  const termBytes = new ByteWriter(1 << 16);
  const termOffsets = new U32List(1 << 12);
  termOffsets.push(0);
  const termInfo = new U32List(1 << 14);
  const info = new Uint32Array(TERM_INFO_WORDS);
  const positionData = readers.map((reader) => reader.encodedSection(SECTION.positions));
  let termCount = 0;
  mergeSorted(termSources, (first, holders) => {
    copyString(termSources[first], holders[first], termBytes, termOffsets);
    const field = fieldOfTerm(termSources[first], holders[first]);
    // A field's term counts its occurrences as text ones, against the field's lengths.
    const textLengths = field === null ? lengths.subarray(docCount) : fieldLengths.get(field)!;
    const firstSkip = postings.skipEntries;
    const firstImpactGroup = postings.impactGroups;
    postings.startTerm();
    for (let s = 0; s < readers.length; s++) {
      const local = holders[s];
      if (local < 0) continue;
      mergedIndex[s][local] = termCount;
      const reader = readers[s];
      const base = bases[s];
      const cursor = reader.postings(local);
      for (let block = 0; block < cursor.blockCount; block++) {
        const count = cursor.loadWholeBlock(block);
        postings.appendBlock(base, cursor.blockDocs, cursor.blockTitleTfs(), cursor.blockTextTfs(), count, lengths, textLengths, positionData[s], cursor.positionsFrom, cursor.positionsTo);
      }
      reader.recycleCursors();
    }
    info.fill(0);
    info[TermInfoField.docFreq] = postings.finishTerm();
    info[TermInfoField.firstSkip] = firstSkip;
    info[TermInfoField.firstImpactGroup] = firstImpactGroup;
    for (const word of info) termInfo.push(word);
    termCount++;
  });

  // Surface words: merged like terms, each pointing at its term's merged index.
  const surfaceSources = readers.map((reader) => sortedStrings(reader, SECTION.surfaceBytes, SECTION.surfaceOffsets));
  const surfaceTermsOf = readers.map((reader) => u32View(reader.encodedSection(SECTION.surfaceTerms)));
  const surfaceBytes = new ByteWriter(1 << 12);
  const surfaceOffsets = new U32List(1 << 10);
  surfaceOffsets.push(0);
  const surfaceTerms = new U32List(1 << 10);
  mergeSorted(surfaceSources, (first, holders) => {
    copyString(surfaceSources[first], holders[first], surfaceBytes, surfaceOffsets);
    surfaceTerms.push(mergedIndex[first][surfaceTermsOf[first][holders[first]]]);
  });

  // Pages: per-doc offsets into the page starts, then the starts; flags one after the other.
  let pageCount = 0;
  for (const reader of readers) pageCount += u32View(reader.encodedSection(SECTION.pageStarts))[reader.docCount];
  const pageStarts = newArray(Uint32Array, docCount + 1 + pageCount);
  const pageFlags = newArray(Uint8Array, pageCount);
  let pagesBefore = 0;
  readers.forEach((reader, s) => {
    const words = u32View(reader.encodedSection(SECTION.pageStarts));
    const pages = words[reader.docCount];
    for (let doc = 0; doc < reader.docCount; doc++) pageStarts[bases[s] + doc] = pagesBefore + words[doc];
    pageStarts.set(words.subarray(reader.docCount + 1, reader.docCount + 1 + pages), docCount + 1 + pagesBefore);
    pageFlags.set(reader.encodedSection(SECTION.pageFlags), pagesBefore);
    pagesBefore += pages;
  });
  pageStarts[docCount] = pagesBefore;

  // Metadata values read back from the fields.
  const metadata = new MetadataEncoder();
  readers.forEach((reader, s) => {
    for (const name of reader.fieldNames()) {
      const field = reader.field(name)!;
      const values = metadata.field(name);
      for (let doc = 0; doc < reader.docCount; doc++) {
        for (let at = field.docStarts[doc]; at < field.docStarts[doc + 1]; at++) values.add(bases[s] + doc, field.value(field.docOrds[at]));
      }
    }
  });

  let sumTitleLength = 0;
  let sumTextLength = 0;
  for (const reader of readers) {
    sumTitleLength += reader.sumTitleLength;
    sumTextLength += reader.sumTextLength;
  }
  const sumFieldLengths = searchFields.map((field) => readers.reduce((sum, reader) => sum + reader.sumFieldLength(field), 0));
  return writeSegmentParts(path, {
    meta: {
      layoutVersion: SEGMENT_LAYOUT_VERSION,
      docCount,
      termCount,
      sumTitleLength,
      sumTextLength,
      ...(searchFields.length > 0 && { searchFields: [...searchFields], sumFieldLengths }),
    },
    termBytes: termBytes.finish(),
    termOffsets: termOffsets.view(),
    termInfo: termInfo.view(),
    postings,
    lengths,
    ids: mergeDocIds(readers, docCount),
    stored: concatStoredFields(readers.map((reader) => reader.storedFields())),
    titles: concatTitles(readers, docCount),
    metadata: metadata.finish(docCount),
    pageStarts,
    pageFlags,
    surfaces: { bytes: surfaceBytes.finish(), offsets: surfaceOffsets.view(), terms: surfaceTerms.view() },
    fieldLengths: concatLengths([...fieldLengths.values()]),
  });
}

/**
 * Strings of the sources one after the other (ids, titles: UTF-8 bytes back to back and u32 ×
 * (docs + 1) offsets): the bytes as views of the sources, the offsets shifted.
 */
function concatStrings(readers: readonly SegmentReader[], docCount: number, bytesSection: string, offsetsSection: string): { bytes: Uint8Array[]; offsets: Uint32Array } {
  const bytes: Uint8Array[] = [];
  const offsets = newArray(Uint32Array, docCount + 1);
  let doc = 0;
  let byteBase = 0;
  for (const reader of readers) {
    const own = u32View(reader.encodedSection(offsetsSection));
    for (let i = 0; i < reader.docCount; i++) offsets[doc++] = byteBase + own[i];
    const end = own[reader.docCount];
    bytes.push(reader.encodedSection(bytesSection).subarray(0, end));
    byteBase += end;
  }
  offsets[docCount] = byteBase;
  return { bytes, offsets };
}

/** The merged ids: the sources' bytes, and the doc numbers in id order merged from theirs (ids are unique across sources). */
function mergeDocIds(readers: readonly SegmentReader[], docCount: number): { bytes: Uint8Array[]; offsets: Uint8Array; order: Uint8Array } {
  const { bytes, offsets } = concatStrings(readers, docCount, SECTION.idBytes, SECTION.idOffsets);
  const orders = readers.map((reader) => reader.docsByIdOrder());
  const bases = new Uint32Array(readers.length);
  for (let s = 1; s < readers.length; s++) bases[s] = bases[s - 1] + readers[s - 1].docCount;
  const at = new Uint32Array(readers.length);
  const order = newArray(Uint32Array, docCount);
  for (let rank = 0; rank < docCount; rank++) {
    let best = -1;
    for (let s = 0; s < readers.length; s++) {
      if (at[s] >= orders[s].length) continue;
      if (best < 0 || readers[s].compareDocIds(orders[s][at[s]], readers[best], orders[best][at[best]]) < 0) best = s;
    }
    order[rank] = bases[best] + orders[best][at[best]++];
  }
  return { bytes, offsets: u32Bytes(offsets), order: u32Bytes(order) };
}

/** The merged titles: the sources' bytes and presence bytes one after the other. */
function concatTitles(readers: readonly SegmentReader[], docCount: number): { bytes: Uint8Array[]; offsets: Uint8Array; present: Uint8Array } {
  const { bytes, offsets } = concatStrings(readers, docCount, SECTION.titleBytes, SECTION.titleOffsets);
  const present = newArray(Uint8Array, docCount);
  let doc = 0;
  for (const reader of readers) {
    present.set(reader.encodedSection(SECTION.titlePresent).subarray(0, reader.docCount), doc);
    doc += reader.docCount;
  }
  return { bytes, offsets: u32Bytes(offsets), present };
}
