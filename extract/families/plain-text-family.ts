// Plain text files (txt, log, patches, BibTeX…): the text as written; a form feed starts a
// new page, so pages are numbered 1…n. No title: plain text has no place for one.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { formatsOf } from './format-rows.ts';
import { readTextFile } from './text-input.ts';

const FORMATS: FormatInfo[] = formatsOf('text', [
  ['text/plain', 'txt', 'text'],
  ['text/x-log', 'log'],
  ['text/x-patch', 'diff', 'patch'],
  ['text/x-bibtex', 'bib'],
]);

/** Splits text into pages at form feeds; a trailing form feed does not make an empty last page. */
export function splitFormFeedPages(text: string): string[] {
  const pages = text.replace(/\r\n?/g, '\n').split('\f');
  if (pages.length > 1 && pages[pages.length - 1].trim() === '') pages.pop();
  return pages.map((page) => page.replace(/^\n+|\s+$/g, ''));
}

export const plainTextFamily: FormatFamily = {
  kind: 'text',
  formats: FORMATS,
  extract(bytes: Uint8Array, format: string): Extraction {
    const pages = splitFormFeedPages(readTextFile(bytes));
    return { format, title: null, pages: pages.map((text, i) => ({ number: i + 1, label: null, text })) };
  },
};
