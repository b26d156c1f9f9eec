// XML documents and XML vocabularies read as text: generic XML, SVG, RSS/Atom feeds, XSLT,
// XML Schema, OPML outlines, property lists, KML/GPX geodata, RDF, WSDL. One page each.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { xmlToText } from '../text-formats/xml.ts';
import { onePage, readTextFile } from './text-input.ts';

const FORMATS: FormatInfo[] = [
  { extension: 'xml', mime: 'application/xml', kind: 'markup' },
  { extension: 'svg', mime: 'image/svg+xml', kind: 'markup' },
  { extension: 'rss', mime: 'application/rss+xml', kind: 'markup' },
  { extension: 'atom', mime: 'application/atom+xml', kind: 'markup' },
  { extension: 'xsl', mime: 'application/xslt+xml', kind: 'markup' },
  { extension: 'xslt', mime: 'application/xslt+xml', kind: 'markup' },
  { extension: 'xsd', mime: 'application/xml', kind: 'markup' },
  { extension: 'opml', mime: 'text/x-opml+xml', kind: 'markup' },
  { extension: 'plist', mime: 'application/x-plist', kind: 'markup' },
  { extension: 'kml', mime: 'application/vnd.google-earth.kml+xml', kind: 'markup' },
  { extension: 'gpx', mime: 'application/gpx+xml', kind: 'markup' },
  { extension: 'rdf', mime: 'application/rdf+xml', kind: 'markup' },
  { extension: 'wsdl', mime: 'application/wsdl+xml', kind: 'markup' },
];

export const xmlFamily: FormatFamily = {
  kind: 'xml',
  formats: FORMATS,
  extract(bytes: Uint8Array, format: string): Extraction {
    return onePage(format, xmlToText(readTextFile(bytes)));
  },
};
