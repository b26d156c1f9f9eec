// XML (and XML vocabularies: SVG, RSS, Atom, KML, GPX…) → text: the character data of every
// element, CDATA included, without comments, processing instructions or the DOCTYPE; the first
// <title> element (any namespace prefix) is the title.

import { decodeEntities } from './html-entities.ts';
import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

/** The text content of an XML document. Elements are separated by line breaks. */
export function xmlToText(xml: string): TextConversion {
  const cdata: string[] = [];
  const stripped = xml
    .replace(/<!\[CDATA\[([\s\S]*?)(\]\]>|$)/g, (_m, body: string) => {
      cdata.push(body);
      return `\u0000${cdata.length - 1}\u0000`;
    })
    .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
    .replace(/<\?[\s\S]*?(\?>|$)/g, ' ')
    .replace(/<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>/gi, ' ')
    // Elements holding styles or scripts (SVG, XHTML inside XML) carry no readable text.
    .replace(/<((?:\w+:)?(?:style|script))\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ');
  const restore = (s: string): string => s.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => cdata[Number(i)]);
  const titleMatch = /<((?:[\w.-]+:)?title)\b[^>]*>([\s\S]*?)<\/\1\s*>/i.exec(stripped);
  const title = titleMatch === null ? null : cleanTitle(restore(decodeEntities(titleMatch[2].replace(/<[^>]*>/g, ' '))));
  const parts = stripped.split(/<(?:[^>"']|"[^"]*"|'[^']*')*>/g);
  const text = parts.map((part) => restore(decodeEntities(part))).join('\n');
  return { title, text: tidyText(text) };
}
