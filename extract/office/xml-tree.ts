// A small element tree over fast-xml-parser's ordered output, for reading the XML parts of
// office files: elements with their local name (prefix dropped), attributes and children in
// document order. Entities are decoded here (the five XML ones and character references);
// DOCTYPE-declared entities are left alone, so no entity expansion can blow up.

import { XMLParser } from 'fast-xml-parser';

export interface XmlElement {
  /** The qualified name as written, e.g. `w:p`. */
  name: string;
  /** The name without its namespace prefix, e.g. `p`. */
  local: string;
  /** Attributes by qualified name, values decoded. */
  attrs: Record<string, string>;
  children: XmlChild[];
}

/** An element or a run of character data (already decoded). */
export type XmlChild = XmlElement | string;

const CDATA = '__cdata';

const parser = new XMLParser({
  preserveOrder: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: false,
  cdataPropName: CDATA,
});

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the predefined XML entities and numeric character references. */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref];
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (!Number.isFinite(code) || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
    return String.fromCodePoint(code);
  });
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

type RawNode = Record<string, unknown>;

function convert(nodes: unknown): XmlChild[] {
  const out: XmlChild[] = [];
  if (!Array.isArray(nodes)) return out;
  for (const node of nodes as RawNode[]) {
    for (const key of Object.keys(node)) {
      if (key === ':@') continue;
      const value = node[key];
      if (key === '#text') {
        out.push(decodeXmlEntities(String(value)));
      } else if (key === CDATA) {
        // CDATA is literal: its text is not entity-decoded.
        if (Array.isArray(value)) for (const part of value as RawNode[]) if (part['#text'] !== undefined) out.push(String(part['#text']));
      } else {
        const rawAttrs = (node[':@'] ?? {}) as Record<string, unknown>;
        const attrs: Record<string, string> = {};
        for (const [attr, attrValue] of Object.entries(rawAttrs)) attrs[attr] = decodeXmlEntities(String(attrValue));
        out.push({ name: key, local: localName(key), attrs, children: convert(value) });
      }
    }
  }
  return out;
}

/** The root element of an XML document; throws when there is none. */
export function parseXml(text: string): XmlElement {
  let nodes: unknown;
  try {
    nodes = parser.parse(text);
  } catch (error) {
    throw new Error(`malformed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const root = convert(nodes).find((child): child is XmlElement => typeof child !== 'string');
  if (root === undefined) throw new Error('malformed XML: no root element');
  return root;
}

/** The element's child elements, optionally only those with a given local name. */
export function childElements(element: XmlElement, local?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child !== 'string' && (local === undefined || child.local === local)) out.push(child);
  }
  return out;
}

/** The first child element with this local name, or undefined. */
export function firstChild(element: XmlElement, local: string): XmlElement | undefined {
  for (const child of element.children) if (typeof child !== 'string' && child.local === local) return child;
  return undefined;
}

/** Follows a path of local names from an element (`descend(root, 'body', 'text')`). */
export function descend(element: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let at = element;
  for (const local of path) {
    if (at === undefined) return undefined;
    at = firstChild(at, local);
  }
  return at;
}

/** Every descendant element with this local name, in document order (not inside a match). */
export function findAll(element: XmlElement, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlChild[] = [...element.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (node.local === local) out.push(node);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}

/** An attribute by its local name (any prefix), or undefined. */
export function attrByLocal(element: XmlElement, local: string): string | undefined {
  if (element.attrs[local] !== undefined) return element.attrs[local];
  for (const [name, value] of Object.entries(element.attrs)) if (localName(name) === local) return value;
  return undefined;
}

/** All character data inside an element, concatenated. */
export function textContent(element: XmlElement): string {
  let out = '';
  const stack: XmlChild[] = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') out += node;
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}
