// Org-mode → text: `#+TITLE:` (or the first headline) is the title; keywords, drawers, block
// markers and comments are removed; headlines lose their stars, links keep their description.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

function inline(line: string): string {
  return line
    .replace(/\[\[[^\]]*\]\[([^\]]*)\]\]/g, '$1')
    .replace(/\[\[([^\]]*)\]\]/g, '$1')
    .replace(/(^|[\s(\-'"{])([*/_=~+])(?=\S)(.+?)(?<=\S)\2(?=$|[\s)\-.,:;!?'"}])/g, '$1$3');
}

/** The readable text of an Org document. */
export function orgToText(source: string): TextConversion {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let title: string | null = null;
  let firstHeadline: string | null = null;
  let drawer = false;
  let commentBlock = false;
  for (const line of lines) {
    if (commentBlock) {
      if (/^\s*#\+end_comment\b/i.test(line)) commentBlock = false;
      continue;
    }
    if (/^\s*#\+begin_comment\b/i.test(line)) {
      commentBlock = true;
      continue;
    }
    if (drawer) {
      if (/^\s*:END:\s*$/i.test(line)) drawer = false;
      continue;
    }
    if (/^\s*:[\w-]+:\s*$/.test(line)) {
      drawer = true;
      continue;
    }
    const keyword = /^\s*#\+(\w+):\s*(.*)$/.exec(line);
    if (keyword !== null) {
      const key = keyword[1].toLowerCase();
      if (key === 'title' && title === null) title = cleanTitle(keyword[2]);
      if (['title', 'subtitle', 'author', 'caption', 'description'].includes(key)) out.push(inline(keyword[2]));
      continue;
    }
    if (/^\s*#\+/.test(line) || /^\s*#(\s|$)/.test(line)) continue; // block markers, comments
    if (/^\s*(CLOSED|SCHEDULED|DEADLINE):/.test(line)) continue;
    let text = line;
    const headline = /^\*+\s+(?:(?:TODO|DONE|NEXT|WAITING|CANCELLED)\s+)?(?:\[#[A-Z]\]\s+)?(.*?)(\s+:[\w@#%:]+:)?\s*$/.exec(text);
    if (headline !== null) {
      text = headline[1];
      if (firstHeadline === null) firstHeadline = cleanTitle(inline(text));
    }
    text = text.replace(/^\s*([-+]|\d+[.)])\s+(\[[ X-]\]\s+)?/, '');
    if (/^\s*\|[-+]+\|?\s*$/.test(text)) continue; // table rule
    out.push(inline(text.replace(/\|/g, ' ')));
  }
  return { title: title ?? firstHeadline, text: tidyText(out.join('\n')) };
}
