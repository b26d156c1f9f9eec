// Judged queries for the page-retrieval benchmark (benchmarks/pages.ts), made from the PDFs
// that benchmarks/pages-corpus.sh collected: run by that script, not by hand.
//
//   npx tsx benchmarks/pages-judgments.ts <corpus dir> <recipe version>
//
// Each PDF's outline (bookmarks) gives section titles and the page each one points to
// (pdf.js getOutline, getDestination, getPageIndex). A title becomes a query, and its judged
// answer is that document at the page where the section starts, plus the next page when the
// bookmark points into the bottom fifth of its page (the heading is at the very bottom, so the
// section's text is on the next page). A title is kept only when it is distinctive:
// - not generic ("Introduction", "Index", "More examples": every word generic or a stop word),
// - the same title (numbering stripped, case folded) is in no other outline entry of the corpus,
// - every one of its words occurs on the judged pages (the bookmark really points at it),
// - a one-word title's word occurs in at most 3 of the corpus's documents,
// - 1 to 8 words, at most 80 characters, not pointing at page 1, and not one of several
//   overloads with the same name (Doxygen's "[1/2]").
// Queries are then drawn round-robin over the documents in a seeded order, up to
// QUERY_TARGET. Two queries from issue 14 are added for gnuplot.pdf: `histogram` (the
// histogram section's first page and the following ones that still use the word) and
// `"set logscale"` (every page with the phrase).
//
// Each query also carries section_pages, a looser judgment: the section's pages up to where the
// next bookmark begins (at most 10), so a hit on the section's second page can be told apart
// from one on an unrelated page (the table of contents, the index).
//
// Writes queries.jsonl ({ id, q, title, doc, pages, start_page, section_pages, kind, recipe }),
// pages-text.jsonl.gz ({ doc, page, text } per PDF page, as pdf.js reads it: the peer's text) and
// manifest.json.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';

/** Queries drawn in all (before the two). */
const QUERY_TARGET = 300;
/** A bookmark whose top is in the lowest BOTTOM_SHARE of its page also judges the next page. */
const BOTTOM_SHARE = 0.2;
/** A bookmark whose top is above this share of its page height starts at the very top. */
const TOP_SHARE = 0.85;
/** A section spans at most this many pages in the looser judgment. */
const MAX_SECTION_PAGES = 10;
const MAX_TITLE_WORDS = 8;
const MAX_TITLE_CHARS = 80;
/** A one-word title is kept only when its word is in at most this many documents. */
const MAX_DOCS_FOR_ONE_WORD = 3;
const SEED = 'folio-pages-1';

const STOP_WORDS = new Set(
  'a an and are as at be by for from how in into is it its of on or the this to with what when where which who why your you vs via'.split(' '),
);
/** Words that say nothing about a section on their own. */
const GENERIC_WORDS = new Set(
  `introduction index indices contents content table preface overview summary references reference
  bibliography acknowledgements acknowledgments appendix appendices example examples usage
  description syntax argument arguments value values details see also note notes option options
  synopsis author authors license licence copying foreword conclusion conclusions general basics basic
  background motivation abstract credits history changes news faq glossary getting started start
  installation install installing requirements configuration features limitations bugs bug known
  reporting further reading concept concepts function functions variable variables program programs
  list figures tables title page front matter cover copyright about document documentation tutorial
  quick top main more other others misc miscellaneous simple advanced additional new old using use
  some various definitions definition specific special common first second third part chapter
  section sections command commands type types data file files format formats output input errors
  error operators operator methods method keywords keyword notation conventions terminology
  remarks comments questions answers problems problem solutions solution topics topic
  miscellany contributors thanks prerequisites setup usage help version versions what
  man manual guide user users`
    .split(/\s+/)
    .filter(Boolean),
);

interface PdfPageInfo {
  page: number;
  text: string;
  tokens: Set<string>;
}

interface OutlineEntry {
  title: string;
  /** 1-based page the bookmark points at. */
  page: number;
  /** Share of the page height from the bottom to the bookmark's top, or null when unknown. */
  heightShare: number | null;
}

