// Opens a segment file and gives the engine what it needs: term lookup, postings cursors, field
// lengths, statistics, caller ids and stored documents. Everything is read through zero-copy
// views of the file's read-only memory map; a damaged file raises storage's CorruptFileError
// naming it. The map is released when the reader (and every view from it) is unreachable.

import { CorruptFileError, mapSegmentFile } from '../../storage/index.ts';
import type { MapSegmentFileOptions, SegmentFile } from '../../storage/index.ts';
import type { IndexDocument } from '../document.ts';
import { DocIds } from './doc-ids.ts';
import { ImpactBoundCache } from './impact-bound-cache.ts';
import { lengthFloorPairs } from './length-floors.ts';
import type { ImpactBounds } from './impact-bound-cache.ts';
import { PostingsCursor } from './postings-cursor.ts';
import type { PostingsData } from './postings-cursor.ts';
import { OLDEST_READABLE_LAYOUT_VERSION, PAGE_FLAG, SECTION, SKIP_ENTRY_WORDS, SEGMENT_LAYOUT_VERSION, metadataSection, u32View } from './segment-format.ts';
import { contentsPages } from '../analysis/index.ts';
import { SurfaceForms } from './surface-forms.ts';
import { FieldIndex } from './field-index.ts';
import { StringColumn } from './string-column.ts';
import type { SegmentMeta } from './segment-format.ts';
import { StoredFieldsReader } from './stored-fields.ts';
import type { StoredRecord } from './stored-fields.ts';
import { TermDictionary } from './term-dictionary.ts';

/** Most cursors a reader keeps for reuse (and tracks between recycles). */
const MAX_TRACKED_CURSORS = 256;

export class SegmentReader {
  readonly path: string;
  readonly byteLength: number;
  readonly docCount: number;
  readonly layoutVersion: number;
  readonly sumTitleLength: number;
  readonly sumTextLength: number;
  readonly terms: TermDictionary;
  readonly titleLengths: Uint32Array;
  readonly textLengths: Uint32Array;
  /** The metadata fields whose words are indexed here, as their own terms (segment-format.ts fieldTerm). */
  readonly searchFields: readonly string[];
  private readonly searchFieldLengths = new Map<string, { lengths: Uint32Array; sum: number }>();
  private readonly postingsData: PostingsData;
  /** Blocks' and impact groups' best weighted frequencies, per weighting (made on first use). */
  private impactBoundCache: ImpactBoundCache | null = null;
  /** Per text lengths (the text's or a metadata field's), the docs' length floors (length-floors.ts), made on first use. */
  private readonly lengthFloorCache = new Map<Uint32Array, Uint16Array>();
  private readonly ids: DocIds;
  private readonly stored: StoredFieldsReader;
  private readonly titles: StringColumn;
  /** pages.starts as u32s (null in layout 3 segments), and whether any document has pages (layout 3: taken as none). */
  private readonly pageStartWords: Uint32Array | null;
  private readonly pageFlagBytes: Uint8Array | null;
  readonly hasPages: boolean;
  /** The words behind stemmed terms (null before layout 5). */
  readonly surfaces: SurfaceForms | null;
  private pagedDocs: number | undefined;
  private readonly fieldSections = new Map<string, string>();
  private readonly fieldIndexes = new Map<string, FieldIndex>();
  private readonly file: SegmentFile;
  /** Cursors free for reuse, and those handed out since the last `recycleCursors`. */
  private readonly freeCursors: PostingsCursor[] = [];
  private readonly lentCursors: PostingsCursor[] = [];

