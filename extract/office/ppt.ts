// PowerPoint 97–2003 presentations (.ppt, .pps, .pot): the records of the compound file's
// `PowerPoint Document` stream ([MS-PPT]). Each slide becomes a page labelled `slide N`, in the
// presentation's order: the slide list of the document container names each slide's persist
// id, and the persist directory (reached from `Current User` through the chain of user edits)
// says where its container lies. A slide's text is the outline text the slide list keeps for it
// (where PowerPoint writes titles and bodies) and the text atoms inside the slide container
// (text boxes, and everything LibreOffice writes). Speaker notes and masters are left out, as
// for .pptx. A file whose persist directory cannot be followed is read in stream order. Every
// length and offset is checked, so a damaged or hostile file fails as `extraction_failed`.

import { ExtractionError } from '../extraction.ts';
import type { Extraction, ExtractedPage } from '../extraction.ts';
import { CompoundFile } from './compound-file.ts';
import { summaryTitle } from './ole-summary.ts';

const TYPE = {
  DOCUMENT: 0x03e8,
  SLIDE: 0x03ee,
  SLIDE_LIST_WITH_TEXT: 0x0ff0,
  SLIDE_PERSIST_ATOM: 0x03f3,
  TEXT_CHARS_ATOM: 0x0fa0,
  TEXT_BYTES_ATOM: 0x0fa8,
  USER_EDIT_ATOM: 0x0ff5,
  PERSIST_DIRECTORY_ATOM: 0x1772,
} as const;
const HEADER_BYTES = 8;
/** Edits followed back through the chain at most (a loop or a very long chain is damage). */
const MAX_EDITS = 4096;
/** Most slides read. */
const MAX_SLIDES = 10_000;

function damaged(reason: string): ExtractionError {
  return new ExtractionError('extraction_failed', `the PowerPoint file could not be read: ${reason}`);
}

interface RecordHeader {
  container: boolean;
  instance: number;
  type: number;
  /** Where the record's data starts, and ends. */
  start: number;
  end: number;
}

class Records {
  private readonly view: DataView;

  constructor(readonly stream: Uint8Array) {
    this.view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  }

  header(offset: number, limit = this.stream.length): RecordHeader {
    if (offset < 0 || offset + HEADER_BYTES > limit) throw damaged(`a record at byte ${offset} lies outside its container`);
    const versionAndInstance = this.view.getUint16(offset, true);
    const length = this.view.getUint32(offset + 4, true);
    const end = offset + HEADER_BYTES + length;
    if (end > limit) throw damaged(`a record at byte ${offset} runs past its container`);
    return { container: (versionAndInstance & 0x0f) === 0x0f, instance: versionAndInstance >> 4, type: this.view.getUint16(offset + 2, true), start: offset + HEADER_BYTES, end };
  }

  /** The records directly inside [start, end). */
  *children(start: number, end: number): Generator<RecordHeader> {
    for (let offset = start; offset + HEADER_BYTES <= end; ) {
      const record = this.header(offset, end);
      yield record;
      offset = record.end;
    }
  }

  u32(offset: number): number {
    if (offset + 4 > this.stream.length) throw damaged(`a field at byte ${offset} is past the end of the stream`);
    return this.view.getUint32(offset, true);
  }

  /** The text of a text atom, else null. */
  text(record: RecordHeader): string | null {
    const bytes = this.stream.subarray(record.start, record.end);
    if (record.type === TYPE.TEXT_CHARS_ATOM) return new TextDecoder('utf-16le').decode(bytes.subarray(0, bytes.length & ~1));
    if (record.type === TYPE.TEXT_BYTES_ATOM) return new TextDecoder('windows-1252').decode(bytes);
    return null;
  }

  /** Every text atom inside a record, depth first, iteratively (no recursion on hostile nesting). */
  texts(record: RecordHeader): string[] {
    const found: string[] = [];
    const stack: RecordHeader[] = [record];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (!current.container) {
        const text = this.text(current);
        if (text !== null && text.trim() !== '') found.push(text);
        continue;
      }
      const children = [...this.children(current.start, current.end)];
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
    return found;
  }
}

