// A page of a file as a picture, for previews (docs/api.md, "Page previews"): a PDF page
// rendered by pdf.js on @napi-rs/canvas (the canvas OCR renders scans on) at the width asked
// for, an image file scaled down to it, encoded as PNG or WebP. Bounded like extraction: the PDF
// limits of ExtractionOptions apply, a page is rendered within its time limit, and no picture
// has more than MAX_PREVIEW_PIXELS. Other types have no page pictures: PreviewError
// `preview_unavailable`; a page the file does not have: `page_not_found`.

import { DEFAULT_EXTRACTION_OPTIONS } from '../extraction.ts';
import type { ExtractionOptions } from '../extraction.ts';
import { countIndirectObjects, within } from '../pdf/read-pdf.ts';
import { openPdf } from '../pdf/pdfjs.ts';
import type { PdfPage } from '../pdf/pdfjs.ts';

export type PageImageFormat = 'png' | 'webp';

/** The narrowest and widest picture a client may ask for, in pixels. */
export const MIN_PREVIEW_WIDTH = 16;
export const MAX_PREVIEW_WIDTH = 2048;
/** Most pixels of one picture (a tall page at the widest is made narrower). */
export const MAX_PREVIEW_PIXELS = 6_000_000;
/** WebP quality: small thumbnails that still read. */
const WEBP_QUALITY = 80;
/** The image types a preview is the image itself (what @napi-rs/canvas decodes). */
const IMAGE_FORMATS = new Set(['png', 'jpg', 'jpeg', 'jpe', 'jfif', 'gif', 'webp', 'bmp', 'dib']);

export type PreviewErrorCode = 'preview_unavailable' | 'page_not_found';

export class PreviewError extends Error {
  constructor(
    readonly code: PreviewErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PreviewError';
  }
}

export interface PageImageRequest {
  /** 1-based page number. */
  page: number;
  /** Width in pixels (MIN_PREVIEW_WIDTH–MAX_PREVIEW_WIDTH); an image is never made larger. */
  width: number;
  format: PageImageFormat;
}

/** Whether a file of `format` (the registry's name) has page pictures. */
export function hasPageImages(format: string): boolean {
  return format === 'pdf' || IMAGE_FORMATS.has(format);
}

/** The size a `width` × `height` picture is drawn at for `wanted` pixels wide, within MAX_PREVIEW_PIXELS. */
export function previewSize(width: number, height: number, wanted: number): { width: number; height: number } {
  let scale = wanted / width;
  if (width * scale * height * scale > MAX_PREVIEW_PIXELS) scale = Math.sqrt(MAX_PREVIEW_PIXELS / (width * height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

type Canvas = import('@napi-rs/canvas').Canvas;

async function encode(canvas: Canvas, format: PageImageFormat): Promise<Uint8Array> {
  return format === 'webp' ? canvas.encode('webp', WEBP_QUALITY) : canvas.encode('png');
}

/** Page `request.page` of a file (its bytes, and its format as the registry names it) as a picture. */
export async function renderPageImage(bytes: Uint8Array, format: string, request: PageImageRequest, options: ExtractionOptions = DEFAULT_EXTRACTION_OPTIONS): Promise<Uint8Array> {
  if (!hasPageImages(format)) throw new PreviewError('preview_unavailable', `a ${format} file has no page pictures: previews are of PDF pages and images`);
  try {
    return format === 'pdf' ? await renderPdfPage(bytes, request, options) : await renderImage(bytes, request);
  } catch (error) {
    if (error instanceof PreviewError) throw error;
    throw new PreviewError('preview_unavailable', `page ${request.page} could not be drawn: ${(error as Error).message}`);
  }
}

async function renderImage(bytes: Uint8Array, request: PageImageRequest): Promise<Uint8Array> {
  if (request.page !== 1) throw new PreviewError('page_not_found', `an image has one page, not ${request.page}`);
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const size = previewSize(image.width, image.height, Math.min(request.width, image.width));
  const canvas = createCanvas(size.width, size.height);
  canvas.getContext('2d').drawImage(image, 0, 0, size.width, size.height);
  return encode(canvas, request.format);
}

async function renderPdfPage(bytes: Uint8Array, request: PageImageRequest, options: ExtractionOptions): Promise<Uint8Array> {
  const objects = countIndirectObjects(bytes);
  if (objects > options.maxPdfObjects) throw new PreviewError('preview_unavailable', `the PDF holds ${objects} objects; at most ${options.maxPdfObjects} are read`);
  const document = await openPdf(bytes);
  try {
    if (request.page > document.numPages) throw new PreviewError('page_not_found', `the PDF has ${document.numPages} page${document.numPages === 1 ? '' : 's'}, not ${request.page}`);
    const page = await document.getPage(request.page);
    try {
      return await within(options.pageTimeMs, drawPdfPage(page, request), `page ${request.page}`);
    } finally {
      page.cleanup();
    }
  } finally {
    await document.destroy();
  }
}

async function drawPdfPage(page: PdfPage, request: PageImageRequest): Promise<Uint8Array> {
  const base = page.getViewport({ scale: 1 });
  const size = previewSize(base.width, base.height, request.width);
  const viewport = page.getViewport({ scale: size.width / base.width });
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(size.width, Math.max(1, Math.floor(viewport.height)));
  // pdf.js is typed against the DOM canvas; @napi-rs/canvas implements what it uses.
  const parameters = { canvas, canvasContext: canvas.getContext('2d'), viewport, background: 'rgb(255,255,255)' };
  await page.render(parameters as unknown as Parameters<PdfPage['render']>[0]).promise;
  return encode(canvas, request.format);
}