  private constructor(file: SegmentFile) {
    this.path = file.path;
    this.byteLength = file.byteLength;
    let meta: SegmentMeta;
    try {
      meta = JSON.parse(new TextDecoder().decode(file.section(SECTION.meta))) as SegmentMeta;
    } catch {
      throw new CorruptFileError(file.path, 'segment metadata is not valid JSON');
    }
    if (!(meta.layoutVersion >= OLDEST_READABLE_LAYOUT_VERSION && meta.layoutVersion <= SEGMENT_LAYOUT_VERSION)) {
      throw new CorruptFileError(file.path, `unsupported segment layout version ${meta.layoutVersion}`);
    }
    this.docCount = meta.docCount;
    this.layoutVersion = meta.layoutVersion;
    this.sumTitleLength = meta.sumTitleLength;
    this.sumTextLength = meta.sumTextLength;
    this.terms = new TermDictionary(file.section(SECTION.termBytes), file.section(SECTION.termOffsets), file.section(SECTION.termInfo));
    const lengths = u32View(file.section(SECTION.lengths));
    if (lengths.length !== meta.docCount * 2 || this.terms.size !== meta.termCount) {
      throw new CorruptFileError(file.path, 'section sizes do not match the segment metadata');
    }
    this.titleLengths = lengths.subarray(0, meta.docCount);
    this.textLengths = lengths.subarray(meta.docCount);
    this.searchFields = meta.searchFields ?? [];
    if (this.searchFields.length > 0) {
      const fieldLengths = file.has(SECTION.fieldLengths) ? u32View(file.section(SECTION.fieldLengths)) : new Uint32Array(0);
      if (fieldLengths.length !== meta.docCount * this.searchFields.length || meta.sumFieldLengths?.length !== this.searchFields.length) {
        throw new CorruptFileError(file.path, 'searchable field lengths do not match the segment metadata');
      }
      this.searchFields.forEach((field, f) => {
        this.searchFieldLengths.set(field, { lengths: fieldLengths.subarray(f * meta.docCount, (f + 1) * meta.docCount), sum: meta.sumFieldLengths![f] });
      });
    }
    const docs = file.section(SECTION.docs);
    this.postingsData = {
      docs,
      docsView: new DataView(docs.buffer, docs.byteOffset, docs.byteLength),
      positions: file.section(SECTION.positions),
      skips: u32View(file.section(SECTION.skips)),
      impacts: file.has(SECTION.impacts) ? file.section(SECTION.impacts) : null,
      impactOffsets: file.has(SECTION.impactOffsets) ? u32View(file.section(SECTION.impactOffsets)) : null,
      groupImpacts: file.has(SECTION.groupImpacts) ? file.section(SECTION.groupImpacts) : null,
      groupImpactOffsets: file.has(SECTION.groupImpactOffsets) ? u32View(file.section(SECTION.groupImpactOffsets)) : null,
    };
    this.ids = new DocIds(file.section(SECTION.idBytes), file.section(SECTION.idOffsets), file.section(SECTION.idOrder));
    this.stored = new StoredFieldsReader(file.section(SECTION.storedBlocks), file.section(SECTION.storedIndex));
    this.titles = new StringColumn(file.section(SECTION.titleBytes), file.section(SECTION.titleOffsets), file.section(SECTION.titlePresent));
    this.file = file;
    if (file.has(SECTION.pageStarts)) {
      const words = u32View(file.section(SECTION.pageStarts));
      if (words.length < meta.docCount + 1 || words.length !== meta.docCount + 1 + words[meta.docCount]) {
        throw new CorruptFileError(file.path, 'page starts do not match the segment metadata');
      }
      this.pageStartWords = words;
      this.hasPages = words[meta.docCount] > 0;
      this.pageFlagBytes = file.section(SECTION.pageFlags);
      if (this.pageFlagBytes.length !== words[meta.docCount]) throw new CorruptFileError(file.path, 'page flags do not match the page starts');
    } else {
      // Layout 3: knowing would take reading every stored record, so its documents are ranked
      // by pages only beside newer segments that have some, until a merge rewrites it.
      this.pageStartWords = null;
      this.pageFlagBytes = null;
      this.hasPages = false;
    }
    this.surfaces = file.has(SECTION.surfaceBytes)
      ? new SurfaceForms(file.section(SECTION.surfaceBytes), file.section(SECTION.surfaceOffsets), file.section(SECTION.surfaceTerms))
      : null;
    let fields: unknown;
    try {
      fields = JSON.parse(new TextDecoder().decode(file.section(SECTION.metadataFields)));
    } catch {
      throw new CorruptFileError(file.path, 'metadata field list is not valid JSON');
    }
    if (!Array.isArray(fields)) throw new CorruptFileError(file.path, 'metadata field list is not an array');
    fields.forEach((name, index) => this.fieldSections.set(String(name), metadataSection(index)));
  }

