// The layout of a segment file: section names, fixed record widths and position rules shared
// by the segment writer and reader. Bump SEGMENT_LAYOUT_VERSION on any change.
//
// Sections (inside storage's segment-file container):
//   meta             JSON: counts and length sums (SegmentMeta)
//   terms.bytes      UTF-8 bytes of every term, sorted in code-point (= UTF-8 byte) order
//   terms.offsets    u32 × (terms + 1): where each term starts in terms.bytes
//   terms.info       u32 × 4 per term: docFreq, first skip entry, first impact group (layout 6), (reserved)
//   postings.skips   u32 × SKIP_ENTRY_WORDS per block of BLOCK_SIZE docs (see SkipField)
//   postings.docs    per block: full blocks bit-packed (doc gaps, title tf, text tf), the last
//                    partial block as varints
//   postings.positions  per doc of each term: its positions, delta-coded varints
//   postings.impacts (layout 6) per skip entry, the block's competitive impacts: u8 count, then
//                    count × varint (titleTf, titleLength, textTf, textLength), the docs of the
//                    block that no other doc of it beats on every one of the four (impacts.ts);
//                    the best score of any doc of the block is the best of these
//   postings.impactOffsets  (layout 6) u32 per skip entry: where its impacts start
//   postings.groupImpacts / postings.groupImpactOffsets  (layout 6) the same for each group of
//                    IMPACT_GROUP_BLOCKS consecutive blocks of a term with that many blocks or
//                    more (the last group may be shorter): the impacts of all their docs, so a
//                    search skips a group's blocks with one bound; terms.info word 2 is the
//                    term's first group
//   fields.lengths   u32 × docs title lengths, then u32 × docs text lengths (in tokens)
//   ids.bytes / ids.offsets / ids.order   caller ids in doc order, and doc numbers by id
//   stored.blocks / stored.index           compressed blocks of stored documents (stored-record.ts):
//                    LZ4 from layout 7, deflate before; each block says which (stored-codec.ts)
//   titles.bytes / titles.offsets / titles.present   document titles by doc (for sorting)
//   metadata.fields  JSON: the metadata field names; field i is in section `metadata.<i>`
//                    (value dictionary, docs by value, ordinals by doc: metadata-writer.ts)
//   pages.starts     (layout 4) u32 × (docs + 1) offsets, then the position of each page's
//                    first token, doc after doc: doc d's pages are starts[off[d], off[d + 1])
//                    (none for a document without pages); so ranking reads a document's page
//                    boundaries without inflating its stored block
//   pages.flags      (layout 4) u8 per page, in the order of pages.starts: PAGE_FLAG bits
//   surface.bytes / surface.offsets / surface.terms   (layout 5) the folded words whose term
//                    differs from them, sorted, each with its term's index (surface-forms.ts)
//   fields.metadata  u32 × docs per searchable metadata field (meta.searchFields, in order):
//                    each doc's length in that field; the field's words are terms of their own
//                    (fieldTerm below). Absent when no metadata field is searchable.

export const SEGMENT_LAYOUT_VERSION = 7;
/**
 * Layout 3 lacks pages.starts and pages.flags: page boundaries are read from the stored
 * records. Layouts 3 and 4 lack the surface sections: prefixes match terms only. Layouts 3–5
 * lack the impacts: a block's best score is bounded by its skip entry's extremes (looser), and
 * the next merge writes them. Layouts 3–6 deflate every stored block; a merge copies them as
 * they are into a layout-7 segment beside its LZ4 blocks (a release before layout 7 refuses it).
 */
export const OLDEST_READABLE_LAYOUT_VERSION = 3;

export const SECTION = {
  meta: 'meta',
  termBytes: 'terms.bytes',
  termOffsets: 'terms.offsets',
  termInfo: 'terms.info',
  skips: 'postings.skips',
  docs: 'postings.docs',
  positions: 'postings.positions',
  impacts: 'postings.impacts',
  impactOffsets: 'postings.impactOffsets',
  groupImpacts: 'postings.groupImpacts',
  groupImpactOffsets: 'postings.groupImpactOffsets',
  lengths: 'fields.lengths',
  idBytes: 'ids.bytes',
  idOffsets: 'ids.offsets',
  idOrder: 'ids.order',
  storedBlocks: 'stored.blocks',
  storedIndex: 'stored.index',
  titleBytes: 'titles.bytes',
  titleOffsets: 'titles.offsets',
  titlePresent: 'titles.present',
  metadataFields: 'metadata.fields',
  pageStarts: 'pages.starts',
  pageFlags: 'pages.flags',
  surfaceBytes: 'surface.bytes',
  surfaceOffsets: 'surface.offsets',
  surfaceTerms: 'surface.terms',
  fieldLengths: 'fields.metadata',
} as const;

