// OCR of PDF pages that have no text layer (scans): such a page is rendered with pdf.js onto an
// @napi-rs/canvas canvas at 300 dpi (fewer when the page is large), turned into a greyscale
// PGM and read by tesseract.js (extract/ocr/). Only pages that paint an image are read: a page
// with neither text nor image is blank, and OCR would only cost time.

import type { OcrOptions } from '../extraction.ts';
import { recognizeImage } from '../ocr/tesseract-worker.ts';
import { tidyOcrText } from '../ocr/tidy-ocr-text.ts';
import type { PdfPage } from './pdfjs.ts';
import { pdfOps } from './pdfjs.ts';

/** Resolution pages are rendered at for OCR: what tesseract reads best at. */
const OCR_DPI = 300;
/** Most pixels one rendered page may have (about a US Letter page at 300 dpi). */
const MAX_PAGE_PIXELS = 9_000_000;
/** PDF user-space units per inch. */
const POINTS_PER_INCH = 72;

/** The operators that paint a raster image onto a page. */
function imageOperators(ops: Record<string, number>): Set<number> {
  return new Set(
    [
      'paintImageXObject',
      'paintImageXObjectRepeat',
      'paintInlineImageXObject',
      'paintInlineImageXObjectGroup',
      'paintImageMaskXObject',
      'paintImageMaskXObjectGroup',
      'paintImageMaskXObjectRepeat',
      'paintJpegXObject',
    ]
      .map((name) => ops[name])
      .filter((code): code is number => code !== undefined),
  );
}

let imageOps: Set<number> | null = null;

/** Whether the page paints at least one raster image (a scan is one image per page). */
export async function pagePaintsImage(page: PdfPage): Promise<boolean> {
  imageOps ??= imageOperators((await pdfOps()) as unknown as Record<string, number>);
  const { fnArray } = await page.getOperatorList();
  return fnArray.some((code) => imageOps!.has(code));
}

/** The scale from PDF points to pixels: 300 dpi, lowered so the page fits MAX_PAGE_PIXELS. */
export function ocrScale(widthPoints: number, heightPoints: number): number {
  const scale = OCR_DPI / POINTS_PER_INCH;
  const pixels = widthPoints * scale * heightPoints * scale;
  return pixels <= MAX_PAGE_PIXELS ? scale : scale * Math.sqrt(MAX_PAGE_PIXELS / pixels);
}

/** A binary PGM (P5) of RGBA pixels turned grey (ITU-R BT.601 luma), as tesseract reads it. */
export function rgbaToPgm(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const out = new Uint8Array(header.length + width * height);
  out.set(header, 0);
  let o = header.length;
  for (let i = 0; i < rgba.length; i += 4) {
    out[o++] = (rgba[i]! * 299 + rgba[i + 1]! * 587 + rgba[i + 2]! * 114 + 500) / 1000;
  }
  return out;
}

/** The page rendered on white for OCR, as a greyscale PGM. */
export async function renderPageForOcr(page: PdfPage): Promise<Uint8Array> {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: ocrScale(base.width, base.height) });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  // Loaded on first use: the native canvas library is large, and only OCR of PDF pages needs it
  // (the server's other threads import this module's siblings without it).
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  // pdf.js is typed against the DOM canvas; @napi-rs/canvas implements what it uses.
  const parameters = { canvas, canvasContext: context, viewport, background: 'rgb(255,255,255)' };
  await page.render(parameters as unknown as Parameters<PdfPage['render']>[0]).promise;
  const pixels = context.getImageData(0, 0, width, height).data;
  return rgbaToPgm(pixels, width, height);
}

/** The text OCR reads on a page that has no text layer, in `ocr`'s languages; '' when it paints no image. */
export async function ocrPage(page: PdfPage, ocr: OcrOptions): Promise<string> {
  if (!(await pagePaintsImage(page))) return '';
  return tidyOcrText(await recognizeImage(await renderPageForOcr(page), ocr));
}
