// Type declaration for word-extractor 1.0.4, which ships without types: the parts Folio uses
// (see word97.ts). Only a Buffer is declared as input: Folio never hands it a path.

declare module 'word-extractor' {
  namespace WordExtractor {
    interface TextOptions {
      /** Replace curly quotes, dashes and wide spaces with ASCII (default true). */
      filterUnicode?: boolean;
    }

    interface Document {
      getBody(options?: TextOptions): string;
      getFootnotes(options?: TextOptions): string;
      getEndnotes(options?: TextOptions): string;
      /** Headers, and footers too unless `includeFooters: false`. */
      getHeaders(options?: TextOptions & { includeFooters?: boolean }): string;
      getFooters(options?: TextOptions): string;
      getAnnotations(options?: TextOptions): string;
      getTextboxes(options?: TextOptions & { includeHeadersAndFooters?: boolean; includeBody?: boolean }): string;
    }
  }

  class WordExtractor {
    /** Reads a Word 97–2003 `.doc` (or a `.docx`) held in memory. */
    extract(source: Buffer): Promise<WordExtractor.Document>;
  }

  export = WordExtractor;
}
