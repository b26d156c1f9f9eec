// Word documents (docx, docm, dotx): the main document part's paragraphs as one page, the
// title from docProps/core.xml.

import type { Extraction } from '../extraction.ts';
import { coreTitle, mainPart, readXmlPart } from './ooxml-parts.ts';
import { ooxmlText } from './ooxml-text.ts';
import type { OfficePackage } from './office-package.ts';

export async function extractWordDocument(zip: OfficePackage, format: string): Promise<Extraction> {
  const part = await mainPart(zip, 'word/document.xml');
  const document = await readXmlPart(zip, part);
  if (document === undefined) throw new Error('the document has no main part (word/document.xml)');
  return {
    format,
    title: await coreTitle(zip),
    pages: [{ number: 1, label: null, text: ooxmlText(document) }],
  };
}
