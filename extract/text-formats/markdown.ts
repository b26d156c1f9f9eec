// Markdown → text: the first heading (or front-matter `title:`) is the title; headings, list
// and quote markers, emphasis, code fences, link and image syntax and HTML tags are removed,
// keeping every word a reader sees (link texts, image alt texts, code).

import { decodeEntities } from './html-entities.ts';
import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

/** Splits off YAML (`---`) or TOML (`+++`) front matter. */
function splitFrontMatter(source: string): { front: string | null; body: string } {
  const match = /^(---|\+\+\+)[ \t]*\n([\s\S]*?)\n\1[ \t]*(\n|$)/.exec(source);
  if (match === null) return { front: null, body: source };
  return { front: match[2], body: source.slice(match[0].length) };
}

function inline(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|ftp|mailto):[^>\s]+)>/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/(`+)(.+?)\1/g, '$2')
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '$1')
    .replace(/\*(?=\S)(.+?)(?<=\S)\*/g, '$1')
    // Underscores only at word edges, so snake_case names survive.
    .replace(/(^|[^\p{L}\p{N}_])__(?=\S)(.+?)(?<=\S)__(?![\p{L}\p{N}_])/gu, '$1$2')
    .replace(/(^|[^\p{L}\p{N}_])_(?=\S)(.+?)(?<=\S)_(?![\p{L}\p{N}_])/gu, '$1$2')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}

/** The readable text of a Markdown document. */
export function markdownToText(source: string): TextConversion {
  const { front, body } = splitFrontMatter(source.replace(/\r\n?/g, '\n'));
  let title: string | null = null;
  if (front !== null) {
    const t = /^title\s*[:=]\s*["']?(.*?)["']?\s*$/m.exec(front);
    if (t !== null) title = cleanTitle(t[1]);
  }
  const lines = body.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (fenceMatch !== null && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = null;
      else out.push(line);
      continue;
    }
    if (fenceMatch !== null) {
      fence = fenceMatch[1];
      continue;
    }
    if (/^\s{0,3}\[[^\]]+\]:\s*\S+/.test(line)) continue; // link reference definition
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) continue; // thematic break
    if (/^\s{0,3}(=+|-+)\s*$/.test(line) && out.length > 0 && out[out.length - 1] !== '') {
      if (title === null) title = cleanTitle(out[out.length - 1]); // setext heading underline
      continue;
    }
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) continue; // table rule
    let text = line.replace(/^\s{0,3}(>\s?)+/, '');
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(text);
    if (heading !== null) {
      text = heading[1];
      if (title === null) title = cleanTitle(inline(text));
    }
    text = text.replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '').replace(/\s*\|\s*/g, ' ');
    out.push(inline(text));
  }
  return { title: title === null ? null : decodeEntities(title), text: tidyText(decodeEntities(out.join('\n'))) };
}
