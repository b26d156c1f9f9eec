// Inputs of the extraction benchmark, made at run time (nothing downloaded): running text
// (SciFact abstracts when ../shared/corpora/scifact is beside the checkout, else deterministic
// generated sentences), laid out as text-PDF pages or drawn as greyscale "scans" with
// @napi-rs/canvas in Liberation Sans (the copy pdfjs-dist ships, so no system font is needed),
// a greyscale PNG writer, and the word-accuracy measure for OCR and text extraction.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { readJsonlLines } from './jsonl-corpus.ts';
import { TEXT_LINES_PER_PAGE, winAnsiText } from './extraction-pdf-writer.ts';
import type { GreyImage } from './extraction-pdf-writer.ts';

export const SCIFACT_CORPUS = fileURLToPath(new URL('../../shared/corpora/scifact/corpus.jsonl', import.meta.url));
/** Abstracts read from SciFact: more than the default 200 text pages use. */
const SCIFACT_PARAGRAPHS = 2_000;
/** Characters per line of 10 pt Helvetica in a 6.5 in column (average glyph about 0.5 em). */
const TEXT_LINE_CHARS = 90;

const WORDS = (
  'the of and to in is that for on with as by at from this which be are was were it an or not have has ' +
  'results study patients cells protein expression analysis data model effect increased reduced level ' +
  'response treatment clinical observed significant associated between during after within across ' +
  'method measured sample group control function activity signal pathway tissue human mouse growth ' +
  'factor receptor binding structure region gene genome sequence mutation variant population risk ' +
  'disease therapy dose trial outcome follow survival rate higher lower than compared suggest show ' +
  'evidence mechanism role important novel specific early late acute chronic primary secondary ' +
  'system network process development regulation induced mediated dependent independent common'
).split(' ');

/** An endless supply of paragraphs, and where they come from. */
export interface ParagraphSource {
  source: string;
  next(): string;
}