  /** Each document's length (words) in searchable metadata field `field`, or null when its words are not indexed here. */
  fieldLengths(field: string): Uint32Array | null {
    return this.searchFieldLengths.get(field)?.lengths ?? null;
  }

  /** The sum of `fieldLengths(field)` (0 when not indexed here). */
  sumFieldLength(field: string): number {
    return this.searchFieldLengths.get(field)?.sum ?? 0;
  }

  /** A section's bytes as stored (segment-format.ts), for a merge that copies them. */
  encodedSection(name: string): Uint8Array {
    return this.file.section(name);
  }

  /** The stored documents (a merge copies their compressed blocks). */
  storedFields(): StoredFieldsReader {
    return this.stored;
  }

  /** The names of the metadata fields some document here has. */
  fieldNames(): string[] {
    return [...this.fieldSections.keys()];
  }

  /** The metadata field `name` of this segment, or null when no document here has it. */
  field(name: string): FieldIndex | null {
    let index = this.fieldIndexes.get(name);
    if (index === undefined) {
      const section = this.fieldSections.get(name);
      if (section === undefined) return null;
      index = new FieldIndex(name, this.file.section(section));
      this.fieldIndexes.set(name, index);
    }
    return index;
  }

  /** The document's own title (not analyzed), or null. */
  title(doc: number): string | null {
    return this.titles.get(doc);
  }

  /** Maps the segment at `path`; the checksum is verified unless `verifyChecksum` is false. */
  static open(path: string, options: MapSegmentFileOptions = {}): SegmentReader {
    return new SegmentReader(mapSegmentFile(path, options));
  }

  /** The blocks' and impact groups' best weighted frequencies under the weighting named `key` (impact-bound-cache.ts). */
  impactBounds(key: string): ImpactBounds {
    this.impactBoundCache ??= new ImpactBoundCache(this.postingsData.skips.length / SKIP_ENTRY_WORDS, this.postingsData.groupImpactOffsets?.length ?? 0);
    return this.impactBoundCache.forWeighting(key);
  }

  /** The docs' title and `textLengths` floors (length-floors.ts), made on first use. */
  lengthFloors(textLengths: Uint32Array): Uint16Array {
    let pairs = this.lengthFloorCache.get(textLengths);
    if (pairs === undefined) {
      pairs = lengthFloorPairs(this.titleLengths, textLengths);
      this.lengthFloorCache.set(textLengths, pairs);
    }
    return pairs;
  }

  /**
   * A cursor over the postings of the term at `termIndex` (from `terms.find`), positioned
   * before its first doc. It may be a recycled one (see `recycleCursors`).
   */
  postings(termIndex: number): PostingsCursor {
    const firstSkip = this.terms.firstSkip(termIndex);
    const docFreq = this.terms.docFreq(termIndex);
    const firstGroup = this.terms.firstImpactGroup(termIndex);
    const recycled = this.freeCursors.pop();
    const cursor = recycled !== undefined ? recycled.reset(firstSkip, docFreq, firstGroup) : new PostingsCursor(this.postingsData, firstSkip, docFreq, firstGroup);
    // Only so many are tracked, so a caller that never recycles cannot grow the list.
    if (this.lentCursors.length < MAX_TRACKED_CURSORS) this.lentCursors.push(cursor);
    return cursor;
  }

