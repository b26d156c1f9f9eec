// A small PDF writer for the extraction benchmark's inputs (the TypeScript counterpart of
// fixtures/make-pdf-fixtures.py, cut to what the benchmark needs): text pages in the standard
// Helvetica Type1 font with WinAnsi encoding, one content stream per page, and scanned pages
// that only paint one greyscale image (/DeviceGray, 8 bits, /FlateDecode) over the whole page.

import { deflateSync } from 'node:zlib';

/** US Letter in PDF points. */
export const LETTER = { widthPt: 612, heightPt: 792 } as const;

/** A greyscale raster: one byte a pixel, rows top to bottom, scanned at `dpi`. */
export interface GreyImage {
  width: number;
  height: number;
  dpi: number;
  pixels: Uint8Array;
}

interface PageEntry {
  widthPt: number;
  heightPt: number;
  /** The rest of the page dictionary: /Resources and /Contents. */
  body: string;
}

/** Text page layout: 10 pt Helvetica on 12 pt leading inside one-inch margins. */
export const TEXT_FONT_PT = 10;
const TEXT_LEADING_PT = 12;
const MARGIN_PT = 72;
/** Lines of text that fit on a Letter page. */
export const TEXT_LINES_PER_PAGE = Math.floor((LETTER.heightPt - 2 * MARGIN_PT) / TEXT_LEADING_PT);

// WinAnsiEncoding: ASCII and Latin-1 map to themselves; these take the 0x80–0x9F codes.
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const WIN_ANSI_BYTES = new Map<string, number>([...WIN_ANSI_HIGH].map((char, i) => [char, 0x80 + i]));

function winAnsiByte(char: string): number | undefined {
  const code = char.codePointAt(0)!;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  const high = WIN_ANSI_BYTES.get(char);
  return high !== undefined && high !== 0x81 && high !== 0x8d && high !== 0x8f && high !== 0x90 && high !== 0x9d ? high : undefined;
}

/**
 * Text as WinAnsi can show it: accents split off letters WinAnsi lacks, other characters it
 * cannot show replaced by a space. Both the PDF and the benchmark's known words use this text.
 */
export function winAnsiText(text: string): string {
  let out = '';
  for (const char of text.replace(/\s+/g, ' ')) {
    if (winAnsiByte(char) !== undefined) {
      out += char;
      continue;
    }
    const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
    out += [...base].every((c) => winAnsiByte(c) !== undefined) && base !== '' ? base : ' ';
  }
  return out.replace(/ {2,}/g, ' ');
}

/** A literal PDF string in WinAnsi bytes, its delimiters escaped. */
function pdfString(text: string): Buffer {
  const bytes: number[] = [0x28];
  for (const char of text) {
    const byte = winAnsiByte(char) ?? 0x3f;
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) bytes.push(0x5c);
    bytes.push(byte);
  }
  bytes.push(0x29);
  return Buffer.from(bytes);
}

/** Assembles numbered objects into a PDF with its cross-reference table. */
class PdfBuilder {
  private readonly objects: (Buffer | null)[] = [];

  reserve(): number {
    this.objects.push(null);
    return this.objects.length;
  }

  set(number: number, body: string | Buffer): void {
    this.objects[number - 1] = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  }

  add(body: string | Buffer): number {
    const number = this.reserve();
    this.set(number, body);
    return number;
  }

  addStream(dictionary: string, data: Buffer): number {
    return this.add(Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]));
  }

  /** The Catalog and Pages objects over `pages`, then the whole file. */
  finish(pages: PageEntry[]): Buffer {
    const catalog = this.add('');
    const tree = this.reserve();
    const kids = pages.map((page) => this.add(`<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 ${page.widthPt} ${page.heightPt}] ${page.body} >>`));
    this.set(tree, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
    this.set(catalog, `<< /Type /Catalog /Pages ${tree} 0 R >>`);
    const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
    let length = parts[0].length;
    const offsets: number[] = [];
    this.objects.forEach((body, i) => {
      if (body === null) throw new Error(`PDF object ${i + 1} was reserved but never written`);
      const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
      offsets.push(length);
      parts.push(object);
      length += object.length;
    });
    const xref = [`xref\n0 ${this.objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
    parts.push(Buffer.from(`${xref}trailer\n<< /Size ${this.objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
    return Buffer.concat(parts);
  }
}

/** A PDF whose page i shows `pages[i]`, one line of text each (at most TEXT_LINES_PER_PAGE). */
export function textPdf(pages: readonly (readonly string[])[]): Buffer {
  const pdf = new PdfBuilder();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageDictionaries = pages.map((lines) => {
    const ops: Buffer[] = [Buffer.from(`BT\n/F1 ${TEXT_FONT_PT} Tf\n${TEXT_LEADING_PT} TL\n${MARGIN_PT} ${LETTER.heightPt - MARGIN_PT} Td\n`, 'latin1')];
    for (const line of lines) ops.push(pdfString(line), Buffer.from(' Tj T*\n', 'latin1'));
    ops.push(Buffer.from('ET', 'latin1'));
    const content = pdf.addStream('', Buffer.concat(ops));
    return { ...LETTER, body: `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R` };
  });
  return pdf.finish(pageDictionaries);
}

/** A PDF of scanned pages: each page only paints its image over the whole page (size from its dpi). */
export function scannedPdf(images: readonly GreyImage[]): Buffer {
  const pdf = new PdfBuilder();
  const pageDictionaries = images.map((image) => {
    const widthPt = round2((image.width * 72) / image.dpi);
    const heightPt = round2((image.height * 72) / image.dpi);
    const xobject = pdf.addStream(
      `/Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      deflateSync(image.pixels),
    );
    const content = pdf.addStream('', Buffer.from(`q ${widthPt} 0 0 ${heightPt} 0 0 cm /Im0 Do Q`, 'latin1'));
    return { widthPt, heightPt, body: `/Resources << /XObject << /Im0 ${xobject} 0 R >> >> /Contents ${content} 0 R` };
  });
  return pdf.finish(pageDictionaries);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
