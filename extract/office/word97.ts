// Legacy Word documents (Word 97–2003 binary `.doc`, and `.dot` templates): the body text,
// then text boxes, footnotes, endnotes, headers and footers, as one page; the title from the
// document's summary properties (`\x05SummaryInformation`). word-extractor (pure JS) reads
// the text, always from a Buffer. Before it runs, the OLE2 container (compound-file.ts), the
// Word header (FIB) and the piece table are checked here, so a damaged, encrypted or non-Word
// file fails as extraction_failed with a clear message instead of looping or exhausting
// memory. word-extractor 1.0.4 prints "undefined" for the soft hyphen and for the bytes
// 0x80–0x9f cp1252 leaves unmapped (among them €, 0x80) in 8-bit text: those characters are
// rewritten in a copy of the file first (the soft hyphen dropped, € kept via a placeholder).

import WordExtractor from 'word-extractor';
import { ExtractionError, type Extraction } from '../extraction.ts';
import { tidyText } from '../text-formats/tidy.ts';
import { CompoundFile, isCompoundFile } from './compound-file.ts';
import { summaryTitle } from './ole-summary.ts';

/** The FIB fields word-extractor reads end with fcClx/lcbClx at 0x1a2–0x1a9. */
const FIB_BYTES = 0x1aa;
const WORD_IDENT = 0xa5ec;
/** nFib of Word 97 is 0xC1 (some writers put 0xC0); Word 6.0 and Word 95 write 101–105. */
const FIRST_WORD97_NFIB = 0xc0;
const F_ENCRYPTED = 0x0100;
const F_WHICH_TABLE = 0x0200;
/** A character no Word text contains, standing in for € through word-extractor. */
const EURO_PLACEHOLDER = 0x10;
/** 8-bit text bytes word-extractor maps to "undefined": € becomes the placeholder, the rest go. */
const EIGHT_BIT_FIXES = new Map<number, number>([
  [0x80, EURO_PLACEHOLDER],
  [0x81, 0], [0x8d, 0], [0x8f, 0], [0x90, 0], [0x9d, 0],
  [0x1f, 0], // soft hyphen
  [EURO_PLACEHOLDER, 0],
]);
/** UTF-16 text characters to blank: the soft hyphen, and the placeholder's own code. */
const UNICODE_FIXES = new Set([0x1f, EURO_PLACEHOLDER]);

function failed(message: string): ExtractionError {
  return new ExtractionError('extraction_failed', message);
}

/** A piece of the document's text: a byte range of the WordDocument stream. */
interface Piece {
  start: number;
  end: number;
  unicode: boolean;
}

interface Inspection {
  file: CompoundFile;
  pieces: Piece[];
}

/** Buffer#subarray's reading of (start, end) over `length` bytes: negatives count from the end. */
function clampRange(length: number, start: number, end: number): [number, number] {
  const at = (n: number): number => (n < 0 ? Math.max(length + n, 0) : Math.min(n, length));
  const from = at(start);
  return [from, Math.max(from, at(end))];
}

/**
 * The pieces of text as word-extractor will slice them (the same walk of the CLX in the table
 * stream), refusing a piece table that lies outside its stream or adds up to more text than
 * the WordDocument stream holds (pieces of real documents do not overlap).
 */
function readPieces(word: Uint8Array, table: Uint8Array, fcClx: number): Piece[] {
  const damaged = (why: string): ExtractionError => failed(`the Word document's piece table is damaged: ${why}`);
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  let pos = fcClx;
  for (;;) {
    if (pos >= table.length) throw damaged('it lies outside the table stream');
    if (table[pos] !== 1) break;
    if (pos + 3 > table.length) throw damaged('it lies outside the table stream');
    pos += 3 + view.getUint16(pos + 1, true);
  }
  if (table[pos] !== 2) throw damaged('no piece table where the header says');
  if (pos + 5 > table.length) throw damaged('it lies outside the table stream');
  const size = view.getUint32(pos + 1, true);
  pos += 5;
  const count = (size - 4) / 12;
  if (!Number.isInteger(count) || count < 1) throw damaged(`bad size (${size} bytes)`);
  if (pos + size > table.length) throw damaged('it runs past the end of the table stream');
  const pieces: Piece[] = [];
  let total = 0;
  for (let x = 0; x < count; x++) {
    let fc = view.getUint32(pos + (count + 1) * 4 + x * 8 + 2, true);
    const unicode = (fc & 0x40000000) === 0;
    // The same arithmetic as word-extractor, including its signed 32-bit results.
    if (!unicode) fc = Math.floor((fc & ~0x40000000) / 2);
    const cps = view.getUint32(pos + (x + 1) * 4, true) - view.getUint32(pos + x * 4, true);
    const [start, end] = clampRange(word.length, fc, fc + (unicode ? 2 : 1) * cps);
    total += end - start;
    if (total > word.length) throw damaged('its pieces add up to more text than the document holds');
    pieces.push({ start, end, unicode });
  }
  return pieces;
}

