// The extract folder's public API: detect a file's format, list the formats the server reads,
// and extract a file into { format, title, pages }. Outside code imports only this file.

import {
  DEFAULT_EXTRACTION_OPTIONS,
  ExtractionError,
  type Extraction,
  type ExtractionOptions,
} from './extraction.ts';
import { detectFormat } from './detect-format.ts';
import { familyFor, registerFamily } from './format-registry.ts';
import { FAMILIES } from './families/index.ts';

export {
  DEFAULT_EXTRACTION_OPTIONS,
  ExtractionError,
  type ExtractedPage,
  type Extraction,
  type ExtractionErrorCode,
  type ExtractionOptions,
  type FormatFamily,
  type FormatInfo,
} from './extraction.ts';
export { detectFormat } from './detect-format.ts';
export { familyFor, formatInfo, listFormats, registerFamily } from './format-registry.ts';
export { DEFAULT_OCR_OPTIONS, type OcrOptions } from './extraction.ts';
export {
  MAX_PREVIEW_WIDTH,
  MIN_PREVIEW_WIDTH,
  PreviewError,
  hasPageImages,
  renderPageImage,
  type PageImageFormat,
  type PageImageRequest,
  type PreviewErrorCode,
} from './preview/page-image.ts';
export {
  BUNDLED_OCR_LANGUAGE,
  MAX_OCR_LANGUAGES,
  OCR_ADD_COMMAND,
  OCR_LANGUAGE_PATTERN,
  OCR_MODEL_FOLDER,
  bundledOcrDataDir,
  checkOcrLanguageList,
  installedOcrLanguages,
  missingOcrLanguages,
  missingOcrLanguagesMessage,
  parseOcrLanguages,
  trainedDataFile,
} from './ocr/ocr-languages.ts';

for (const family of FAMILIES) registerFamily(family);

/**
 * Extracts a file's text. Throws ExtractionError `unsupported_file_type` when no family reads
 * the file's format, `extraction_failed` when the file cannot be read (damaged, not what its
 * name says).
 */
export async function extractFile(
  bytes: Uint8Array,
  fileName: string | null,
  limits: ExtractionOptions = DEFAULT_EXTRACTION_OPTIONS,
): Promise<Extraction> {
  const format = detectFormat(bytes, fileName, (name) => familyFor(name) !== undefined);
  if (format === null) throw new ExtractionError('unsupported_file_type', 'the file type could not be recognised');
  const family = familyFor(format);
  if (family === undefined) throw new ExtractionError('unsupported_file_type', `unsupported file type: ${format}`);
  let extraction: Extraction;
  try {
    extraction = await family.extract(bytes, format, limits);
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtractionError('extraction_failed', `could not read the ${format} file: ${reason}`);
  }
  const pages = extraction.pages.length > 0 ? extraction.pages : [{ number: 1, label: null, text: '' }];
  return { format: extraction.format || format, title: extraction.title, pages };
}
