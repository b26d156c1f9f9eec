// Markup documents: Markdown, reStructuredText, AsciiDoc, Org, LaTeX and HTML. Each is one
// page of readable text with the document's own title (first heading, <title>, \title…).

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { asciidocToText } from '../text-formats/asciidoc.ts';
import { htmlToText } from '../text-formats/html.ts';
import { latexToText } from '../text-formats/latex.ts';
import { markdownToText } from '../text-formats/markdown.ts';
import { orgToText } from '../text-formats/org.ts';
import { restructuredTextToText } from '../text-formats/restructuredtext.ts';
import type { TextConversion } from '../text-formats/tidy.ts';
import { decodeHtmlBytes } from './html-input.ts';
import { onePage, readTextFile } from './text-input.ts';

type Converter = (source: string) => TextConversion;

const TABLE: ReadonlyArray<[string, string, Converter]> = [
  ['md', 'text/markdown', markdownToText],
  ['markdown', 'text/markdown', markdownToText],
  ['mkd', 'text/markdown', markdownToText],
  ['mdown', 'text/markdown', markdownToText],
  ['rst', 'text/x-rst', restructuredTextToText],
  ['adoc', 'text/asciidoc', asciidocToText],
  ['asciidoc', 'text/asciidoc', asciidocToText],
  ['org', 'text/org', orgToText],
  ['tex', 'text/x-tex', latexToText],
  ['latex', 'text/x-tex', latexToText],
  ['ltx', 'text/x-tex', latexToText],
  ['html', 'text/html', htmlToText],
  ['htm', 'text/html', htmlToText],
  ['xhtml', 'application/xhtml+xml', htmlToText],
];

const CONVERTERS = new Map(TABLE.map(([extension, , convert]) => [extension, convert]));
const HTML = new Set(['html', 'htm', 'xhtml']);

export const markupFamily: FormatFamily = {
  kind: 'markup',
  formats: TABLE.map(([extension, mime]): FormatInfo => ({ extension, mime, kind: 'markup' })),
  extract(bytes: Uint8Array, format: string): Extraction {
    const convert = CONVERTERS.get(format);
    if (convert === undefined) throw new Error(`the markup family does not read ${format}`);
    const source = HTML.has(format) ? decodeHtmlBytes(bytes) : readTextFile(bytes);
    return onePage(format, convert(source));
  },
};
