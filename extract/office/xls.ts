// Excel 97–2003 workbooks (.xls, .xlt): the BIFF8 records of the compound file's `Workbook`
// stream ([MS-XLS]). Each worksheet becomes a page labelled with its name, its cells in row
// order, a row a line and cells separated by tabs: text from the shared string table (SST,
// whose strings run on across CONTINUE records), inline labels, numbers (NUMBER, RK, MULRK)
// and formula results (cached numbers and STRING records); the title from the summary
// properties. Every length is checked against
// the record it lies in, so a damaged or hostile file fails as `extraction_failed`.

import { ExtractionError } from '../extraction.ts';
import type { Extraction, ExtractedPage } from '../extraction.ts';
import { CompoundFile } from './compound-file.ts';
import { summaryTitle } from './ole-summary.ts';

const RECORD = {
  BOF: 0x0809,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  FORMULA: 0x0006,
  STRING: 0x0207,
  BOOLERR: 0x0205,
} as const;

/** Cells kept per sheet: past this many, a sheet's further cells are not read. */
const MAX_CELLS_PER_SHEET = 1_000_000;

function damaged(reason: string): ExtractionError {
  return new ExtractionError('extraction_failed', `the Excel file could not be read: ${reason}`);
}

interface Record {
  type: number;
  offset: number;
  data: Uint8Array;
}

/** The records from `offset` on, each with its data (checked to lie inside the stream). */
function* records(stream: Uint8Array, offset: number): Generator<Record> {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  while (offset + 4 <= stream.length) {
    const type = view.getUint16(offset, true);
    const length = view.getUint16(offset + 2, true);
    if (offset + 4 + length > stream.length) throw damaged(`a record at byte ${offset} runs past the end of the stream`);
    yield { type, offset, data: stream.subarray(offset + 4, offset + 4 + length) };
    offset += 4 + length;
  }
}

/** Reads strings that may run on from one record's data into the next CONTINUE's. */
class SegmentedReader {
  private segment = 0;
  private at = 0;

  constructor(private readonly segments: readonly Uint8Array[]) {}

  private current(): Uint8Array {
    while (this.segment < this.segments.length && this.at >= this.segments[this.segment].length) {
      this.segment++;
      this.at = 0;
    }
    if (this.segment >= this.segments.length) throw damaged('the shared string table ends in the middle of a string');
    return this.segments[this.segment];
  }

