// TOML → text without a TOML parser: table headers, keys and values (strings unquoted,
// multi-line strings kept whole, arrays flattened), comments dropped. A top-level `title`
// string is the title.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

/** The strings and bare values of a TOML value expression, as words. */
function valueText(raw: string): string {
  const parts: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"',[\]{}=#]+)|#.*$/g;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    if (m[1] !== undefined) parts.push(m[1].replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\(["\\])/g, '$1'));
    else if (m[2] !== undefined) parts.push(m[2]);
    else if (m[3] !== undefined) parts.push(m[3]);
  }
  return parts.join(' ');
}

/** The readable text of a TOML document. */
export function tomlToText(source: string): TextConversion {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let title: string | null = null;
  let inTable = false;
  let multiline: string | null = null; // the closing delimiter of an open multi-line string
  for (const line of lines) {
    if (multiline !== null) {
      const end = line.indexOf(multiline);
      out.push(end < 0 ? line : line.slice(0, end));
      if (end >= 0) multiline = null;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const table = /^\[\[?\s*([^\]]+?)\s*\]\]?/.exec(trimmed);
    if (table !== null) {
      inTable = true;
      out.push(table[1].replace(/["']/g, '').replace(/\./g, ' '));
      continue;
    }
    const keyValue = /^("[^"]*"|'[^']*'|[\w.-]+(?:\s*\.\s*[\w-]+)*)\s*=\s*(.*)$/.exec(trimmed);
    if (keyValue === null) {
      out.push(valueText(trimmed)); // continuation of a multi-line array
      continue;
    }
    const key = keyValue[1].replace(/["']/g, '');
    const value = keyValue[2];
    out.push(key.replace(/\./g, ' '));
    const open = /^("""|''')([\s\S]*)$/.exec(value);
    if (open !== null) {
      const close = open[2].indexOf(open[1]);
      if (close >= 0) out.push(open[2].slice(0, close));
      else {
        out.push(open[2]);
        multiline = open[1];
      }
      continue;
    }
    const text = valueText(value);
    out.push(text);
    if (!inTable && key === 'title' && title === null) title = cleanTitle(text);
  }
  return { title, text: tidyText(out.join('\n')) };
}
