// OpenDocument files, zipped (odt, ods, odp: content.xml + meta.xml) and flat (fodt, fods,
// fodp: one XML file). A text document is one page; a spreadsheet gives a page per table,
// labelled by the table's name; a presentation a page per draw:page, labelled `slide N`.
// The title is the metadata's dc:title.

import type { ExtractedPage, Extraction } from '../extraction.ts';
import { tidyText, cleanTitle } from '../text-formats/tidy.ts';
import { attrByLocal, childElements, descend, findAll, parseXml, textContent, type XmlChild, type XmlElement } from './xml-tree.ts';
import type { OfficePackage } from './office-package.ts';

/** Elements whose content is not visible text: change tracking (deleted text), speaker notes, declarations. */
const SKIPPED = new Set(['tracked-changes', 'notes', 'sequence-decls', 'variable-decls', 'user-field-decls', 'forms']);

function walk(node: XmlChild, out: string[]): void {
  if (typeof node === 'string') {
    out.push(node.replace(/[\r\n\t]+/g, ' '));
    return;
  }
  switch (node.local) {
    case 's': {
      const count = Number.parseInt(attrByLocal(node, 'c') ?? '1', 10);
      out.push(' '.repeat(Number.isFinite(count) && count > 0 ? Math.min(count, 1000) : 1));
      return;
    }
    case 'tab':
      out.push('\t');
      return;
    case 'line-break':
      out.push('\n');
      return;
    default:
      if (SKIPPED.has(node.local)) return;
  }
  const block = node.local === 'p' || node.local === 'h';
  if (block && out.length > 0 && !out[out.length - 1].endsWith('\n')) out.push('\n');
  for (const child of node.children) walk(child, out);
  if (block) out.push('\n');
}

/** The text of an ODF element; paragraphs and headings on their own lines. */
function odfText(element: XmlElement): string {
  const out: string[] = [];
  for (const child of element.children) walk(child, out);
  return tidyText(out.join(''));
}

/** A spreadsheet table: a row per line, non-empty cells separated by tabs. */
function tableText(table: XmlElement): string {
  const lines: string[] = [];
  for (const row of findAll(table, 'table-row')) {
    const cells = childElements(row)
      .filter((cell) => cell.local === 'table-cell' || cell.local === 'covered-table-cell')
      .map((cell) => odfText(cell).replace(/\s+/g, ' ').trim())
      .filter((text) => text !== '');
    if (cells.length > 0) lines.push(cells.join('\t'));
  }
  return lines.join('\n');
}

/** Pages of an `office:body` according to its kind of document. */
function bodyPages(body: XmlElement): ExtractedPage[] {
  const content = childElements(body)[0];
  if (content === undefined) return [];
  switch (content.local) {
    case 'spreadsheet':
      return findAll(content, 'table').map((table, i) => ({
        number: i + 1,
        label: attrByLocal(table, 'name') ?? null,
        text: tableText(table),
      }));
    case 'presentation':
    case 'drawing':
      return findAll(content, 'page').map((page, i) => ({ number: i + 1, label: `slide ${i + 1}`, text: odfText(page) }));
    default:
      return [{ number: 1, label: null, text: odfText(content) }];
  }
}

function metaTitle(meta: XmlElement | undefined): string | null {
  const title = meta === undefined ? undefined : descend(meta, 'title');
  return title === undefined ? null : cleanTitle(textContent(title));
}

/** A zipped OpenDocument file. */
export async function extractOpenDocument(zip: OfficePackage, format: string): Promise<Extraction> {
  const content = await zip.readText('content.xml');
  if (content === null) throw new Error('the document has no content.xml');
  const body = descend(parseXml(content), 'body');
  if (body === undefined) throw new Error('content.xml has no office:body');
  const meta = await zip.readText('meta.xml');
  const title = meta === null ? null : metaTitle(descend(parseXml(meta), 'meta'));
  return { format, title, pages: bodyPages(body) };
}

/** A flat (single XML file) OpenDocument file. */
export function extractFlatOpenDocument(text: string, format: string): Extraction {
  const root = parseXml(text);
  if (root.local !== 'document') throw new Error('not a flat OpenDocument file (no office:document root)');
  const body = descend(root, 'body');
  if (body === undefined) throw new Error('the document has no office:body');
  return { format, title: metaTitle(descend(root, 'meta')), pages: bodyPages(body) };
}