  u8(): number {
    return this.current()[this.at++];
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  skip(bytes: number): void {
    for (let left = bytes; left > 0; ) {
      const segment = this.current();
      const take = Math.min(left, segment.length - this.at);
      this.at += take;
      left -= take;
    }
  }

  /** `count` characters; a string that runs on into a CONTINUE record restates its width there. */
  chars(count: number, highByte: boolean): string {
    let text = '';
    let wide = highByte;
    let left = count;
    while (left > 0) {
      let segment = this.current();
      if (this.at === 0 && text.length > 0) {
        // Continued into a new record: its first byte says the width of what follows.
        wide = (segment[this.at++] & 0x01) !== 0;
        segment = this.current();
      }
      const width = wide ? 2 : 1;
      const fits = Math.min(left, Math.floor((segment.length - this.at) / width));
      if (fits === 0) throw damaged('a string is cut inside a character');
      const bytes = segment.subarray(this.at, this.at + fits * width);
      text += wide ? new TextDecoder('utf-16le').decode(bytes) : latin1(bytes);
      this.at += fits * width;
      left -= fits;
    }
    return text;
  }
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

/** XLUnicodeRichExtendedString, as in the SST. */
function sstString(reader: SegmentedReader): string {
  const count = reader.u16();
  const flags = reader.u8();
  const runs = flags & 0x08 ? reader.u16() : 0;
  const extended = flags & 0x04 ? reader.u32() : 0;
  const text = reader.chars(count, (flags & 0x01) !== 0);
  reader.skip(runs * 4 + extended);
  return text;
}

/** XLUnicodeString (LABEL, STRING): u16 count, flags, characters, inside one record. */
function unicodeString(data: Uint8Array, at: number): string {
  if (at + 3 > data.length) throw damaged('a string record is too short');
  const count = data[at] | (data[at + 1] << 8);
  const wide = (data[at + 2] & 0x01) !== 0;
  const end = at + 3 + count * (wide ? 2 : 1);
  if (end > data.length) throw damaged('a string runs past its record');
  const bytes = data.subarray(at + 3, end);
  return wide ? new TextDecoder('utf-16le').decode(bytes) : latin1(bytes);
}

/** ShortXLUnicodeString (sheet names): u8 count, flags, characters. */
function shortString(data: Uint8Array, at: number): string {
  if (at + 2 > data.length) throw damaged('a sheet name is cut off');
  const count = data[at];
  const wide = (data[at + 1] & 0x01) !== 0;
  const end = at + 2 + count * (wide ? 2 : 1);
  if (end > data.length) throw damaged('a sheet name runs past its record');
  const bytes = data.subarray(at + 2, end);
  return wide ? new TextDecoder('utf-16le').decode(bytes) : latin1(bytes);
}

/** An RK number: a 30-bit integer or the high bits of a double, perhaps × 100. */
function rkValue(rk: number): number {
  let value: number;
  if (rk & 0x02) {
    value = rk >> 2;
  } else {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(4, rk & 0xfffffffc, true);
    value = view.getFloat64(0, true);
  }
  return rk & 0x01 ? value / 100 : value;
}

function numberText(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 1e10) / 1e10) : '';
}

interface Sheet {
  name: string;
  offset: number;
}

/** The workbook's sheets, the shared strings, and whether it is encrypted. */
function readGlobals(stream: Uint8Array): { sheets: Sheet[]; strings: string[] } {
  const sheets: Sheet[] = [];
  let strings: string[] = [];
  let sstSegments: Uint8Array[] | null = null;
  let first = true;
  for (const record of records(stream, 0)) {
    if (first) {
      if (record.type !== RECORD.BOF || record.data.length < 2 || (record.data[0] | (record.data[1] << 8)) !== 0x0600) {
        throw damaged('the workbook is not in the Excel 97–2003 (BIFF8) format');
      }
      first = false;
      continue;
    }
    if (sstSegments !== null && record.type !== RECORD.CONTINUE) {
      strings = readSst(sstSegments);
      sstSegments = null;
    }
    switch (record.type) {
      case RECORD.FILEPASS:
        throw damaged('the workbook is protected by a password');
      case RECORD.BOUNDSHEET: {
        if (record.data.length < 8) throw damaged('a sheet record is too short');
        const view = new DataView(record.data.buffer, record.data.byteOffset, record.data.byteLength);
        // Worksheets only (type 0); charts and macro sheets hold no cells to read.
        if (record.data[5] === 0) sheets.push({ offset: view.getUint32(0, true), name: shortString(record.data, 6) });
        break;
      }
      case RECORD.SST:
        sstSegments = [record.data];
        break;
      case RECORD.CONTINUE:
        sstSegments?.push(record.data);
        break;
      case RECORD.EOF:
        if (sstSegments !== null) strings = readSst(sstSegments);
        return { sheets, strings };
    }
  }
  throw damaged('the workbook globals have no end');
}

function readSst(segments: Uint8Array[]): string[] {
  const reader = new SegmentedReader(segments);
  reader.u32(); // total references
  const unique = reader.u32();
  // Each string takes at least 3 bytes: a count the records cannot hold is damage, not a reason to allocate.
  const available = segments.reduce((sum, segment) => sum + segment.length, 0);
  if (unique * 3 > available) throw damaged(`the shared string table claims ${unique} strings in ${available} bytes`);
  const strings: string[] = [];
  for (let i = 0; i < unique; i++) strings.push(sstString(reader));
  return strings;
}

