// AsciiDoc → text: the document title (`= Title`) is the title; attribute entries, comments,
// block delimiters and attribute lines are removed; link, xref and image macros keep their text.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

const DELIMITER = /^(-{4,}|={4,}|\*{4,}|\.{4,}|_{4,}|\+{4,}|\/{4,}|\|={3,}|-{2})\s*$/;

function inline(line: string): string {
  return line
    .replace(/\b(?:image|video|audio):{1,2}[^[\s]*\[([^\],]*)[^\]]*\]/g, '$1')
    .replace(/\b(?:link|mailto|xref|include|kbd|btn|menu|footnote|pass):[^[\s]*\[([^\]]*)\]/g, '$1')
    .replace(/\b((?:https?|ftp|irc):\/\/[^[\s]+)\[([^\]]*)\]/g, (_m, url: string, text: string) => (text === '' ? url : text))
    .replace(/<<[^,>]+,\s*([^>]+)>>/g, '$1')
    .replace(/<<([^>]+)>>/g, '$1')
    .replace(/\[\[[^\]]*\]\]/g, '')
    .replace(/\{[\w-]+\}/g, '')
    .replace(/(\*\*|__|##|``|\+\+)(.+?)\1/g, '$2')
    .replace(/(^|[^\w])([*_#`+])(?=\S)(.+?)(?<=\S)\2(?!\w)/g, '$1$3')
    .replace(/\s\+$/, '');
}

/** The readable text of an AsciiDoc document. */
export function asciidocToText(source: string): TextConversion {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let title: string | null = null;
  let comment = false;
  for (const line of lines) {
    if (/^\/{4,}\s*$/.test(line)) {
      comment = !comment;
      continue;
    }
    if (comment || /^\/\/(?!\/)/.test(line)) continue;
    if (DELIMITER.test(line)) continue;
    if (/^:!?[\w-]+!?:/.test(line)) {
      const doctitle = /^:(doctitle|title):\s*(.*)$/.exec(line);
      if (doctitle !== null && title === null) title = cleanTitle(doctitle[2]);
      continue;
    }
    if (/^\[[^\]]*\]\s*$/.test(line)) continue; // block attribute line: [source,js], [NOTE]
    let text = line;
    const heading = /^(={1,6}|#{1,6})\s+(.*?)\s*(=*)\s*$/.exec(text);
    if (heading !== null) {
      text = heading[2];
      if (title === null && heading[1].length === 1) title = cleanTitle(inline(text));
    }
    text = text
      .replace(/^\.(?=[^\s.])/, '') // block title
      .replace(/^\s*(\*+|-|\.+|\d+\.)\s+(\[[ x*]\]\s+)?/, '') // list markers
      .replace(/^(NOTE|TIP|IMPORTANT|CAUTION|WARNING):\s+/, '')
      .replace(/^([^:]+)::\s*/, '$1 ') // description list
      .replace(/(^|\s)[a-z]?\|/g, ' '); // table cells
    out.push(inline(text));
  }
  return { title, text: tidyText(out.join('\n')) };
}
