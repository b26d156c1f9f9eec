// The text of OOXML content (WordprocessingML `w:` and DrawingML `a:` runs): `t` elements are
// text, `tab`/`br`/`cr` are whitespace, each paragraph `p` ends a line. Deleted revisions,
// field instructions and markup-compatibility fallbacks (duplicates of the chosen content)
// are skipped.

import type { XmlChild, XmlElement } from './xml-tree.ts';
import { tidyText } from '../text-formats/tidy.ts';

/** Elements whose content is not the document's visible text. */
const SKIPPED = new Set(['delText', 'instrText', 'Fallback', 'rPh', 'phoneticPr', 'tabLst', 'tabs', 'del', 'moveFrom']);

/** Appends the text of `node` to `out`. */
function walk(node: XmlChild, out: string[]): void {
  if (typeof node === 'string') return; // character data outside `t` is formatting whitespace
  switch (node.local) {
    case 't':
      for (const child of node.children) if (typeof child === 'string') out.push(child);
      return;
    case 'tab':
      out.push('\t');
      return;
    case 'br':
    case 'cr':
      out.push('\n');
      return;
    case 'noBreakHyphen':
      out.push('-');
      return;
    default:
      if (SKIPPED.has(node.local)) return;
  }
  for (const child of node.children) walk(child, out);
  if (node.local === 'p') out.push('\n');
}

/** The raw text of an OOXML element (lines per paragraph, not tidied). */
export function ooxmlRawText(element: XmlElement): string {
  const out: string[] = [];
  walk(element, out);
  return out.join('');
}

/** The readable text of an OOXML element: paragraphs on their own lines, whitespace tidied. */
export function ooxmlText(element: XmlElement): string {
  return tidyText(ooxmlRawText(element));
}
