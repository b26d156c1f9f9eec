// INI-style configuration (ini, cfg, conf) and Java .properties → text: section names, keys
// and values; comments dropped; .properties escapes and line continuations undone.

import { tidyText, type TextConversion } from './tidy.ts';

/** The readable text of an INI/cfg/conf file. */
export function iniToText(source: string): TextConversion {
  const out: string[] = [];
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith(';') || trimmed.startsWith('#')) continue;
    const section = /^\[\s*(.*?)\s*\]$/.exec(trimmed);
    if (section !== null) {
      out.push(section[1]);
      continue;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(trimmed);
    if (pair === null) {
      out.push(trimmed);
      continue;
    }
    const value = pair[2].replace(/\s+[;#].*$/, '').replace(/^(["'])(.*)\1$/, '$2');
    out.push(`${pair[1]} ${value}`);
  }
  return { title: null, text: tidyText(out.join('\n')) };
}

function unescapeProperties(text: string): string {
  return text.replace(/\\(u[0-9A-Fa-f]{4}|.)/g, (_m, e: string) => {
    if (e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '', f: '' } as Record<string, string>)[e] ?? e;
  });
}

/** The readable text of a Java .properties file. */
export function propertiesToText(source: string): TextConversion {
  // A line ending in an odd number of backslashes continues on the next line.
  const joined = source.replace(/\r\n?/g, '\n').replace(/(?<!\\)((?:\\\\)*)\\\n[ \t\f]*/g, '$1');
  const out: string[] = [];
  for (const line of joined.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('!')) continue;
    const pair = /^((?:\\.|[^=:\s\\])+)\s*(?:[=:]\s*|\s+|$)(.*)$/.exec(trimmed);
    if (pair === null) out.push(unescapeProperties(trimmed));
    else out.push(`${unescapeProperties(pair[1])} ${unescapeProperties(pair[2])}`);
  }
  return { title: null, text: tidyText(out.join('\n')) };
}
