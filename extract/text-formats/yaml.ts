// YAML → text without a YAML parser: a line-based reading that keeps keys, scalar values,
// list items and block scalars (`|`, `>`) and drops comments, document markers, anchors,
// aliases and tags. A top-level `title:` is the title.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

/** Removes a trailing ` # comment` that is outside quotes. */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  return line;
}

function scalar(raw: string): string {
  let value = raw.trim().replace(/^(?:[&*][\w-]+|!![\w]+|![\w!-]*)\s*/g, '').trim();
  if (/^\*[\w-]+$/.test(value)) return '';
  if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
    value = value.slice(1, -1);
  }
  return value.replace(/[[\]{},]/g, ' ').replace(/\\n/g, '\n');
}

/** The readable text of a YAML document. */
export function yamlToText(source: string): TextConversion {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let title: string | null = null;
  let blockIndent = -1; // inside a block scalar: lines indented more than this belong to it
  for (const line of lines) {
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    if (blockIndent >= 0) {
      if (line.trim() === '' || indent > blockIndent) {
        out.push(line.trim());
        continue;
      }
      blockIndent = -1;
    }
    const content = stripComment(line).trimEnd();
    if (content.trim() === '' || /^(---|\.\.\.)(\s|$)/.test(content) || /^%/.test(content)) continue;
    const item = /^(\s*)((?:-\s+)*)(.*)$/.exec(content);
    const rest = item?.[3] ?? content.trim();
    const keyValue = /^("[^"]*"|'[^']*'|[^:#][^:]*?)\s*:(?:\s+(.*)|$)/.exec(rest);
    if (keyValue !== null) {
      const key = scalar(keyValue[1]);
      const value = keyValue[2] ?? '';
      out.push(key);
      if (/^[|>][-+0-9]*$/.test(value.trim())) blockIndent = indent + (item?.[2].length ?? 0);
      else if (value.trim() !== '') {
        const text = scalar(value);
        out.push(text);
        if (indent === 0 && key.toLowerCase() === 'title' && title === null) title = cleanTitle(text);
      }
    } else if (/^[|>][-+0-9]*$/.test(rest.trim())) {
      blockIndent = indent;
    } else {
      out.push(scalar(rest));
    }
  }
  return { title, text: tidyText(out.join('\n')) };
}
