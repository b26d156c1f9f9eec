// What extraction produces and how it fails: file bytes → { format, title, pages }, each page
// with its physical number, its label when the format has one (`iv`, `slide 2`, a sheet name)
// and its text. A document without pages is one page. Errors carry a stable code the server
// maps to HTTP (415 for a type nobody reads, 422 for a file that cannot be read).

/** One page of an extracted document. */
export interface ExtractedPage {
  /** 1-based physical page number. */
  number: number;
  /** The page's own label (`iv`, `A-3`, `slide 2`, `Sheet1`), or null. */
  label: string | null;
  text: string;
}

export interface Extraction {
  /** The registry's name of the file type, e.g. `pdf`, `docx`, `markdown`. */
  format: string;
  /** The document's own title (PDF info, HTML <title>, first heading…), or null. */
  title: string | null;
  pages: ExtractedPage[];
}

/** A file type the server reads: GET /v1/formats lists these. */
export interface FormatInfo {
  /** The usual file extension without the dot, e.g. `pdf`; also the `format` name. */
  extension: string;
  mime: string;
  /** The family of formats it belongs to: `pdf`, `office`, `markup`, `text`, `code`, `image`, … */
  kind: string;
}

/** Reads the files of one family. `format` is the detected format's extension. */
export interface FormatFamily {
  kind: string;
  formats: FormatInfo[];
  extract(bytes: Uint8Array, format: string, limits: ExtractionOptions): Promise<Extraction> | Extraction;
}

/** How images and scanned pages are read (OCR): which languages, and where their data is. */
export interface OcrOptions {
  /** Tesseract language codes, read together (`['deu', 'eng']`). */
  languages: readonly string[];
  /** The add-ons' `tessdata` folder of installed languages; null: English only, from Folio's install. */
  dataDir: string | null;
}

/** English from Folio's own install: what OCR reads unless told otherwise. */
export const DEFAULT_OCR_OPTIONS: Readonly<OcrOptions> = Object.freeze({ languages: Object.freeze(['eng']), dataDir: null });

/** How a file is read: the OCR languages, and bounds for hostile input (zip bombs, deep nesting). */
export interface ExtractionOptions {
  /** Languages of images and scanned pages. */
  ocr: OcrOptions;
  /** Most bytes any unpacked part (or all of them together) may take. */
  maxUnpackedBytes: number;
  /** Deepest nesting of archives within archives. */
  maxArchiveDepth: number;
  /** Most pages of one PDF read; a PDF with more is refused before any page is read. */
  maxPages: number;
  /** Most indirect objects (`n g obj`) a PDF may hold; one with more is refused before it is parsed. */
  maxPdfObjects: number;
  /** Longest one page may take (text layer or OCR); a page over it is kept empty. */
  pageTimeMs: number;
}

export const DEFAULT_EXTRACTION_OPTIONS: Readonly<ExtractionOptions> = Object.freeze({
  ocr: DEFAULT_OCR_OPTIONS,
  maxUnpackedBytes: 256 * 1024 * 1024,
  maxArchiveDepth: 3,
  maxPages: 10_000,
  maxPdfObjects: 2_000_000,
  pageTimeMs: 30_000,
});

export type ExtractionErrorCode = 'unsupported_file_type' | 'extraction_failed';

export class ExtractionError extends Error {
  readonly code: ExtractionErrorCode;

  constructor(code: ExtractionErrorCode, message: string) {
    super(message);
    this.name = 'ExtractionError';
    this.code = code;
  }
}