/** SciFact abstracts in corpus order (cycled), else generated sentences from a fixed word list. */
export function paragraphSource(): ParagraphSource {
  if (existsSync(SCIFACT_CORPUS)) {
    const paragraphs = readJsonlLines(SCIFACT_CORPUS, SCIFACT_PARAGRAPHS)
      .map((line) => winAnsiText((JSON.parse(line) as { text: string }).text).trim())
      .filter((text) => text.length > 0);
    let i = 0;
    return { source: `SciFact abstracts (${SCIFACT_CORPUS})`, next: () => paragraphs[i++ % paragraphs.length] };
  }
  const random = seededRandom(6);
  const pick = (): string => WORDS[Math.floor(random() * WORDS.length)];
  const sentence = (): string => {
    const words = Array.from({ length: 8 + Math.floor(random() * 13) }, pick);
    return `${words[0][0].toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  return {
    source: 'generated sentences (SciFact not found)',
    next: () => Array.from({ length: 4 + Math.floor(random() * 4) }, sentence).join(' '),
  };
}

/** Breaks a paragraph into lines that `fits` accepts (a word too long for any line stands alone). */
export function wrapWords(paragraph: string, fits: (line: string) => boolean): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ').filter((w) => w !== '')) {
    const longer = line === '' ? word : `${line} ${word}`;
    if (line !== '' && !fits(longer)) {
      lines.push(line);
      line = word;
    } else line = longer;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * `pageCount` pages of `linesPerPage` lines: paragraphs one after the other, a blank line
 * between them, a paragraph running on to the next page where it does not fit.
 */
export function layOutPages(source: ParagraphSource, pageCount: number, linesPerPage: number, fits: (line: string) => boolean): string[][] {
  const pages: string[][] = [];
  let pending: string[] = [];
  while (pages.length < pageCount) {
    const page: string[] = [];
    while (page.length < linesPerPage) {
      if (pending.length === 0) {
        if (page.length > 0) page.push('');
        pending = wrapWords(source.next(), fits);
        if (page.length === linesPerPage) break;
      }
      page.push(pending.shift()!);
    }
    pages.push(page);
  }
  return pages;
}

/** Text-PDF pages: 10 pt Helvetica lines, as many as fit on a Letter page. */
export function textPdfPages(source: ParagraphSource, pageCount: number): string[][] {
  return layOutPages(source, pageCount, TEXT_LINES_PER_PAGE, (line) => line.length <= TEXT_LINE_CHARS);
}

export interface ScanLayout {
  dpi: number;
  /** Page size in points; one-inch side margins, half-inch top and bottom. */
  widthPt: number;
  heightPt: number;
  fontPt: number;
}

export interface ScannedPage {
  image: GreyImage;
  /** The lines drawn on it: what a perfect OCR would read. */
  lines: string[];
}

const SCAN_FONT = 'Liberation Sans';
let fontRegistered = false;

function registerScanFont(): void {
  if (fontRegistered) return;
  const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const file = join(pdfjsRoot, 'standard_fonts', 'LiberationSans-Regular.ttf');
  if (GlobalFonts.registerFromPath(file, SCAN_FONT) === null) throw new Error(`could not load the font ${file}`);
  fontRegistered = true;
}

/** `count` pages of text drawn black on white in greyscale, like a clean 8-bit scan. */
export function renderScans(source: ParagraphSource, count: number, layout: ScanLayout): ScannedPage[] {
  registerScanFont();
  const px = (points: number): number => Math.round((points * layout.dpi) / 72);
  const width = px(layout.widthPt);
  const height = px(layout.heightPt);
  const fontPx = px(layout.fontPt);
  const lineHeight = Math.round(fontPx * 1.35);
  const left = px(72);
  const top = px(36);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.font = `${fontPx}px "${SCAN_FONT}"`;
  context.textBaseline = 'top';
  const linesPerPage = Math.max(1, Math.floor((height - 2 * top) / lineHeight));
  const fits = (line: string): boolean => context.measureText(line).width <= width - 2 * left;
  return layOutPages(source, count, linesPerPage, fits).map((lines) => {
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.fillStyle = '#000000';
    lines.forEach((line, i) => context.fillText(line, left, top + i * lineHeight));
    const rgba = context.getImageData(0, 0, width, height).data;
    const pixels = new Uint8Array(width * height);
    for (let p = 0; p < pixels.length; p++) pixels[p] = rgba[p * 4]; // black on white: R = G = B
    return { image: { width, height, dpi: layout.dpi, pixels }, lines };
  });
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit greyscale PNG of `image`, its resolution recorded (pHYs) for OCR. */
export function greyPng(image: GreyImage): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 0, 0, 0, 0], 8); // bit depth 8, greyscale, deflate, adaptive filters, no interlace
  const physical = Buffer.alloc(9);
  const perMetre = Math.round(image.dpi / 0.0254);
  physical.writeUInt32BE(perMetre, 0);
  physical.writeUInt32BE(perMetre, 4);
  physical[8] = 1; // unit: metre
  const rows = Buffer.alloc((image.width + 1) * image.height); // filter type 0 on each row
  for (let y = 0; y < image.height; y++) rows.set(image.pixels.subarray(y * image.width, (y + 1) * image.width), y * (image.width + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('pHYs', physical),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Lower-cased runs of letters and digits, NFKC-normalised (the micro sign µ is the letter μ). */
export function wordsOf(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export interface WordAccuracy {
  /** Words on the pages. */
  known: number;
  /** Of those, how many the output has (counted as multisets: order and position ignored). */
  right: number;
}

/** How many of the known words `found` contains, each occurrence matched once. */
export function wordAccuracy(known: string, found: string): WordAccuracy {
  const counts = new Map<string, number>();
  for (const word of wordsOf(found)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const words = wordsOf(known);
  let right = 0;
  for (const word of words) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      right++;
      counts.set(word, left - 1);
    }
  }
  return { known: words.length, right };
}
