// PowerPoint presentations (pptx, pptm): each slide a page labelled `slide N`, in the order of
// the presentation's slide list (not the order of the files in the archive); the title from
// docProps/core.xml.

import type { ExtractedPage, Extraction } from '../extraction.ts';
import { coreTitle, mainPart, readRelationships, readXmlPart, relationshipId } from './ooxml-parts.ts';
import { ooxmlText } from './ooxml-text.ts';
import { childElements, descend } from './xml-tree.ts';
import type { OfficePackage } from './office-package.ts';

/** Slide part paths in presentation order. */
async function slidePaths(zip: OfficePackage, presentationPath: string): Promise<string[]> {
  const presentation = await readXmlPart(zip, presentationPath);
  if (presentation === undefined) throw new Error('the presentation has no main part (ppt/presentation.xml)');
  const relationships = await readRelationships(zip, presentationPath);
  const byId = new Map(relationships.map((rel) => [rel.id, rel]));
  const list = descend(presentation, 'sldIdLst');
  const paths: string[] = [];
  for (const slide of list === undefined ? [] : childElements(list, 'sldId')) {
    const rel = byId.get(relationshipId(slide) ?? '');
    if (rel !== undefined && rel.type.endsWith('/slide')) paths.push(rel.path);
  }
  return paths;
}

export async function extractPresentation(zip: OfficePackage, format: string): Promise<Extraction> {
  const paths = await slidePaths(zip, await mainPart(zip, 'ppt/presentation.xml'));
  const pages: ExtractedPage[] = [];
  for (const path of paths) {
    const slide = await readXmlPart(zip, path);
    const number = pages.length + 1;
    pages.push({ number, label: `slide ${number}`, text: slide === undefined ? '' : ooxmlText(slide) });
  }
  return { format, title: await coreTitle(zip), pages };
}
