// XML documents and XML vocabularies read as text: generic XML, SVG, RSS/Atom feeds, XSLT,
// XML Schema, OPML outlines, property lists, KML/GPX geodata, RDF, WSDL. One page each.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { formatsOf } from './format-rows.ts';
import { xmlToText } from '../text-formats/xml.ts';
import { onePage, readTextFile } from './text-input.ts';

const FORMATS: FormatInfo[] = formatsOf('markup', [
  ['application/xml', 'xml'],
  ['image/svg+xml', 'svg'],
  ['application/rss+xml', 'rss'],
  ['application/atom+xml', 'atom'],
  ['application/xslt+xml', 'xsl', 'xslt'],
  ['application/xml', 'xsd'],
  ['text/x-opml+xml', 'opml'],
  ['application/x-plist', 'plist'],
  ['application/vnd.google-earth.kml+xml', 'kml'],
  ['application/gpx+xml', 'gpx'],
  ['application/rdf+xml', 'rdf'],
  ['application/wsdl+xml', 'wsdl'],
]);

export const xmlFamily: FormatFamily = {
  kind: 'xml',
  formats: FORMATS,
  extract(bytes: Uint8Array, format: string): Extraction {
    return onePage(format, xmlToText(readTextFile(bytes)));
  },
};
