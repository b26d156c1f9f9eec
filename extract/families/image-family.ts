// Images: the text tesseract.js reads in them (OCR, in the languages asked for), as one page without a label or
// title. Only the formats tesseract's own decoder (leptonica) reads are listed, each proven by
// a fixture: PNG, JPEG, GIF, TIFF, BMP, WebP and Netpbm.

import type { Extraction, ExtractionOptions, FormatFamily, FormatInfo } from '../extraction.ts';
import { recognizeImage } from '../ocr/tesseract-worker.ts';
import { tidyOcrText } from '../ocr/tidy-ocr-text.ts';

const FORMATS: FormatInfo[] = [
  { extension: 'png', mime: 'image/png', kind: 'image' },
  { extension: 'jpg', mime: 'image/jpeg', kind: 'image' },
  { extension: 'jpeg', mime: 'image/jpeg', kind: 'image' },
  { extension: 'jpe', mime: 'image/jpeg', kind: 'image' },
  { extension: 'jfif', mime: 'image/jpeg', kind: 'image' },
  { extension: 'gif', mime: 'image/gif', kind: 'image' },
  { extension: 'tif', mime: 'image/tiff', kind: 'image' },
  { extension: 'tiff', mime: 'image/tiff', kind: 'image' },
  { extension: 'bmp', mime: 'image/bmp', kind: 'image' },
  { extension: 'dib', mime: 'image/bmp', kind: 'image' },
  { extension: 'webp', mime: 'image/webp', kind: 'image' },
  { extension: 'pbm', mime: 'image/x-portable-bitmap', kind: 'image' },
  { extension: 'pgm', mime: 'image/x-portable-graymap', kind: 'image' },
  { extension: 'ppm', mime: 'image/x-portable-pixmap', kind: 'image' },
  { extension: 'pnm', mime: 'image/x-portable-anymap', kind: 'image' },
];

export const imageFamily: FormatFamily = {
  kind: 'image',
  formats: FORMATS,
  async extract(bytes: Uint8Array, format: string, options: ExtractionOptions): Promise<Extraction> {
    const text = tidyOcrText(await recognizeImage(bytes, options.ocr));
    return { format, title: null, pages: [{ number: 1, label: null, text }] };
  },
};
