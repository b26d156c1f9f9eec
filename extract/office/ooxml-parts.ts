// Finding the parts of an OOXML package (docx/xlsx/pptx): the relationship files that link
// them (`_rels/*.rels`), target paths resolved against the source part, the package's main
// document, and the title kept in docProps/core.xml.

import { attrByLocal, childElements, descend, parseXml, textContent, type XmlElement } from './xml-tree.ts';
import type { OfficePackage } from './office-package.ts';
import { cleanTitle } from '../text-formats/tidy.ts';

export interface Relationship {
  id: string;
  /** The relationship type URI, e.g. `…/relationships/officeDocument`. */
  type: string;
  /** The target part's path inside the archive (no leading slash). */
  path: string;
}

function dirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash + 1);
}

/** Resolves a relative part reference against the part it appears in (`..` and `.` folded). */
export function resolvePartPath(fromPart: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // keep the raw target when it is not valid percent-encoding
  }
  const joined = decoded.startsWith('/') ? decoded : dirName(fromPart) + decoded;
  const out: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out.join('/');
}

/** The relationships of a part (`''` for the package itself); internal targets only. */
export async function readRelationships(zip: OfficePackage, part: string): Promise<Relationship[]> {
  const relsPath = `${dirName(part)}_rels/${part.slice(dirName(part).length)}.rels`;
  const text = await zip.readText(relsPath);
  if (text === null) return [];
  const out: Relationship[] = [];
  for (const rel of childElements(parseXml(text), 'Relationship')) {
    const target = rel.attrs.Target;
    if (target === undefined || (rel.attrs.TargetMode ?? '').toLowerCase() === 'external') continue;
    out.push({ id: rel.attrs.Id ?? '', type: rel.attrs.Type ?? '', path: resolvePartPath(part, target) });
  }
  return out;
}

/** The first relationship whose type URI ends with `/<kind>`. */
export function relationshipOfType(relationships: readonly Relationship[], kind: string): Relationship | undefined {
  return relationships.find((rel) => rel.type.endsWith(`/${kind}`));
}

/** The package's main part (the officeDocument relationship), else the conventional path. */
export async function mainPart(zip: OfficePackage, fallback: string): Promise<string> {
  const main = relationshipOfType(await readRelationships(zip, ''), 'officeDocument');
  return main !== undefined && zip.has(main.path) ? main.path : fallback;
}

/** The document title from docProps/core.xml (`dc:title`), or null. */
export async function coreTitle(zip: OfficePackage): Promise<string | null> {
  const core = relationshipOfType(await readRelationships(zip, ''), 'core-properties')?.path ?? 'docProps/core.xml';
  const text = await zip.readText(core);
  if (text === null) return null;
  const title = descend(parseXml(text), 'title');
  return title === undefined ? null : cleanTitle(textContent(title));
}

/** The parsed XML of a part, or undefined when the archive lacks it. */
export async function readXmlPart(zip: OfficePackage, path: string): Promise<XmlElement | undefined> {
  const text = await zip.readText(path);
  return text === null ? undefined : parseXml(text);
}

/** The `r:id` (relationship id) attribute of an element, whatever its prefix. */
export function relationshipId(element: XmlElement): string | undefined {
  for (const [name, value] of Object.entries(element.attrs)) {
    if (name.includes(':') && name.endsWith(':id')) return value;
  }
  return attrByLocal(element, 'id');
}
