// Images: the text tesseract.js reads in them (OCR, in the languages asked for), as one page without a label or
// title. Only the formats tesseract's own decoder (leptonica) reads are listed, each proven by
// a fixture: PNG, JPEG, GIF, TIFF, BMP, WebP and Netpbm.

import type { Extraction, ExtractionOptions, FormatFamily, FormatInfo } from '../extraction.ts';
import { formatsOf } from './format-rows.ts';
import { recognizeImage } from '../ocr/tesseract-worker.ts';
import { tidyOcrText } from '../ocr/tidy-ocr-text.ts';

const FORMATS: FormatInfo[] = formatsOf('image', [
  ['image/png', 'png'],
  ['image/jpeg', 'jpg', 'jpeg', 'jpe', 'jfif'],
  ['image/gif', 'gif'],
  ['image/tiff', 'tif', 'tiff'],
  ['image/bmp', 'bmp', 'dib'],
  ['image/webp', 'webp'],
  ['image/x-portable-bitmap', 'pbm'],
  ['image/x-portable-graymap', 'pgm'],
  ['image/x-portable-pixmap', 'ppm'],
  ['image/x-portable-anymap', 'pnm'],
]);

export const imageFamily: FormatFamily = {
  kind: 'image',
  formats: FORMATS,
  async extract(bytes: Uint8Array, format: string, options: ExtractionOptions): Promise<Extraction> {
    const text = tidyOcrText(await recognizeImage(bytes, options.ocr));
    return { format, title: null, pages: [{ number: 1, label: null, text }] };
  },
};
