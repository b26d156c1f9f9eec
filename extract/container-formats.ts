// Names the format of a ZIP or OLE2 container by what is inside it: the OOXML part folders,
// the ODF/EPUB `mimetype` entry, the stream names of Word/Excel/PowerPoint/Outlook files.
// Formats here may have no family yet; the registry then reports them unsupported.

import { readZipListing } from './zip/index.ts';

const ODF_MIME_TYPES: Record<string, string> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.graphics': 'odg',
  'application/epub+zip': 'epub',
};

/** OOXML and ODF variants (macro-enabled, templates) that keep their own name when named so. */
const ZIP_VARIANTS: Record<string, readonly string[]> = {
  docx: ['docm', 'dotx', 'dotm'],
  xlsx: ['xlsm', 'xltx', 'xltm'],
  pptx: ['pptm', 'potx', 'ppsx'],
  odt: ['ott'],
  ods: ['ots'],
  odp: ['otp'],
};

/** The format of a ZIP file: an office document, an e-book, or a plain `zip`. */
export function zipFormat(bytes: Uint8Array, extension: string | null): string {
  const listing = readZipListing(bytes);
  let found = 'zip';
  if (listing !== null) {
    const names = listing.names;
    const has = (prefix: string): boolean => names.some((n) => n.startsWith(prefix));
    const mime = listing.mimetype !== null ? ODF_MIME_TYPES[listing.mimetype] : undefined;
    if (mime !== undefined) found = mime;
    else if (names.includes('[Content_Types].xml') && has('word/')) found = 'docx';
    else if (names.includes('[Content_Types].xml') && has('xl/')) found = 'xlsx';
    else if (names.includes('[Content_Types].xml') && has('ppt/')) found = 'pptx';
    else if (names.includes('META-INF/container.xml') && names.some((n) => n.endsWith('.opf'))) found = 'epub';
    else if (names.includes('content.xml') && names.includes('META-INF/manifest.xml') && extension !== null && ['odt', 'ods', 'odp'].includes(extension)) {
      found = extension;
    }
  }
  if (extension !== null && ZIP_VARIANTS[found]?.includes(extension)) return extension;
  return found;
}

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) out[i * 2] = text.charCodeAt(i);
  return out;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first); i >= 0 && i <= haystack.length - needle.length; i = haystack.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

const OLE2_EXTENSIONS: Record<string, string> = {
  doc: 'doc', dot: 'doc', xls: 'xls', xlt: 'xls', ppt: 'ppt', pot: 'ppt', pps: 'ppt', msg: 'msg',
};

/** Directory entry names (UTF-16LE in the file) that identify an OLE2 document's application. */
const OLE2_STREAMS: ReadonlyArray<[Uint8Array, string]> = [
  [utf16le('__substg1.0_'), 'msg'], // first: a message may carry an attached Word file
  [utf16le('WordDocument'), 'doc'],
  [utf16le('Workbook'), 'xls'],
  [utf16le('PowerPoint Document'), 'ppt'],
  [utf16le('Book'), 'xls'],
];

/** The format of an OLE2 (Compound File) document: its extension if it names one, else its streams. */
export function ole2Format(bytes: Uint8Array, extension: string | null): string | null {
  if (extension !== null && OLE2_EXTENSIONS[extension] !== undefined) {
    const byExtension = OLE2_EXTENSIONS[extension];
    const stream = OLE2_STREAMS.find(([name]) => contains(bytes, name));
    // A stream that contradicts the extension wins (a .doc that is really a workbook).
    if (stream === undefined || stream[1] === byExtension) return extension;
    return stream[1];
  }
  const stream = OLE2_STREAMS.find(([name]) => contains(bytes, name));
  return stream !== undefined ? stream[1] : null;
}