  /**
   * Declares every cursor `postings` handed out since the last call unused, so later calls
   * reuse their block buffers instead of allocating new ones. Call it when the search that
   * used them is over, and never keep a cursor past that.
   */
  recycleCursors(): void {
    for (const cursor of this.lentCursors) if (this.freeCursors.length < MAX_TRACKED_CURSORS) this.freeCursors.push(cursor);
    this.lentCursors.length = 0;
  }

  /** Local doc number of the document with caller id `id`, or -1 (deleted docs included). */
  findDoc(id: string): number {
    return this.ids.find(id);
  }

  /** Doc numbers in ascending caller-id order. */
  docsByIdOrder(): Uint32Array {
    return this.ids.byIdOrder();
  }

  /** Per doc, its position in caller-id order. */
  idRanks(): Uint32Array {
    return this.ids.ranks();
  }

  /** Whether doc numbers follow caller-id order (a later doc has the greater id). */
  idsAscending(): boolean {
    return this.ids.idsAscending();
  }

  /** How many docs here have a caller id at or below that of `otherDoc` in `other`. */
  countIdsUpTo(other: SegmentReader, otherDoc: number): number {
    return this.ids.countIdsUpTo(other.ids, otherDoc);
  }

  /** Compares the caller ids of `doc` here and `otherDoc` in `other` without decoding them. */
  compareDocIds(doc: number, other: SegmentReader, otherDoc: number): number {
    return this.ids.compare(doc, other.ids, otherDoc);
  }

  docId(doc: number): string {
    return this.ids.id(doc);
  }

  document(doc: number): IndexDocument {
    return this.stored.read(doc).document;
  }

  storedRecord(doc: number): StoredRecord {
    return this.stored.read(doc);
  }

  /** Pages of all documents, and documents with pages (layout 3: none known). */
  get pageCount(): number {
    return this.pageStartWords === null ? 0 : this.pageStartWords[this.docCount];
  }

  get pagedDocCount(): number {
    if (this.pagedDocs === undefined) {
      let count = 0;
      const words = this.pageStartWords;
      if (words !== null) for (let doc = 0; doc < this.docCount; doc++) if (words[doc + 1] > words[doc]) count++;
      this.pagedDocs = count;
    }
    return this.pagedDocs;
  }

  /** Each page's PAGE_FLAG bits for `doc`, aligned with `pageStarts`, or null without pages. */
  pageFlags(doc: number): Uint8Array | null {
    const words = this.pageStartWords;
    if (words === null) {
      const { text, pages } = this.stored.read(doc).document;
      if (pages === null || pages.length === 0) return null;
      return Uint8Array.from(contentsPages(text, pages.map((page) => page.offset)), (contents) => (contents ? PAGE_FLAG.contents : 0));
    }
    const from = words[doc];
    const to = words[doc + 1];
    return to > from ? this.pageFlagBytes!.subarray(from, to) : null;
  }

  /** Position of each page's first token in `doc` (ascending), or null for a document without pages. */
  pageStarts(doc: number): Uint32Array | null {
    const words = this.pageStartWords;
    if (words === null) {
      const starts = this.stored.read(doc).pageStarts;
      return starts === null || starts.length === 0 ? null : Uint32Array.from(starts);
    }
    const base = this.docCount + 1;
    const from = words[doc];
    const to = words[doc + 1];
    return to > from ? words.subarray(base + from, base + to) : null;
  }

  /**
   * Drops the segment's mapped pages from this thread's resident set (they stay in the page
   * cache; reads still work, faulting them back). A merge calls it on its sources when done, so
   * memory does not hold every merged-away segment until the garbage collector unmaps it.
   */
  releaseResidentPages(): void {
    this.file.releaseResidentPages();
  }

  /**
   * Marks the reader as no longer used by its owner. The map itself is released by the garbage
   * collector once nothing references the reader or its views (the binding cannot unmap
   * eagerly), so owners drop their references after calling this.
   */
  close(): void {}
}