/** persist id → offset of its object in the stream, newest edit first; null when unreadable. */
function persistDirectory(records: Records, currentUser: Uint8Array | null): { offsets: Map<number, number>; documentId: number } | null {
  if (currentUser === null || currentUser.length < 20) return null;
  let editOffset = new DataView(currentUser.buffer, currentUser.byteOffset, currentUser.byteLength).getUint32(16, true);
  const offsets = new Map<number, number>();
  let documentId = -1;
  const seen = new Set<number>();
  for (let edits = 0; editOffset !== 0; edits++) {
    if (edits >= MAX_EDITS || seen.has(editOffset)) throw damaged('the chain of edits loops');
    seen.add(editOffset);
    const edit = records.header(editOffset);
    if (edit.type !== TYPE.USER_EDIT_ATOM || edit.end - edit.start < 20) return null;
    if (documentId < 0) documentId = records.u32(edit.start + 16);
    const directory = records.header(records.u32(edit.start + 12));
    if (directory.type !== TYPE.PERSIST_DIRECTORY_ATOM) return null;
    for (let at = directory.start; at + 4 <= directory.end; ) {
      const entry = records.u32(at);
      const first = entry & 0xfffff;
      const count = entry >>> 20;
      at += 4;
      if (at + count * 4 > directory.end) throw damaged('the persist directory runs past its record');
      for (let i = 0; i < count; i++, at += 4) if (!offsets.has(first + i)) offsets.set(first + i, records.u32(at));
    }
    editOffset = records.u32(edit.start + 8);
  }
  return documentId < 0 ? null : { offsets, documentId };
}

/** Slides in presentation order: each its container (when found) and its slide-list text. */
function slidesInOrder(records: Records, directory: { offsets: Map<number, number>; documentId: number }): { container: RecordHeader | null; outline: string[] }[] | null {
  const documentOffset = directory.offsets.get(directory.documentId);
  if (documentOffset === undefined) return null;
  const document = records.header(documentOffset);
  if (document.type !== TYPE.DOCUMENT) return null;
  const slides: { container: RecordHeader | null; outline: string[] }[] = [];
  for (const list of records.children(document.start, document.end)) {
    // Instance 0 lists the slides (1 the masters, 2 the notes).
    if (list.type !== TYPE.SLIDE_LIST_WITH_TEXT || list.instance !== 0 || !list.container) continue;
    for (const child of records.children(list.start, list.end)) {
      if (child.type === TYPE.SLIDE_PERSIST_ATOM) {
        if (slides.length >= MAX_SLIDES) break;
        const offset = directory.offsets.get(records.u32(child.start));
        const container = offset === undefined ? null : records.header(offset);
        slides.push({ container: container?.type === TYPE.SLIDE ? container : null, outline: [] });
      } else {
        const text = records.text(child);
        if (text !== null && text.trim() !== '' && slides.length > 0) slides[slides.length - 1].outline.push(text);
      }
    }
  }
  return slides.length === 0 ? null : slides;
}

function pageText(parts: string[]): string {
  // PowerPoint ends paragraphs with a carriage return; a vertical tab breaks a line.
  return [...new Set(parts)].join('\n').replace(/[\r\v]/g, '\n').trim();
}

export function extractPpt(bytes: Uint8Array, format: string): Extraction {
  const file = CompoundFile.open(bytes);
  const stream = file.stream('PowerPoint Document');
  if (stream === null) throw damaged('it has no PowerPoint Document stream');
  const records = new Records(stream);
  let texts: string[][];
  const directory = persistDirectory(records, file.stream('Current User'));
  const ordered = directory === null ? null : slidesInOrder(records, directory);
  if (ordered !== null) {
    texts = ordered.map((slide) => [...slide.outline, ...(slide.container === null ? [] : records.texts(slide.container))]);
  } else {
    // No usable persist directory: the slide containers in the order they are stored.
    texts = [];
    for (const record of records.children(0, stream.length)) {
      if (record.type === TYPE.SLIDE && texts.length < MAX_SLIDES) texts.push(records.texts(record));
    }
  }
  if (texts.length === 0) throw damaged('the presentation has no slides');
  const pages: ExtractedPage[] = texts.map((parts, index) => ({ number: index + 1, label: `slide ${index + 1}`, text: pageText(parts) }));
  return { format, title: summaryTitle(file), pages };
}
