// Markup documents: Markdown, reStructuredText, AsciiDoc, Org, LaTeX and HTML. Each is one
// page of readable text with the document's own title (first heading, <title>, \title…).

import type { FormatFamily } from '../extraction.ts';
import { asciidocToText } from '../text-formats/asciidoc.ts';
import { htmlToText } from '../text-formats/html.ts';
import { latexToText } from '../text-formats/latex.ts';
import { markdownToText } from '../text-formats/markdown.ts';
import { orgToText } from '../text-formats/org.ts';
import { restructuredTextToText } from '../text-formats/restructuredtext.ts';
import { decodeHtmlBytes } from './html-input.ts';
import { convertingFamily, readTextFile } from './text-input.ts';
import type { ConverterTable } from './text-input.ts';

const TABLE: ConverterTable = [
  [markdownToText, 'text/markdown', 'md', 'markdown', 'mkd', 'mdown'],
  [restructuredTextToText, 'text/x-rst', 'rst'],
  [asciidocToText, 'text/asciidoc', 'adoc', 'asciidoc'],
  [orgToText, 'text/org', 'org'],
  [latexToText, 'text/x-tex', 'tex', 'latex', 'ltx'],
  [htmlToText, 'text/html', 'html', 'htm'],
  [htmlToText, 'application/xhtml+xml', 'xhtml'],
];

const HTML = new Set(['html', 'htm', 'xhtml']);

/** HTML is decoded as a browser would (its meta charset); the rest as text files. */
export const markupFamily: FormatFamily = convertingFamily('markup', TABLE, (bytes, format) => (HTML.has(format) ? decodeHtmlBytes(bytes) : readTextFile(bytes)));