/** One judged query as the JSONL holds it (benchmarks/pages.ts reads them). */
export interface JudgedQuery {
  id: string;
  q: string;
  title: string;
  doc: string;
  pages: number[];
  start_page: number;
  /** The section's pages: from its start to where the next bookmark begins (a looser judgment). */
  section_pages: number[];
  kind: 'outline' | 'issue';
  recipe: number;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

async function loadPdfJs(): Promise<PdfJs> {
  await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}

function pdfjsFolder(name: string): string {
  return `${dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/${name}/`;
}

/** Words of a text: NFKC, lower case, runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** "3.2.1 Foo bar" → "Foo bar"; "Chapter 4: Foo" → "Foo"; "A.1 Foo" → "Foo". */
export function stripNumbering(title: string): string {
  return title
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:chapter|appendix|section|part)\s+[0-9A-Z]+[.:]?\s+/i, '')
    .replace(/^(?:[0-9]+|[A-Z])(?:\.[0-9]+)+\.?\s+/, '')
    .replace(/^[0-9]+\.?\s+/, '')
    .replace(/^[IVX]+\.\s+/, '')
    .trim();
}

/**
 * What a user would type for a title: words and the punctuation inside them (`R_LIBS`,
 * `node.js`, `C++`) kept, query syntax at a word's edges (quotes, a leading + or -, a
 * trailing :, *, parentheses) dropped, so no title turns into an operator.
 */
