// Turns a PDF page's text items (pdf.js getTextContent) into readable text: items follow in
// content order; a line break goes where pdf.js marks the end of a line (hasEOL) or where the
// next item sits on another baseline, and a space where there is a visible gap on the same
// line and neither side already has one.

import { tidyText } from '../text-formats/tidy.ts';

/** The parts of a pdf.js TextItem used here. */
export interface PositionedText {
  str: string;
  hasEOL: boolean;
  /** [a, b, c, d, e, f]: e/f are the item's x/y on the page. */
  transform: number[];
  width: number;
  height: number;
}

/** Control characters other than tab and newline that some PDFs' fonts map text to. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** What goes between two items that are not separated by an end of line. */
function separator(previous: PositionedText, next: PositionedText): string {
  const size = Math.max(previous.height, next.height, 1);
  const [, , , , prevX = 0, prevY = 0] = previous.transform;
  const [, , , , nextX = 0, nextY = 0] = next.transform;
  if (Math.abs(nextY - prevY) > size * 0.5) return '\n';
  if (/\s$/.test(previous.str) || /^\s/.test(next.str)) return '';
  const gap = nextX - (prevX + previous.width);
  // A gap wider than a thin space, or a jump backwards (overprinted or reordered runs).
  return gap > size * 0.15 || gap < -size ? ' ' : '';
}

/** The text of one page from its items, tidied (trimmed lines, at most one blank line). */
export function joinTextItems(items: readonly PositionedText[]): string {
  let text = '';
  let previous: PositionedText | null = null;
  for (const item of items) {
    if (item.str !== '') {
      if (previous !== null && !previous.hasEOL) text += separator(previous, item);
      text += item.str;
      previous = item;
    }
    if (item.hasEOL) {
      text += '\n';
      if (previous !== null) previous = { ...previous, hasEOL: true };
    }
  }
  return tidyText(text.replace(CONTROL, ''));
}
