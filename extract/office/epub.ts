// EPUB e-books: META-INF/container.xml names the package (OPF) file; its spine lists the
// chapters in reading order, each an (X)HTML file that becomes a page, labelled by the
// chapter's own title or heading when it has one. The book's title is the OPF's dc:title.

import type { ExtractedPage, Extraction } from '../extraction.ts';
import { htmlToText } from '../text-formats/html.ts';
import { cleanTitle } from '../text-formats/tidy.ts';
import { resolvePartPath } from './ooxml-parts.ts';
import { childElements, descend, findAll, parseXml, textContent } from './xml-tree.ts';
import type { OfficePackage } from './office-package.ts';

const CHAPTER_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/x-dtbook+xml']);

/** The path of the package document (OPF). */
async function packagePath(zip: OfficePackage): Promise<string> {
  const container = await zip.readText('META-INF/container.xml');
  if (container !== null) {
    const rootfiles = findAll(parseXml(container), 'rootfile');
    const opf = rootfiles.find((r) => r.attrs['media-type'] === 'application/oebps-package+xml') ?? rootfiles[0];
    const path = opf?.attrs['full-path'];
    if (path !== undefined && zip.has(path)) return resolvePartPath('', path);
  }
  const fallback = zip.names.find((name) => name.toLowerCase().endsWith('.opf'));
  if (fallback === undefined) throw new Error('the e-book has no package document (.opf)');
  return fallback;
}

export async function extractEpub(zip: OfficePackage, format: string): Promise<Extraction> {
  const opfPath = await packagePath(zip);
  const opfText = await zip.readText(opfPath);
  if (opfText === null) throw new Error(`the e-book's package document is missing: ${opfPath}`);
  const opf = parseXml(opfText);
  const titleElement = descend(opf, 'metadata', 'title');
  const title = titleElement === undefined ? null : cleanTitle(textContent(titleElement));

  const manifest = new Map<string, { path: string; type: string }>();
  for (const item of childElements(descend(opf, 'manifest') ?? opf, 'item')) {
    const { id, href } = item.attrs;
    if (id !== undefined && href !== undefined) {
      manifest.set(id, { path: resolvePartPath(opfPath, href.replace(/#.*$/, '')), type: item.attrs['media-type'] ?? '' });
    }
  }

  const pages: ExtractedPage[] = [];
  const seen = new Set<string>();
  for (const itemref of childElements(descend(opf, 'spine') ?? opf, 'itemref')) {
    const item = manifest.get(itemref.attrs.idref ?? '');
    if (item === undefined || seen.has(item.path)) continue;
    if (item.type !== '' && !CHAPTER_TYPES.has(item.type)) continue;
    seen.add(item.path);
    const html = await zip.readText(item.path);
    if (html === null) continue;
    const chapter = htmlToText(html);
    const label = chapter.title !== null && chapter.title !== title ? chapter.title : null;
    pages.push({ number: pages.length + 1, label, text: chapter.text });
  }
  return { format, title, pages };
}