/** One worksheet's cells as text: rows in order, cells by column, tab-separated. */
function readSheet(stream: Uint8Array, sheet: Sheet, strings: string[]): string {
  if (sheet.offset >= stream.length) throw damaged(`sheet "${sheet.name}" starts past the end of the stream`);
  const cells: { row: number; col: number; text: string }[] = [];
  let pendingFormula: { row: number; col: number } | null = null;
  const add = (row: number, col: number, text: string): void => {
    if (text !== '' && cells.length < MAX_CELLS_PER_SHEET) cells.push({ row, col, text });
  };
  let first = true;
  for (const record of records(stream, sheet.offset)) {
    if (first) {
      if (record.type !== RECORD.BOF) throw damaged(`sheet "${sheet.name}" does not start with a BOF record`);
      first = false;
      continue;
    }
    const { data } = record;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const cell = (minimum: number): { row: number; col: number } => {
      if (data.length < minimum) throw damaged(`a cell record of sheet "${sheet.name}" is too short`);
      return { row: view.getUint16(0, true), col: view.getUint16(2, true) };
    };
    switch (record.type) {
      case RECORD.EOF:
        return cellsText(cells);
      case RECORD.LABELSST: {
        const { row, col } = cell(10);
        const index = view.getUint32(6, true);
        if (index >= strings.length) throw damaged(`a cell refers to shared string ${index} of ${strings.length}`);
        add(row, col, strings[index]);
        break;
      }
      case RECORD.LABEL: {
        const { row, col } = cell(9);
        add(row, col, unicodeString(data, 6));
        break;
      }
      case RECORD.NUMBER: {
        const { row, col } = cell(14);
        add(row, col, numberText(view.getFloat64(6, true)));
        break;
      }
      case RECORD.RK: {
        const { row, col } = cell(10);
        add(row, col, numberText(rkValue(view.getUint32(6, true))));
        break;
      }
      case RECORD.MULRK: {
        const { row, col } = cell(6);
        const count = Math.floor((data.length - 6) / 6);
        for (let i = 0; i < count; i++) add(row, col + i, numberText(rkValue(view.getUint32(4 + i * 6 + 2, true))));
        break;
      }
      case RECORD.FORMULA: {
        const { row, col } = cell(20);
        // A result whose last two bytes are 0xFFFF is not a number: type 0 is a string that
        // follows in a STRING record; booleans and errors are left out.
        if (view.getUint16(12, true) === 0xffff) {
          if (data[6] === 0) pendingFormula = { row, col };
        } else {
          add(row, col, numberText(view.getFloat64(6, true)));
        }
        break;
      }
      case RECORD.STRING:
        if (pendingFormula !== null) add(pendingFormula.row, pendingFormula.col, unicodeString(data, 0));
        pendingFormula = null;
        break;
    }
  }
  throw damaged(`sheet "${sheet.name}" has no end`);
}

function cellsText(cells: { row: number; col: number; text: string }[]): string {
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  const lines: string[] = [];
  let row = -1;
  let line: string[] = [];
  for (const cell of cells) {
    if (cell.row !== row) {
      if (line.length > 0) lines.push(line.join('\t'));
      line = [];
      row = cell.row;
    }
    line.push(cell.text.replace(/[\t\r\n]+/g, ' '));
  }
  if (line.length > 0) lines.push(line.join('\t'));
  return lines.join('\n');
}

export function extractXls(bytes: Uint8Array, format: string): Extraction {
  const file = CompoundFile.open(bytes);
  const stream = file.stream('Workbook') ?? file.stream('Book');
  if (stream === null) throw damaged('it has no Workbook stream');
  const { sheets, strings } = readGlobals(stream);
  const pages: ExtractedPage[] = sheets.map((sheet, index) => ({ number: index + 1, label: sheet.name, text: readSheet(stream, sheet, strings) }));
  if (pages.length === 0) throw damaged('the workbook has no worksheets');
  return { format, title: summaryTitle(file), pages };
}
