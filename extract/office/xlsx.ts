// Excel workbooks (xlsx, xlsm): each sheet a page labelled by its sheet name, in workbook
// order; a row per line with its cells separated by tabs: shared strings, inline strings,
// numbers (as stored), booleans and formula results. The title from docProps/core.xml.

import type { ExtractedPage, Extraction } from '../extraction.ts';
import { coreTitle, mainPart, readRelationships, readXmlPart, relationshipId, relationshipOfType } from './ooxml-parts.ts';
import { ooxmlRawText } from './ooxml-text.ts';
import { childElements, descend, firstChild, textContent, type XmlElement } from './xml-tree.ts';
import type { OfficePackage } from './office-package.ts';

/** A cell's text squeezed to one line (a multi-line cell must not split its row). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function sharedStrings(zip: OfficePackage, path: string | undefined): Promise<string[]> {
  if (path === undefined) return [];
  const table = await readXmlPart(zip, path);
  if (table === undefined) return [];
  return childElements(table, 'si').map((item) => oneLine(ooxmlRawText(item)));
}

function cellText(cell: XmlElement, shared: readonly string[]): string {
  const type = cell.attrs.t ?? 'n';
  const value = firstChild(cell, 'v');
  const raw = value === undefined ? '' : textContent(value).trim();
  switch (type) {
    case 's':
      return shared[Number.parseInt(raw, 10)] ?? '';
    case 'inlineStr': {
      const inline = firstChild(cell, 'is');
      return inline === undefined ? raw : oneLine(ooxmlRawText(inline));
    }
    case 'b':
      return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    case 'e':
      return '';
    default:
      return oneLine(raw);
  }
}

function sheetText(sheet: XmlElement, shared: readonly string[]): string {
  const data = descend(sheet, 'sheetData');
  if (data === undefined) return '';
  const lines: string[] = [];
  for (const row of childElements(data, 'row')) {
    const cells = childElements(row, 'c').map((cell) => cellText(cell, shared)).filter((text) => text !== '');
    if (cells.length > 0) lines.push(cells.join('\t'));
  }
  return lines.join('\n');
}

export async function extractWorkbook(zip: OfficePackage, format: string): Promise<Extraction> {
  const workbookPath = await mainPart(zip, 'xl/workbook.xml');
  const workbook = await readXmlPart(zip, workbookPath);
  if (workbook === undefined) throw new Error('the workbook has no main part (xl/workbook.xml)');
  const relationships = await readRelationships(zip, workbookPath);
  const byId = new Map(relationships.map((rel) => [rel.id, rel]));
  const shared = await sharedStrings(zip, relationshipOfType(relationships, 'sharedStrings')?.path ?? 'xl/sharedStrings.xml');
  const list = descend(workbook, 'sheets');
  const pages: ExtractedPage[] = [];
  for (const entry of list === undefined ? [] : childElements(list, 'sheet')) {
    const rel = byId.get(relationshipId(entry) ?? '');
    const sheet = rel === undefined ? undefined : await readXmlPart(zip, rel.path);
    pages.push({
      number: pages.length + 1,
      label: entry.attrs.name ?? null,
      text: sheet === undefined ? '' : sheetText(sheet, shared),
    });
  }
  return { format, title: await coreTitle(zip), pages };
}
