// Office documents and e-books: Word (docx, docm, dotx, and the legacy binary doc, dot), Excel
// (xlsx, xlsm, and the legacy binary xls, xlt), PowerPoint (pptx, pptm, and the legacy binary
// ppt, pps, pot), OpenDocument text/spreadsheet/presentation, zipped and
// flat, and EPUB.
// The readers live in extract/office/; this file maps format names to them.

import type { Extraction, ExtractionOptions, FormatFamily, FormatInfo } from '../extraction.ts';
import { formatsOf } from './format-rows.ts';
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
  ...formatsOf('office', [
    [`${OOXML}.wordprocessingml.document`, 'docx'],
    ['application/vnd.ms-word.document.macroEnabled.12', 'docm'],
    [`${OOXML}.wordprocessingml.template`, 'dotx'],
    ['application/msword', 'doc', 'dot'],
    ['application/vnd.ms-excel', 'xls', 'xlt'],
    [`${OOXML}.spreadsheetml.sheet`, 'xlsx'],
    ['application/vnd.ms-excel.sheet.macroEnabled.12', 'xlsm'],
    ['application/vnd.ms-powerpoint', 'ppt', 'pps', 'pot'],
    [`${OOXML}.presentationml.presentation`, 'pptx'],
    ['application/vnd.ms-powerpoint.presentation.macroEnabled.12', 'pptm'],
    [`${ODF}.text`, 'odt'],
    [`${ODF}.spreadsheet`, 'ods'],
    [`${ODF}.presentation`, 'odp'],
    [`${ODF}.text-flat-xml`, 'fodt'],
    [`${ODF}.spreadsheet-flat-xml`, 'fods'],
    [`${ODF}.presentation-flat-xml`, 'fodp'],
  ]),
  ...formatsOf('ebook', [
    ['application/epub+zip', 'epub'],
  ]),
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
