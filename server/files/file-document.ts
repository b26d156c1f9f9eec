// Turns an extracted file into the engine's IndexDocument: the pages' texts joined (a blank
// line between pages) with each page's start offset, number and label kept, so hits can name
// their best page, its label and every matched page. The title is the caller's, else the
// file's own; the id is the caller's, else the hex SHA-256 of the bytes (docs/api.md, "Files"), so the same
// file uploaded twice replaces itself.

import type { IndexDocument, Metadata, PageInfo } from '../../engine/index.ts';
import type { Extraction } from '../../extract/index.ts';

/** Put between two pages' texts; no word spans it. */
const PAGE_SEPARATOR = '\n\n';

export interface FileDocumentInput {
  id: string | undefined;
  sha256: string;
  title: string | undefined;
  metadata: Metadata | undefined;
  /** The file's size. */
  bytes: number;
  indexedAt: string;
}

export function buildFileDocument(input: FileDocumentInput, extraction: Extraction): IndexDocument {
  const pages: PageInfo[] = [];
  let text = '';
  extraction.pages.forEach((page, index) => {
    if (index > 0) text += PAGE_SEPARATOR;
    pages.push({ number: page.number, label: page.label, offset: text.length });
    text += page.text;
  });
  return {
    id: input.id ?? input.sha256,
    title: input.title ?? extraction.title,
    text,
    pages,
    metadata: input.metadata ?? {},
    format: extraction.format,
    bytes: input.bytes,
    indexedAt: input.indexedAt,
  };
}
