// HTML/XHTML → text: the <title> (or first <h1>) as title; the body's text without scripts,
// styles, comments or tags; block elements become line breaks; character references decoded.

import { decodeEntities } from './html-entities.ts';
import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

/** Elements whose content is never text for a reader; an unclosed script or style runs to the end. */
const HIDDEN_RAW = ['script', 'style'];
const HIDDEN = ['title', 'template', 'noscript', 'svg', 'math', 'object', 'iframe'];

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr',
  'html', 'legend', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'tr', 'ul',
]);

function firstElementText(html: string, tag: string): string | null {
  const match = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(html);
  if (match === null) return null;
  return cleanTitle(decodeEntities(match[1].replace(/<[^>]*>/g, ' ')));
}

/** Removes every `<name …>…</name>` element (case-insensitive), content included. */
function dropElements(html: string, names: readonly string[], unclosedRunsToEnd: boolean): string {
  let out = html;
  for (const name of names) {
    const end = unclosedRunsToEnd ? `(</${name}\\s*>|$)` : `</${name}\\s*>`;
    out = out.replace(new RegExp(`<${name}\\b[^>]*>[\\s\\S]*?${end}`, 'gi'), ' ');
  }
  return out;
}

/** The visible text of an HTML fragment or document. */
export function htmlToText(html: string): TextConversion {
  const withoutComments = html
    .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/<![^>]*>/g, ' ')
    .replace(/<\?[\s\S]*?\?>/g, ' ');
  const title = firstElementText(withoutComments, 'title') ?? firstElementText(withoutComments, 'h1');
  const visible = dropElements(dropElements(withoutComments, HIDDEN_RAW, true), HIDDEN, false);
  const text = visible.replace(/<\/?([A-Za-z][A-Za-z0-9-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*>/g, (tag, name: string) => {
    const lower = name.toLowerCase();
    if (lower === 'td' || lower === 'th') return '\t';
    if (lower === 'img') {
      const alt = /\balt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
      return alt !== null ? ` ${alt[2] ?? alt[3] ?? ''} ` : ' ';
    }
    return BLOCK.has(lower) ? '\n' : '';
  });
  // Block boundaries pile up newlines; one line break between blocks reads best.
  return { title, text: tidyText(decodeEntities(text)).replace(/\n{2,}/g, '\n') };
}
