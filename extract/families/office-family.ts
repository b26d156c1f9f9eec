// Office documents and e-books: Word (docx, docm, dotx, and the legacy binary doc, dot), Excel
// (xlsx, xlsm, and the legacy binary xls, xlt), PowerPoint (pptx, pptm, and the legacy binary
// ppt, pps, pot), OpenDocument text/spreadsheet/presentation, zipped and
// flat, and EPUB.
// The readers live in extract/office/; this file maps format names to them.

import type { Extraction, ExtractionOptions, FormatFamily, FormatInfo } from '../extraction.ts';
import { extractWordDocument } from '../office/docx.ts';
import { extractEpub } from '../office/epub.ts';
import { extractFlatOpenDocument, extractOpenDocument } from '../office/odf.ts';
import { extractPresentation } from '../office/pptx.ts';
import { extractWord97 } from '../office/word97.ts';
import { extractXls } from '../office/xls.ts';
import { extractPpt } from '../office/ppt.ts';
import { extractWorkbook } from '../office/xlsx.ts';
import { decodePart, OfficePackage } from '../office/office-package.ts';

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

const FORMATS: FormatInfo[] = [
  { extension: 'docx', mime: `${OOXML}.wordprocessingml.document`, kind: 'office' },
  { extension: 'docm', mime: 'application/vnd.ms-word.document.macroEnabled.12', kind: 'office' },
  { extension: 'dotx', mime: `${OOXML}.wordprocessingml.template`, kind: 'office' },
  { extension: 'doc', mime: 'application/msword', kind: 'office' },
  { extension: 'dot', mime: 'application/msword', kind: 'office' },
  { extension: 'xls', mime: 'application/vnd.ms-excel', kind: 'office' },
  { extension: 'xlt', mime: 'application/vnd.ms-excel', kind: 'office' },
  { extension: 'xlsx', mime: `${OOXML}.spreadsheetml.sheet`, kind: 'office' },
  { extension: 'xlsm', mime: 'application/vnd.ms-excel.sheet.macroEnabled.12', kind: 'office' },
  { extension: 'ppt', mime: 'application/vnd.ms-powerpoint', kind: 'office' },
  { extension: 'pps', mime: 'application/vnd.ms-powerpoint', kind: 'office' },
  { extension: 'pot', mime: 'application/vnd.ms-powerpoint', kind: 'office' },
  { extension: 'pptx', mime: `${OOXML}.presentationml.presentation`, kind: 'office' },
  { extension: 'pptm', mime: 'application/vnd.ms-powerpoint.presentation.macroEnabled.12', kind: 'office' },
  { extension: 'odt', mime: `${ODF}.text`, kind: 'office' },
  { extension: 'ods', mime: `${ODF}.spreadsheet`, kind: 'office' },
  { extension: 'odp', mime: `${ODF}.presentation`, kind: 'office' },
  { extension: 'fodt', mime: `${ODF}.text-flat-xml`, kind: 'office' },
  { extension: 'fods', mime: `${ODF}.spreadsheet-flat-xml`, kind: 'office' },
  { extension: 'fodp', mime: `${ODF}.presentation-flat-xml`, kind: 'office' },
  { extension: 'epub', mime: 'application/epub+zip', kind: 'ebook' },
];

type ZipReader = (zip: OfficePackage, format: string) => Promise<Extraction>;

const ZIP_READERS: Record<string, ZipReader> = {
  docx: extractWordDocument,
  docm: extractWordDocument,
  dotx: extractWordDocument,
  xlsx: extractWorkbook,
  xlsm: extractWorkbook,
  pptx: extractPresentation,
  pptm: extractPresentation,
  odt: extractOpenDocument,
  ods: extractOpenDocument,
  odp: extractOpenDocument,
  epub: extractEpub,
};

const FLAT = new Set(['fodt', 'fods', 'fodp']);
/** Word 97–2003 binary documents and templates (OLE2 compound files). */
const WORD97 = new Set(['doc', 'dot']);
/** Excel and PowerPoint 97–2003 binary files (OLE2 compound files). */
const EXCEL97 = new Set(['xls', 'xlt']);
const POWERPOINT97 = new Set(['ppt', 'pps', 'pot']);

export const officeFamily: FormatFamily = {
  kind: 'office',
  formats: FORMATS,
  async extract(bytes: Uint8Array, format: string, limits: ExtractionOptions): Promise<Extraction> {
    if (FLAT.has(format)) return extractFlatOpenDocument(decodePart(bytes), format);
    if (WORD97.has(format)) return extractWord97(bytes, format);
    if (EXCEL97.has(format)) return extractXls(bytes, format);
    if (POWERPOINT97.has(format)) return extractPpt(bytes, format);
    const reader = ZIP_READERS[format];
    if (reader === undefined) throw new Error(`the office family does not read ${format}`);
    return reader(OfficePackage.open(bytes, limits), format);
  },
};
