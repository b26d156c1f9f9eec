// reStructuredText → text: the first section title is the title; adornment lines, directive
// markers, hyperlink targets, roles and inline markup are removed, words kept.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

const ADORNMENT = /^([=\-`:'"~^_*+#<>.!$%&(),/;?@[\\\]{|}])\1{2,}\s*$/;

function inline(line: string): string {
  return line
    .replace(/:[\w.+-]+:`([^`<]*?)\s*(<[^>]*>)?`/g, '$1') // :role:`text <target>`
    .replace(/`([^`<]+?)\s*<[^>]*>`__?/g, '$1') // `text <url>`_
    .replace(/`([^`]+)`__?/g, '$1') // `reference`_
    .replace(/``(.+?)``/g, '$1')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/\*(.+?)\*/g, '$1')
    .replace(/`(.+?)`/g, '$1')
    .replace(/\|([^|\s][^|]*)\|_?/g, '$1')
    .replace(/\b(\w+)__?(?=\W|$)/g, '$1')
    .replace(/\[(#|\*|\d+|#?[\w-]+)\]_/g, '')
    .replace(/\\(.)/g, '$1');
}

/** The readable text of a reStructuredText document. */
export function restructuredTextToText(source: string): TextConversion {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let title: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (ADORNMENT.test(line)) {
      const previous = i > 0 ? lines[i - 1].trim() : '';
      if (title === null && previous !== '' && !ADORNMENT.test(previous) && line.trim().length >= previous.length) {
        title = cleanTitle(inline(previous));
      }
      continue;
    }
    if (/^\.\.\s+_[^:]*:/.test(line)) continue; // hyperlink target
    if (/^\.\.\s+\|[^|]+\|\s+\w[\w-]*::/.test(line)) continue; // substitution definition
    const directive = /^(\s*)\.\.\s+[\w:-]+::\s*(.*)$/.exec(line);
    if (directive !== null) {
      if (!/^(image|figure|include|raw|code-block|code|sourcecode|toctree|highlight|literalinclude)$/.test(line.trim().split(/\s+/)[1].replace(/::$/, ''))) {
        out.push(inline(directive[2]));
      }
      continue;
    }
    const footnote = /^\.\.\s+\[[^\]]+\]\s*(.*)$/.exec(line);
    if (footnote !== null) {
      out.push(inline(footnote[1]));
      continue;
    }
    if (/^\s*:[\w ]+:\s*$/.test(line) && /^\s+:/.test(line)) continue; // directive option without value
    let text = line.replace(/^\s*:([^:]+):\s+/, '$1 '); // field list: keep the name as a word
    text = text.replace(/^\s*([-*+•]|\d+[.)]|#\.)\s+/, '').replace(/::\s*$/, ':');
    if (/^\s*\+[-=+]+\+\s*$/.test(text)) continue; // grid table border
    out.push(inline(text.replace(/\s\|\s|^\s*\||\|\s*$/g, ' ')));
  }
  return { title, text: tidyText(out.join('\n')) };
}