export function queryOf(title: string): string {
  return title
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+/u, '').replace(/[^\p{L}\p{N}+#]+$/u, ''))
    .map((word) => word.replaceAll('"', '').replaceAll('*', '').replaceAll('(', ' ').replaceAll(')', ' ').trim())
    .filter((word) => word !== '')
    .join(' ');
}

/** The page text from pdf.js items: a line break at end-of-line marks or baseline jumps, a space at visible gaps. */
function joinItems(items: Array<{ str: string; hasEOL: boolean; transform: number[]; width: number; height: number }>): string {
  let text = '';
  let previous: (typeof items)[number] | null = null;
  for (const item of items) {
    if (item.str === '') {
      if (item.hasEOL) text += '\n';
      continue;
    }
    if (previous !== null && !previous.hasEOL) {
      const size = Math.max(previous.height, item.height, 1);
      const [, , , , px = 0, py = 0] = previous.transform;
      const [, , , , nx = 0, ny = 0] = item.transform;
      if (Math.abs(ny - py) > size * 0.5) text += '\n';
      else if (!/\s$/.test(previous.str) && !/^\s/.test(item.str)) {
        const gap = nx - (px + previous.width);
        if (gap > size * 0.15 || gap < -size) text += ' ';
      }
    } else if (previous !== null) text += '\n';
    text += item.str;
    previous = item;
  }
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').replace(/[ \t]+\n/g, '\n').trim();
}

async function readPdf(
  pdfjs: PdfJs,
  file: string,
): Promise<{ pages: PdfPageInfo[]; outline: OutlineEntry[] }> {
  const document = await pdfjs.getDocument({
    data: new Uint8Array(readFileSync(file)),
    standardFontDataUrl: pdfjsFolder('standard_fonts'),
    cMapUrl: pdfjsFolder('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfjsFolder('wasm'),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: PdfPageInfo[] = [];
    const heights: Array<[number, number]> = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const items = content.items.filter((item): item is typeof item & { str: string; hasEOL: boolean; transform: number[]; width: number; height: number } => 'str' in item);
      const text = joinItems(items);
      pages.push({ page: number, text, tokens: new Set(wordsOf(text)) });
      heights.push([page.view[1], page.view[3]]);
      page.cleanup();
    }
    const outline: OutlineEntry[] = [];
    const walk = async (items: Awaited<ReturnType<typeof document.getOutline>>): Promise<void> => {
      for (const item of items ?? []) {
        let dest: unknown = item.dest;
        try {
          if (typeof dest === 'string') dest = await document.getDestination(dest);
          if (Array.isArray(dest) && dest.length > 0) {
            const target = dest[0];
            const index =
              typeof target === 'number' ? target : target !== null && typeof target === 'object' ? await document.getPageIndex(target) : null;
            if (index !== null && index >= 0 && index < document.numPages) {
              const kind = (dest[1] as { name?: string } | null)?.name;
              const top = kind === 'XYZ' ? dest[3] : kind === 'FitH' || kind === 'FitBH' ? dest[2] : null;
              const [bottom, upper] = heights[index];
              const heightShare = typeof top === 'number' && upper > bottom ? (top - bottom) / (upper - bottom) : null;
              outline.push({ title: item.title, page: index + 1, heightShare });
            }
          }
        } catch {
          // a bookmark pointing nowhere is skipped
        }
        await walk(item.items);
      }
    };
    await walk(await document.getOutline());
    return { pages, outline };
  } finally {
    await document.destroy();
  }
}

/**
 * A section's pages: its judged pages, then on to where the next bookmark (in outline order: a
 * subsection or the next section) begins, that page included unless the bookmark is at the
 * very top of it; at most MAX_SECTION_PAGES.
 */
function sectionPages(judged: number[], next: OutlineEntry | undefined): number[] {
  const start = judged[0];
  let end = judged[judged.length - 1];
  if (next !== undefined && next.page > end) {
    end = next.heightShare !== null && next.heightShare > TOP_SHARE ? next.page - 1 : next.page;
  }
  end = Math.max(judged[judged.length - 1], Math.min(end, start + MAX_SECTION_PAGES - 1));
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Pages whose text has the words of `phrase` next to each other, in order. */
function pagesWithPhrase(pages: PdfPageInfo[], phrase: string): number[] {
  const wanted = wordsOf(phrase).join(' ');
  return pages.filter((page) => ` ${wordsOf(page.text).join(' ')} `.includes(` ${wanted} `)).map((page) => page.page);
}

async function main(): Promise<void> {
  const [corpus, recipeArg] = process.argv.slice(2);
  if (corpus === undefined || recipeArg === undefined) {
    console.error('usage: tsx benchmarks/pages-judgments.ts <corpus dir> <recipe version>');
    process.exit(2);
  }
  const recipe = Number(recipeArg);
  const filesDir = join(corpus, 'files');
  const sources = new Map(
    readFileSync(join(corpus, 'sources.tsv'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'))
      .map(([file, pkg, path]) => [file, { package: pkg, path }]),
  );
  const pdfjs = await loadPdfJs();
  const docs = new Map<string, { pages: PdfPageInfo[]; outline: OutlineEntry[] }>();
  const manifest: Array<Record<string, unknown>> = [];
  const pageLines: string[] = [];
  for (const file of readdirSync(filesDir).sort()) {
    const bytes = readFileSync(join(filesDir, file));
    const source = sources.get(file);
    if (!file.endsWith('.pdf')) {
      manifest.push({ file, id: file.replace(/[^A-Za-z0-9_.:-]/g, '_'), kind: 'distractor', ...source, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
      continue;
    }
    const id = file.slice(0, -'.pdf'.length);
    const started = performance.now();
    const read = await readPdf(pdfjs, join(filesDir, file));
    docs.set(id, read);
    for (const page of read.pages) pageLines.push(JSON.stringify({ doc: id, page: page.page, text: page.text }));
    manifest.push({
      file,
      id,
      kind: 'pdf',
      ...source,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      pages: read.pages.length,
      outline_entries: read.outline.length,
    });
    console.error(`[pages-judgments] ${file}: ${read.pages.length} pages, ${read.outline.length} bookmarks (${Math.round(performance.now() - started)} ms)`);
  }

  // How often each normalized title occurs across all outlines, and in how many documents each word occurs.
  const titleCount = new Map<string, number>();
  for (const { outline } of docs.values()) {
    for (const entry of outline) {
      const key = wordsOf(stripNumbering(entry.title)).join(' ');
      titleCount.set(key, (titleCount.get(key) ?? 0) + 1);
    }
  }
  const docFrequency = new Map<string, number>();
  for (const { pages } of docs.values()) {
    const seen = new Set<string>();
    for (const page of pages) for (const token of page.tokens) seen.add(token);
    for (const token of seen) docFrequency.set(token, (docFrequency.get(token) ?? 0) + 1);
  }

  const candidates = new Map<string, JudgedQuery[]>();
  const reasons = new Map<string, number>();
  const reject = (reason: string): void => {
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  };
  for (const [doc, { pages, outline }] of docs) {
    const kept: JudgedQuery[] = [];
    for (const [index, entry] of outline.entries()) {
      const title = stripNumbering(entry.title);
      const words = wordsOf(title);
      const content = words.filter((word) => !STOP_WORDS.has(word));
      const key = words.join(' ');
      const q = queryOf(title);
      // Doxygen's overloads ("circulator() [1/2]") share one title across pages.
      if (/\[\d+\/\d+\]\s*$/.test(title)) { reject('overload'); continue; }
      if (words.length === 0 || words.length > MAX_TITLE_WORDS || title.length > MAX_TITLE_CHARS) { reject('length'); continue; }
      if (content.every((word) => GENERIC_WORDS.has(word) || /^\d+$/.test(word))) { reject('generic'); continue; }
      if ((titleCount.get(key) ?? 0) > 1) { reject('title not unique'); continue; }
      if (entry.page === 1) { reject('page 1'); continue; }
      if (content.length === 1 && (docFrequency.get(content[0]) ?? 0) > MAX_DOCS_FOR_ONE_WORD) { reject('one common word'); continue; }
      const judged = [entry.page];
      if (entry.heightShare !== null && entry.heightShare < BOTTOM_SHARE && entry.page < pages.length) judged.push(entry.page + 1);
      const onPages = new Set<string>();
      for (const number of judged) for (const token of pages[number - 1].tokens) onPages.add(token);
      if (!content.every((word) => onPages.has(word))) { reject('words not on the page'); continue; }
      if (wordsOf(q).length === 0) { reject('empty query'); continue; }
      kept.push({ id: '', q, title: entry.title.trim(), doc, pages: judged, start_page: entry.page, section_pages: sectionPages(judged, outline[index + 1]), kind: 'outline', recipe });
    }
    kept.sort((a, b) => hashOf(`${SEED}\0${doc}\0${a.title}`).localeCompare(hashOf(`${SEED}\0${doc}\0${b.title}`)));
    candidates.set(doc, kept);
  }

  // Round robin over the documents (in a seeded order) until the target is reached.
  const order = [...candidates.keys()].sort((a, b) => hashOf(`${SEED}\0${a}`).localeCompare(hashOf(`${SEED}\0${b}`)));
  const queries: JudgedQuery[] = [];
  for (let round = 0; queries.length < QUERY_TARGET; round++) {
    let took = false;
    for (const doc of order) {
      const next = candidates.get(doc)![round];
      if (next !== undefined && queries.length < QUERY_TARGET) {
        queries.push(next);
        took = true;
      }
    }
    if (!took) break;
  }
  queries.sort((a, b) => a.doc.localeCompare(b.doc) || a.start_page - b.start_page || a.title.localeCompare(b.title));

  // Issue 14's own examples, when gnuplot.pdf is in the corpus.
  const gnuplot = docs.get('gnuplot');
  if (gnuplot !== undefined) {
    const section = gnuplot.outline.findIndex((entry) => /^histograms$/i.test(stripNumbering(entry.title)));
    if (section >= 0) {
      // The section's pages: from its bookmark on, as long as the next page still speaks of
      // histograms (its subsections have bookmarks of their own, so the next bookmark does not
      // mark the section's end).
      const start = gnuplot.outline[section].page;
      const pages = [start];
      while (pages.length < gnuplot.pages.length - start + 1 && gnuplot.pages[start + pages.length - 1].tokens.has('histogram')) {
        pages.push(start + pages.length);
      }
      queries.push({ id: '', q: 'histogram', title: 'issue 14: histogram', doc: 'gnuplot', pages, start_page: start, section_pages: pages, kind: 'issue', recipe });
    }
    const logscale = pagesWithPhrase(gnuplot.pages, 'set logscale');
    if (logscale.length > 0) {
      queries.push({ id: '', q: '"set logscale"', title: 'issue 14: "set logscale"', doc: 'gnuplot', pages: logscale, start_page: logscale[0], section_pages: logscale, kind: 'issue', recipe });
    }
  }
  queries.forEach((query, i) => {
    query.id = `q${String(i + 1).padStart(3, '0')}`;
  });

  writeFileSync(join(corpus, 'queries.jsonl'), queries.map((query) => JSON.stringify(query)).join('\n') + '\n');
  writeFileSync(join(corpus, 'pages-text.jsonl.gz'), gzipSync(pageLines.join('\n') + '\n'));
  rmSync(join(corpus, 'pages-text.jsonl'), { force: true });
  const packages = readFileSync(join(corpus, 'packages.tsv'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'))
    .map(([name, version]) => ({ name, version }));
  writeFileSync(
    join(corpus, 'manifest.json'),
    JSON.stringify(
      {
        recipe,
        made: new Date().toISOString(),
        packages,
        files: manifest,
        queries: queries.length,
        candidates: [...candidates.values()].reduce((sum, list) => sum + list.length, 0),
        rejected: Object.fromEntries(reasons),
      },
      null,
      2,
    ) + '\n',
  );
  const pdfPages = [...docs.values()].reduce((sum, doc) => sum + doc.pages.length, 0);
  console.error(
    `[pages-judgments] ${docs.size} PDFs (${pdfPages} pages), ${manifest.length - docs.size} distractors; ` +
      `${queries.length} queries from ${[...candidates.values()].reduce((sum, list) => sum + list.length, 0)} kept bookmarks; rejected: ${JSON.stringify(Object.fromEntries(reasons))}`,
  );
}

await main();