/** Checks the container, the Word header and the piece table word-extractor will follow. */
function inspect(bytes: Uint8Array): Inspection {
  if (!isCompoundFile(bytes)) throw failed('the file is not a Word 97–2003 document: it is not an OLE2 compound file');
  const file = CompoundFile.open(bytes);
  const word = file.stream('WordDocument');
  if (word === null) throw failed('the file is an OLE2 compound file but not a Word document (no WordDocument stream)');
  if (word.length < FIB_BYTES) throw failed('the Word document is damaged: its header (FIB) is truncated');
  const view = new DataView(word.buffer, word.byteOffset, word.byteLength);
  const ident = view.getUint16(0, true);
  if (ident !== WORD_IDENT) throw failed(`the file is not a Word 97–2003 document (header signature 0x${ident.toString(16)})`);
  const nFib = view.getUint16(2, true);
  if (nFib < FIRST_WORD97_NFIB) {
    throw failed(`the file is a Word 6.0/95 document (FIB version ${nFib}); only Word 97–2003 documents are read`);
  }
  const flags = view.getUint16(0x0a, true);
  if ((flags & F_ENCRYPTED) !== 0) throw failed('the Word document is password-protected (encrypted)');
  const tableName = (flags & F_WHICH_TABLE) !== 0 ? '1Table' : '0Table';
  const table = file.stream(tableName);
  if (table === null) throw failed(`the Word document is damaged: it has no ${tableName} stream`);
  return { file, pieces: readPieces(word, table, view.getUint32(0x1a2, true)) };
}

/** A copy of the file with the characters word-extractor mistranslates rewritten, or null when there are none. */
function fixText(bytes: Uint8Array, { file, pieces }: Inspection): Uint8Array | null {
  const word = file.stream('WordDocument')!;
  const changes: Array<[number, number]> = [];
  for (const { start, end, unicode } of pieces) {
    if (unicode) {
      for (let at = start; at + 1 < end; at += 2) {
        if (word[at + 1] === 0 && UNICODE_FIXES.has(word[at])) changes.push([at, 0]);
      }
    } else {
      for (let at = start; at < end; at++) {
        const fix = EIGHT_BIT_FIXES.get(word[at]);
        if (fix !== undefined) changes.push([at, fix]);
      }
    }
  }
  if (changes.length === 0) return null;
  const locate = file.fileOffsets('WordDocument')!;
  const copy = new Uint8Array(bytes);
  for (const [at, value] of changes) {
    const offset = locate(at);
    if (offset >= 0) copy[offset] = value;
  }
  return copy;
}

/** The text word-extractor found, in reading order, tidied. */
function documentText(document: WordExtractor.Document): string {
  const raw = { filterUnicode: false };
  const parts = [
    document.getBody(raw),
    document.getTextboxes({ ...raw, includeHeadersAndFooters: false }),
    document.getFootnotes(raw),
    document.getEndnotes(raw),
    document.getHeaders({ ...raw, includeFooters: false }),
    document.getFooters(raw),
    document.getTextboxes({ ...raw, includeBody: false }),
  ];
  const text = parts
    .join('\n\n')
    .replaceAll(String.fromCharCode(EURO_PLACEHOLDER), '€')
    .replaceAll('\u001e', '-') // non-breaking hyphen
    .replace(/[\u0000-\u0008\u000b-\u001f]/g, '');
  return tidyText(text);
}

export async function extractWord97(bytes: Uint8Array, format: string): Promise<Extraction> {
  const inspection = inspect(bytes);
  const title = summaryTitle(inspection.file);
  let input = fixText(bytes, inspection);
  // A rewritten copy is checked again: a hostile file could have its streams share sectors.
  if (input !== null) inspect(input);
  input ??= bytes;
  let document: WordExtractor.Document;
  try {
    document = await new WordExtractor().extract(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw failed(`the Word document cannot be read: ${reason}`);
  }
  return { format, title, pages: [{ number: 1, label: null, text: documentText(document) }] };
}
