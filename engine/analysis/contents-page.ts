// Recognises a table of contents (or a list of figures, an index by page) in a page's text, so
// ranking can prefer the page a contents entry points to over the entry itself (issue 14: tables
// of contents won over their sections, as they hold every section title's words together). A
// contents page is a list of lines ending in page numbers: dot leaders then a number
// ("1.2 Maps as Lists . . . . . 7"), or, on a page that says "contents", mostly lines ending
// in a number ("Seeking-assistance 22"). Checked on the pages benchmark's PDFs (Debian manuals).

/** A line ending with dot leaders and a page number, arabic or roman. */
const LEADER_LINE = /(?:\.\s*){4,}[0-9ivxlcdm]{1,6}\s*$/i;
/** A line ending with a page number after a space. */
const NUMBERED_LINE = /\s[0-9ivxlcdm]{1,6}\s*$/i;
const CONTENTS_WORD = /contents/i;

/** Leader lines a contents page has at least, and their least share of its non-empty lines. */
const MIN_LEADER_LINES = 5;
const MIN_LEADER_SHARE = 0.3;
/** Without leaders: lines, and the share ending in a number, on a page that says "contents". */
const MIN_NUMBERED_LINES = 8;
const MIN_NUMBERED_SHARE = 0.6;

export function looksLikeContentsPage(text: string): boolean {
  let lines = 0;
  let leaders = 0;
  let numbered = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    lines++;
    if (LEADER_LINE.test(line)) leaders++;
    if (NUMBERED_LINE.test(line)) numbered++;
  }
  if (leaders >= MIN_LEADER_LINES && leaders >= MIN_LEADER_SHARE * lines) return true;
  return numbered >= MIN_NUMBERED_LINES && numbered >= MIN_NUMBERED_SHARE * lines && CONTENTS_WORD.test(text);
}

/** Per page of a document, whether it looks like a contents page. */
export function contentsPages(text: string, pageOffsets: readonly number[]): boolean[] {
  return pageOffsets.map((offset, i) => looksLikeContentsPage(text.slice(offset, i + 1 < pageOffsets.length ? pageOffsets[i + 1] : text.length)));
}