/** Bits of a page's entry in pages.flags. */
export const PAGE_FLAG = {
  /** The page looks like a table of contents (engine/analysis/contents-page.ts). */
  contents: 1,
} as const;

/** The section of the metadata field at `index` in metadata.fields. */
export function metadataSection(index: number): string {
  return `metadata.${index}`;
}

/** u32 words per term in terms.info. */
export const TERM_INFO_WORDS = 4;
export const TermInfoField = { docFreq: 0, firstSkip: 1, firstImpactGroup: 2 } as const;

/** Blocks per impact group (postings.groupImpacts); a term has groups when it has this many blocks. */
export const IMPACT_GROUP_BLOCKS = 8;

/** u32 words per skip entry in postings.skips: one entry per block of a term's postings. */
export const SKIP_ENTRY_WORDS = 7;
export const SkipField = {
  /** Last doc number in the block. */
  lastDoc: 0,
  /** Byte offset of the block in postings.docs. */
  docsOffset: 1,
  /** Byte offset of the block's first position in postings.positions. */
  positionsOffset: 2,
  /** Largest title term frequency in the block (for block-max score bounds). */
  maxTitleTf: 3,
  maxTextTf: 4,
  /** Shortest title / text length among the block's docs (for score bounds). */
  minTitleLength: 5,
  minTextLength: 6,
} as const;

/**
 * Title tokens take positions 0…T-1; text tokens start at T + TITLE_TEXT_GAP, so a phrase
 * never spans the two fields and a position < T is a title position.
 */
export const TITLE_TEXT_GAP = 1;

/**
 * Target raw size of a stored-fields block before compression. A hit decompresses its whole
 * block: with deflate on GCIDE in process, 16 KiB gave 1,673 searches/s and 48.0 MiB, 4 KiB
 * 2,057/s and 50.6 MiB, 2 KiB 1,791/s and 53.0 MiB. LZ4 (layout 7) reads an 8 KiB block in less
 * time than deflate a 4 KiB one, and compresses it better than a 4 KiB one (1.34 against 1.26
 * on the synthetic corpus).
 */
export const STORED_BLOCK_BYTES = 8 * 1024;

export interface SegmentMeta {
  layoutVersion: number;
  docCount: number;
  termCount: number;
  sumTitleLength: number;
  sumTextLength: number;
  /** The metadata fields whose words are indexed here (absent: none), in fields.metadata's order. */
  searchFields?: string[];
  /** Per field of searchFields, the sum of its lengths. */
  sumFieldLengths?: number[];
}

/** The offset past `count` LEB128 varints of `bytes` from `offset` (positions are skipped, not decoded). */
export function skipVarints(bytes: Uint8Array, offset: number, count: number): number {
  while (count > 0) if (bytes[offset++] < 0x80) count--;
  return offset;
}

/** Views a section as u32s without copying when it is 4-byte aligned (sections are 8-aligned). */
export function u32View(bytes: Uint8Array): Uint32Array {
  if (bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  return new Uint32Array(bytes.slice().buffer);
}

/** u32 array → bytes (little-endian platforms, which is every platform Node supports here). */
export function u32Bytes(values: Uint32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/**
 * The words of a searchable metadata field are terms of their own: `\u0001<field>\u0001<word>`.
 * Analysed words never hold U+0001, so they never meet a plain term, and they sort before every
 * plain term. Their tf is written as a text tf; their lengths are the field's (fields.metadata).
 */
const FIELD_TERM_MARK = '\u0001';

/** The term of `word` in metadata field `field`. */
export function fieldTerm(field: string, word: string): string {
  return `${FIELD_TERM_MARK}${field}${FIELD_TERM_MARK}${word}`;
}

/** What every term of metadata field `field` starts with. */
export function fieldTermPrefix(field: string): string {
  return `${FIELD_TERM_MARK}${field}${FIELD_TERM_MARK}`;
}

/** Whether `term` is a metadata field's term (not a word of title or text). */
export function isFieldTerm(term: string): boolean {
  return term.charCodeAt(0) === 1;
}

/**
 * Positions a phrase skips between two values of a multi-valued field (`["Ada Lovelace",
 * "Charles Babbage"]`), so no phrase spans two values (Elasticsearch's position_increment_gap).
 */
export const FIELD_VALUE_GAP = 1;
