// Cuts a document into the passages that get embedded (search by meaning): runs of about
// PASSAGE_WORDS words that overlap by PASSAGE_OVERLAP_WORDS, never across a page boundary, so
// every passage belongs to one page and a semantic hit can name it. Each passage is a span of
// the document's text (UTF-16 offsets), so its snippet is cut from the stored text later; the
// text given to a model is the collection's document template filled with that span.

import type { IndexDocument } from '../document.ts';

/** Words per passage: long enough for context, short enough for small embedding models (~256 tokens). */
export const PASSAGE_WORDS = 200;
/** Words shared by consecutive passages of a page, so a sentence cut at a boundary is whole in one. */
export const PASSAGE_OVERLAP_WORDS = 40;
/** At most this many passages a document (a 300-page PDF needs ~600); the rest of it is not embedded. */
export const MAX_PASSAGES_PER_DOCUMENT = 2_000;
/** Characters of one passage's text given to a model (bounds a passage of very long "words"). */
export const MAX_PASSAGE_CHARS = 4_000;

/** The default template: the title, then the passage. */
export const DEFAULT_DOCUMENT_TEMPLATE = '{{title}}\n{{text}}';

export interface Passage {
  /** Index of the page in the document's `pages`, or -1 for documents without pages. */
  page: number;
  /** UTF-16 span of the passage in the document's `text`. */
  start: number;
  end: number;
}

const WORD = /\S+/g;

/** The passages of `doc` in text order (one empty passage for a document without text). */
export function cutPassages(doc: Pick<IndexDocument, 'text' | 'pages'>): Passage[] {
  const passages: Passage[] = [];
  const pages = doc.pages;
  if (pages === null || pages.length === 0) {
    cutRange(doc.text, 0, doc.text.length, -1, passages);
  } else {
    for (let index = 0; index < pages.length && passages.length < MAX_PASSAGES_PER_DOCUMENT; index++) {
      const end = index + 1 < pages.length ? pages[index + 1].offset : doc.text.length;
      cutRange(doc.text, pages[index].offset, end, index, passages);
    }
  }
  if (passages.length === 0) passages.push({ page: pages !== null && pages.length > 0 ? 0 : -1, start: 0, end: 0 });
  return passages.length > MAX_PASSAGES_PER_DOCUMENT ? passages.slice(0, MAX_PASSAGES_PER_DOCUMENT) : passages;
}

function cutRange(text: string, from: number, to: number, page: number, out: Passage[]): void {
  const starts: number[] = [];
  const ends: number[] = [];
  WORD.lastIndex = from;
  for (let match = WORD.exec(text); match !== null && match.index < to; match = WORD.exec(text)) {
    starts.push(match.index);
    ends.push(Math.min(match.index + match[0].length, to));
  }
  const stride = PASSAGE_WORDS - PASSAGE_OVERLAP_WORDS;
  for (let first = 0; first < starts.length; first += stride) {
    const last = Math.min(first + PASSAGE_WORDS, starts.length) - 1;
    out.push({ page, start: starts[first], end: ends[last] });
    if (last === starts.length - 1 || out.length >= MAX_PASSAGES_PER_DOCUMENT) return;
  }
}

/**
 * The text a model embeds for one passage: `template` with `{{title}}`, `{{text}}` (the
 * passage) and `{{metadata.FIELD}}` filled in (missing values are empty), whitespace trimmed.
 */
export function passageText(template: string, doc: Pick<IndexDocument, 'title' | 'text' | 'metadata'>, passage: Passage): string {
  const body = doc.text.slice(passage.start, Math.min(passage.end, passage.start + MAX_PASSAGE_CHARS));
  return template
    .replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, name: string) => {
      if (name === 'title') return doc.title ?? '';
      if (name === 'text') return body;
      if (name.startsWith('metadata.')) {
        const value = doc.metadata[name.slice('metadata.'.length)];
        return value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
      }
      return '';
    })
    .trim();
}
