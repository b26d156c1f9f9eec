// LaTeX → text: `\title{…}` (or the first sectioning command) is the title; comments, math,
// preamble and reference commands are dropped, text-carrying commands keep their argument.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

/** Commands dropped together with all their arguments. */
const DROP_WITH_ARGS = new Set([
  'documentclass', 'usepackage', 'RequirePackage', 'label', 'ref', 'eqref', 'pageref', 'cite', 'citep', 'citet',
  'nocite', 'includegraphics', 'bibliography', 'bibliographystyle', 'input', 'include', 'newcommand',
  'renewcommand', 'providecommand', 'newenvironment', 'renewenvironment', 'setlength', 'addtolength',
  'setcounter', 'addtocounter', 'vspace', 'hspace', 'pagestyle', 'thispagestyle', 'geometry', 'hypersetup',
  'definecolor', 'color', 'DeclareMathOperator', 'graphicspath', 'def', 'let', 'pagenumbering', 'newtheorem',
]);

/** Commands that start a new line (their argument is kept). */
const BREAKS = new Set([
  'part', 'chapter', 'section', 'subsection', 'subsubsection', 'paragraph', 'subparagraph', 'item', 'par',
  'title', 'author', 'date', 'caption', 'newline', 'linebreak', 'maketitle', 'tableofcontents', 'newpage',
  'clearpage', 'footnote', 'bibitem',
]);

const MATH_ENVIRONMENTS = /^(equation|align|alignat|gather|multline|flalign|eqnarray|displaymath|math|comment)\*?$/;

const SYMBOLS: Record<string, string> = {
  '\\': '\n', '&': '&', '%': '%', $: '$', '#': '#', _: '_', '{': '{', '}': '}', ' ': ' ', ',': ' ', ';': ' ',
  '!': '', '-': '', '/': '', '@': '', ldots: '…', dots: '…', textendash: '–', textemdash: '—', LaTeX: 'LaTeX',
  TeX: 'TeX', ss: 'ß', ae: 'æ', oe: 'œ', o: 'ø', aa: 'å', S: '§', P: '¶', copyright: '©', quad: ' ', qquad: ' ',
};

/** The balanced `{…}` group starting at `at` (which must be `{`); returns its end (exclusive). */
function groupEnd(src: string, at: number, open = '{', close = '}'): number {
  let depth = 0;
  for (let i = at; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === open) depth++;
    else if (src[i] === close && --depth === 0) return i + 1;
  }
  return src.length;
}

/** Skips spaces, then any `[…]` and `{…}` argument groups. */
function skipArguments(src: string, at: number): number {
  let i = at;
  for (;;) {
    let j = i;
    while (j < src.length && (src[j] === ' ' || src[j] === '*')) j++;
    if (src[j] === '{') i = groupEnd(src, j);
    else if (src[j] === '[') i = groupEnd(src, j, '[', ']');
    else return i;
  }
}

function stripComments(src: string): string {
  return src.replace(/(^|[^\\])%.*$/gm, '$1');
}

function findTitle(src: string): string | null {
  for (const command of ['title', 'chapter', 'section']) {
    const at = src.search(new RegExp(`\\\\${command}\\*?\\s*(\\[[^\\]]*\\])?\\s*\\{`));
    if (at < 0) continue;
    const open = src.indexOf('{', at);
    const body = src.slice(open + 1, groupEnd(src, open) - 1);
    return cleanTitle(convert(body));
  }
  return null;
}

function convert(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      const name = /^[A-Za-z@]+/.exec(src.slice(i + 1, i + 40))?.[0] ?? src[i + 1] ?? '';
      let next = i + 1 + name.length;
      if (name === '[' || name === '(') {
        const end = src.indexOf(name === '[' ? '\\]' : '\\)', next);
        i = end < 0 ? src.length : end + 2;
        out += ' ';
        continue;
      }
      if (name === 'begin' || name === 'end') {
        const env = /^\s*\{([^}]*)\}/.exec(src.slice(next));
        if (env !== null && name === 'begin' && MATH_ENVIRONMENTS.test(env[1])) {
          const end = src.indexOf(`\\end{${env[1]}}`, next);
          i = end < 0 ? src.length : end + `\\end{${env[1]}}`.length;
          out += '\n';
          continue;
        }
        i = env !== null ? next + env[0].length : next;
        if (name === 'begin') i = skipArguments(src, i);
        out += '\n';
        continue;
      }
      if (DROP_WITH_ARGS.has(name)) {
        i = skipArguments(src, next);
        continue;
      }
      if (name === 'verb') {
        const delimiter = src[next];
        const end = src.indexOf(delimiter, next + 1);
        out += src.slice(next + 1, end < 0 ? src.length : end);
        i = end < 0 ? src.length : end + 1;
        continue;
      }
      if (SYMBOLS[name] !== undefined) out += SYMBOLS[name];
      else if (BREAKS.has(name)) out += '\n';
      // A letter command's optional argument is never text here; a space after it is swallowed.
      if (/^[A-Za-z]/.test(name)) {
        while (src[next] === ' ' || src[next] === '*') next++;
        if (src[next] === '[') next = groupEnd(src, next, '[', ']');
      }
      i = next;
      continue;
    }
    if (c === '$') {
      const double = src[i + 1] === '$';
      const end = src.indexOf(double ? '$$' : '$', i + (double ? 2 : 1));
      i = end < 0 ? src.length : end + (double ? 2 : 1);
      out += ' ';
      continue;
    }
    if (c === '{' || c === '}') out += '';
    else if (c === '~') out += ' ';
    else if (c === '&') out += ' ';
    else out += c;
    i++;
  }
  return out.replace(/``|''/g, '"').replace(/---/g, '—').replace(/--/g, '–');
}

/** The readable text of a LaTeX document. */
export function latexToText(source: string): TextConversion {
  const src = stripComments(source.replace(/\r\n?/g, '\n'));
  return { title: findTitle(src), text: tidyText(convert(src)) };
}
