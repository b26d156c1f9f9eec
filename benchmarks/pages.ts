// Page-retrieval benchmark (`npm run bench:pages`): does a search find the right document and
// the right page of real multi-page PDF manuals? The corpus (Debian documentation packages'
// PDFs, a few short READMEs and FAQ pages as distractors) and its judged queries are made by
// benchmarks/pages-corpus.sh, never committed; see benchmarks/pages-judgments.ts for how each
// query's document and pages are judged (section titles from the PDFs' outlines).
//
// It starts a real Folio server process on a temporary data directory, uploads every file
// through `POST /v1/collections/{c}/files` (two at a time), refreshes, then sends each query as
// typed (`POST …/search`, limit 10) and scores the hits:
// - doc@1: the top hit is the judged document;
// - page@1: the top hit is the judged document and its `page` is a judged page;
// - page@1 in section: the same with the looser judgment (any page of the section, up to where
//   the next bookmark begins), so the section's second page counts and the table of contents not;
// - doc@10 and MRR@10 of the judged document;
// - page | doc in top 10: among the queries whose judged document is in the top 10, how often
//   that hit's `page` is a judged page (the page choice apart from the ranking).
// The same queries run against SQLite FTS5 (better-sqlite3) over the same text, as pdf.js reads
// it page by page: once with one row per page (the top row names document and page), once with
// one row per document (its best page row names the page). `--baseline DIR` also runs the
// server of another built checkout (e.g. the previous release) in the same run.
//
//   npm run bench:pages [-- --smoke] [--corpus DIR] [--peers fts5|none] [--misses FILE]
//                       [--split all|train|test] (train: queries in even places, test: odd)
//                       [--label TEXT] [--baseline DIR --baseline-label TEXT]
//
// Without a corpus it says "skipped" and exits 0.

import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { markdownTable } from './markdown-table.ts';
import { startListeningProcess, startServerProcess } from './server-process.ts';
import type { ListeningProcess } from './server-process.ts';
import type { JudgedQuery } from './pages-judgments.ts';

const DEFAULT_CORPUS = fileURLToPath(new URL('../../shared/corpora/pages/', import.meta.url));
const RECIPE_FILE = fileURLToPath(new URL('./pages-corpus.sh', import.meta.url));
const COLLECTION = 'pages';
const UPLOAD_CONCURRENCY = 2;
const LIMIT = 10;
/** Smoke mode: these documents (when present), the distractors and at most SMOKE_QUERIES queries. */
const SMOKE_DOCS = ['gnuplot', 'R-data', 'pari-parallel'];
const SMOKE_QUERIES = 12;


interface CorpusFile {
  file: string;
  id: string;
  kind: 'pdf' | 'distractor';
  pages?: number;
  package: string;
}

/** Buckets of the judged document's length, in pages, for the second table. */
const LENGTH_BUCKETS: Array<[string, number, number]> = [
  ['under 100 pages', 0, 99],
  ['100–299 pages', 100, 299],
  ['300 pages or more', 300, Infinity],
];

/** One engine's answer to one query: document ids best first, each with its page. */
interface Answer {
  hits: Array<{ id: string; page: number | null }>;
}

interface Scores {
  engine: string;
  docAt1: number;
  pageAt1: number;
  /** page@1 with the looser judgment: any page of the section. */
  sectionAt1: number;
  docAt10: number;
  mrr: number;
  /** page right among the queries whose document is in the top 10, and how many those are. */
  pageGivenDoc: number;
  docFound: number;
  ms: number;
}

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    // Queries in even places of queries.jsonl are `train` (to tune on), odd ones `test`.
    split: { type: 'string', default: 'all' },
    corpus: { type: 'string', default: DEFAULT_CORPUS },
    peers: { type: 'string', default: 'fts5' },
    baseline: { type: 'string' },
    label: { type: 'string', default: 'this checkout' },
    'baseline-label': { type: 'string' },
    misses: { type: 'string' },
  },
});

function recipeVersion(): number | null {
  const match = /^RECIPE_VERSION=(\d+)/m.exec(readFileSync(RECIPE_FILE, 'utf8'));
  return match ? Number(match[1]) : null;
}

function readJsonl<T>(file: string): T[] {
  const bytes = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

function score(engine: string, queries: JudgedQuery[], answers: Map<string, Answer>, ms: number): Scores {
  let docAt1 = 0;
  let pageAt1 = 0;
  let sectionAt1 = 0;
  let docAt10 = 0;
  let reciprocal = 0;
  let pageGivenDoc = 0;
  for (const query of queries) {
    const hits = answers.get(query.id)?.hits ?? [];
    const rank = hits.findIndex((hit) => hit.id === query.doc);
    if (rank === 0) docAt1++;
    if (rank === 0 && query.pages.includes(hits[0].page ?? -1)) pageAt1++;
    if (rank === 0 && query.section_pages.includes(hits[0].page ?? -1)) sectionAt1++;
    if (rank >= 0 && rank < LIMIT) {
      docAt10++;
      reciprocal += 1 / (rank + 1);
      if (query.pages.includes(hits[rank].page ?? -1)) pageGivenDoc++;
    }
  }
  const n = queries.length;
  return { engine, docAt1: docAt1 / n, pageAt1: pageAt1 / n, sectionAt1: sectionAt1 / n, docAt10: docAt10 / n, mrr: reciprocal / n, pageGivenDoc: docAt10 === 0 ? 0 : pageGivenDoc / docAt10, docFound: docAt10, ms };
}

/** A Folio server (this checkout's, or another built checkout's) loaded with the corpus. */
async function runFolio(
  label: string,
  checkout: string | null,
  corpus: string,
  files: CorpusFile[],
  queries: JudgedQuery[],
): Promise<{ scores: Scores; answers: Map<string, Answer>; uploadMs: number; failed: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-pages-'));
  const masterKey = 'folio_' + 'p'.repeat(40);
  let server: ListeningProcess & { masterKey?: string };
  if (checkout === null) {
    server = await startServerProcess(dataDir, masterKey);
  } else {
    const cli = join(checkout, 'dist/cli/folio.js');
    if (!existsSync(cli)) throw new Error(`--baseline ${checkout}: no ${cli} (run npm run build there)`);
    server = await startListeningProcess([cli, 'serve', '--port', '0', '--data', dataDir], { ...process.env, FOLIO_MASTER_KEY: masterKey });
  }
  const auth = { authorization: `Bearer ${masterKey}` };
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(server.url + path, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    await call('POST', '/v1/collections', { name: COLLECTION, language: 'english' });
    const failed: string[] = [];
    const started = performance.now();
    let next = 0;
    const uploader = async (): Promise<void> => {
      while (next < files.length) {
        const file = files[next++];
        const form = new FormData();
        form.set('id', file.id);
        form.set('file', new Blob([readFileSync(join(corpus, 'files', file.file))]), file.file);
        const response = await fetch(`${server.url}/v1/collections/${COLLECTION}/files`, { method: 'POST', headers: auth, body: form });
        if (!response.ok) failed.push(`${file.file}: ${response.status} ${(await response.text()).slice(0, 200)}`);
        else await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: UPLOAD_CONCURRENCY }, uploader));
    await call('POST', `/v1/collections/${COLLECTION}/refresh`, {});
    const uploadMs = performance.now() - started;
    console.error(`[pages] ${label}: ${files.length - failed.length} files uploaded and searchable in ${(uploadMs / 1000).toFixed(1)} s`);

    const answers = new Map<string, Answer>();
    const searchStarted = performance.now();
    for (const query of queries) {
      try {
        const result = await call('POST', `/v1/collections/${COLLECTION}/search`, { q: query.q, limit: LIMIT });
        answers.set(query.id, { hits: result.hits.map((hit: { id: string; page: number | null }) => ({ id: hit.id, page: hit.page })) });
      } catch (error) {
        // A query the server refuses (e.g. its parser rejects the title) finds nothing.
        failed.push(`query ${query.id} ${JSON.stringify(query.q)}: ${(error as Error).message.slice(0, 200)}`);
        answers.set(query.id, { hits: [] });
      }
    }
    const scores = score(label, queries, answers, performance.now() - searchStarted);
    return { scores, answers, uploadMs, failed };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A non-PDF file's text for the peer: HTML without its tags, anything else as it is. */
function plainText(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!/\.html?$/i.test(path)) return text;
  return text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** `a "b c" d` → `"a" OR "b c" OR "d"`: phrases kept, every other word quoted so syntax cannot error. */
export function fts5Expression(query: string): string | null {
  const parts: string[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const text = (match[1] ?? match[2]).trim();
    if (text !== '') parts.push(`"${text.replaceAll('"', '""')}"`);
  }
  return parts.length === 0 ? null : parts.join(' OR ');
}

/** SQLite FTS5 (porter unicode61, bm25) over the same text: per page, and per document. */
function runFts5(
  corpus: string,
  files: CorpusFile[],
  queries: JudgedQuery[],
): { perPage: Scores; perDoc: Scores; answersPerPage: Map<string, Answer>; answersPerDoc: Map<string, Answer> } {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE pages USING fts5(doc UNINDEXED, page UNINDEXED, text, tokenize='porter unicode61')`);
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(doc UNINDEXED, text, tokenize='porter unicode61')`);
  const insertPage = db.prepare('INSERT INTO pages (doc, page, text) VALUES (?, ?, ?)');
  const insertDoc = db.prepare('INSERT INTO docs (doc, text) VALUES (?, ?)');
  const wanted = new Set(files.map((file) => file.id));
  const byDoc = new Map<string, string[]>();
  db.exec('BEGIN');
  for (const row of readJsonl<{ doc: string; page: number; text: string }>(join(corpus, 'pages-text.jsonl.gz'))) {
    if (!wanted.has(row.doc)) continue;
    insertPage.run(row.doc, row.page, row.text);
    let pages = byDoc.get(row.doc);
    if (pages === undefined) byDoc.set(row.doc, (pages = []));
    pages.push(row.text);
  }
  for (const [doc, pages] of byDoc) insertDoc.run(doc, pages.join('\n\n'));
  for (const file of files.filter((f) => f.kind === 'distractor')) {
    const text = plainText(join(corpus, 'files', file.file));
    insertPage.run(file.id, null, text);
    insertDoc.run(file.id, text);
  }
  db.exec('COMMIT');

  // Per page: the best LIMIT documents by their best page (more rows are read so that ten
  // distinct documents are usually found).
  const pageSearch = db.prepare(`SELECT doc, page FROM pages WHERE pages MATCH ? ORDER BY rank LIMIT 200`);
  const docSearch = db.prepare(`SELECT doc FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ${LIMIT}`);
  const bestPage = db.prepare(`SELECT page FROM pages WHERE pages MATCH ? AND doc = ? ORDER BY rank LIMIT 1`);
  const answersPerPage = new Map<string, Answer>();
  const answersPerDoc = new Map<string, Answer>();
  let started = performance.now();
  for (const query of queries) {
    const expression = fts5Expression(query.q);
    const hits: Answer['hits'] = [];
    if (expression !== null) {
      for (const row of pageSearch.all(expression) as Array<{ doc: string; page: number | null }>) {
        if (!hits.some((hit) => hit.id === row.doc)) hits.push({ id: row.doc, page: row.page });
        if (hits.length === LIMIT) break;
      }
    }
    answersPerPage.set(query.id, { hits });
  }
  const perPage = score('SQLite FTS5, one row per page', queries, answersPerPage, performance.now() - started);
  started = performance.now();
  for (const query of queries) {
    const expression = fts5Expression(query.q);
    const hits: Answer['hits'] = [];
    if (expression !== null) {
      for (const row of docSearch.all(expression) as Array<{ doc: string }>) {
        const page = (bestPage.get(expression, row.doc) as { page: number | null } | undefined)?.page ?? null;
        hits.push({ id: row.doc, page });
      }
    }
    answersPerDoc.set(query.id, { hits });
  }
  const perDoc = score('SQLite FTS5, one row per document (page: its best page row)', queries, answersPerDoc, performance.now() - started);
  db.close();
  return { perPage, perDoc, answersPerPage, answersPerDoc };
}

function pct(value: number): string {
  return (value * 100).toFixed(1) + ' %';
}

function describe(query: JudgedQuery, answer: Answer | undefined): string {
  const hits = answer?.hits ?? [];
  const rank = hits.findIndex((hit) => hit.id === query.doc);
  const top = hits[0];
  const found = rank < 0 ? 'not in top 10' : `#${rank + 1} at p. ${hits[rank].page}`;
  return `${query.id} ${JSON.stringify(query.q)} → judged ${query.doc} p. ${query.pages.join(',')}; ${found}; top: ${top ? `${top.id} p. ${top.page}` : 'nothing'}`;
}

async function main(): Promise<void> {
  const corpus = resolve(args.corpus!);
  const queriesFile = join(corpus, 'queries.jsonl');
  if (!existsSync(queriesFile) || !existsSync(join(corpus, 'manifest.json'))) {
    console.log(`bench:pages skipped: run benchmarks/pages-corpus.sh first (no corpus at ${corpus})`);
    return;
  }
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as {
    recipe: number;
    packages: Array<{ name: string; version: string }>;
    files: CorpusFile[];
  };
  const expected = recipeVersion();
  if (expected !== null && manifest.recipe !== expected) {
    console.log(`bench:pages skipped: the corpus at ${corpus} was made by recipe ${manifest.recipe}, this checkout's is ${expected}; run benchmarks/pages-corpus.sh again`);
    return;
  }
  const present = new Set(readdirSync(join(corpus, 'files')));
  let files = manifest.files.filter((file) => present.has(file.file));
  let queries = readJsonl<JudgedQuery>(queriesFile);
  if (args.smoke) {
    const keep = new Set(SMOKE_DOCS);
    files = files.filter((file) => file.kind === 'distractor' || keep.has(file.id));
    const perDoc = Math.ceil((SMOKE_QUERIES - 2) / SMOKE_DOCS.length);
    queries = [
      ...SMOKE_DOCS.flatMap((doc) => queries.filter((query) => query.doc === doc && query.kind === 'outline').slice(0, perDoc)),
      ...queries.filter((query) => query.kind === 'issue'),
    ];
  }
  if (!['all', 'train', 'test'].includes(args.split)) throw new Error(`--split must be all, train or test, not '${args.split}'`);
  if (args.split !== 'all') queries = queries.filter((_, i) => (i % 2 === 0) === (args.split === 'train'));
  const ids = new Set(files.map((file) => file.id));
  queries = queries.filter((query) => ids.has(query.doc));
  if (queries.length === 0) {
    console.log(`bench:pages skipped: no judged query for the files at ${corpus}`);
    return;
  }

  const pdfs = files.filter((file) => file.kind === 'pdf');
  const pdfPages = pdfs.reduce((sum, file) => sum + (file.pages ?? 0), 0);
  const cpu = cpus();
  const started = performance.now();
  const results: Scores[] = [];
  const notes: string[] = [];

  const folio = await runFolio(`**Folio** (${args.label})`, null, corpus, files, queries);
  results.push(folio.scores);
  notes.push(`Folio: upload + extraction + refresh ${(folio.uploadMs / 1000).toFixed(1)} s (${Math.round(pdfPages / (folio.uploadMs / 1000))} PDF pages/s)`);
  for (const failure of folio.failed) notes.push(`Folio failed: ${failure}`);
  let baseline: Awaited<ReturnType<typeof runFolio>> | null = null;
  if (args.baseline !== undefined) {
    baseline = await runFolio(`Folio (${args['baseline-label'] ?? args.baseline})`, resolve(args.baseline), corpus, files, queries);
    results.push(baseline.scores);
    notes.push(`baseline: upload + extraction + refresh ${(baseline.uploadMs / 1000).toFixed(1)} s`);
    for (const failure of baseline.failed) notes.push(`baseline failed: ${failure}`);
  }
  let fts5: ReturnType<typeof runFts5> | null = null;
  if (args.peers !== 'none') {
    fts5 = runFts5(corpus, files, queries);
    results.push(fts5.perPage, fts5.perDoc);
  }

  const outline = queries.filter((query) => query.kind === 'outline').length;
  const pagesOf = new Map(files.map((file) => [file.id, file.pages ?? 1]));
  const answersOf: Array<[string, Map<string, Answer>]> = [
    ['Folio', folio.answers],
    ...(baseline ? ([['baseline', baseline.answers]] as Array<[string, Map<string, Answer>]>) : []),
    ...(fts5 ? ([['FTS5 per page', fts5.answersPerPage], ['FTS5 per document', fts5.answersPerDoc]] as Array<[string, Map<string, Answer>]>) : []),
  ];
  console.log('# Page retrieval: the right document and the right page\n');
  console.log(
    `${new Date().toISOString().slice(0, 10)}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. ` +
      `Corpus recipe ${manifest.recipe}${args.smoke ? ' (smoke: a subset)' : ''}: ${pdfs.length} PDFs (${pdfPages.toLocaleString('en-US')} pages) from ` +
      `${new Set(pdfs.map((file) => file.package)).size} Debian packages, ${files.length - pdfs.length} short distractors; ` +
      `${queries.length} queries (${outline} section titles from the outlines, ${queries.length - outline} from issue 14), limit ${LIMIT}.\n`,
  );
  console.log(
    markdownTable(
      ['engine', 'doc@1', 'page@1', 'page@1 in section', 'doc@10', 'MRR@10', 'page right when doc in top 10', 'search s'],
      results.map((r) => [r.engine, pct(r.docAt1), pct(r.pageAt1), pct(r.sectionAt1), pct(r.docAt10), r.mrr.toFixed(3), `${pct(r.pageGivenDoc)} (of ${r.docFound})`, (r.ms / 1000).toFixed(2)]),
    ),
  );
  console.log('\nBy the judged document\'s length (doc@1 / page@1):\n');
  console.log(
    markdownTable(
      ['judged document', 'queries', ...answersOf.map(([name]) => name)],
      LENGTH_BUCKETS.map(([label, low, high]) => {
        const bucket = queries.filter((query) => (pagesOf.get(query.doc) ?? 1) >= low && (pagesOf.get(query.doc) ?? 1) <= high);
        return [
          label,
          String(bucket.length),
          ...answersOf.map(([name, answers]) => {
            if (bucket.length === 0) return '—';
            const s = score(name, bucket, answers, 0);
            return `${pct(s.docAt1)} / ${pct(s.pageAt1)}`;
          }),
        ];
      }),
    ),
  );
  console.log('\nIssue 14\'s queries on gnuplot.pdf:\n');
  const issue = queries.filter((query) => query.kind === 'issue');
  console.log(
    markdownTable(
      ['query', 'judged pages', 'Folio', ...(baseline ? ['baseline'] : []), ...(fts5 ? ['FTS5 per page'] : [])],
      issue.map((query) => {
        const cell = (answer: Answer | undefined): string => {
          const hits = answer?.hits ?? [];
          const rank = hits.findIndex((hit) => hit.id === query.doc);
          return rank < 0 ? 'not in top 10' : `#${rank + 1}, p. ${hits[rank].page}${query.pages.includes(hits[rank].page ?? -1) ? ' ✓' : ' ✗'}`;
        };
        return [
          '`' + query.q + '`',
          query.pages.join(', '),
          cell(folio.answers.get(query.id)),
          ...(baseline ? [cell(baseline.answers.get(query.id))] : []),
          ...(fts5 ? [cell(fts5.answersPerPage.get(query.id))] : []),
        ];
      }),
    ),
  );
  console.log('');
  for (const note of notes) console.log(`- ${note}`);
  console.log(`- whole run ${((performance.now() - started) / 1000).toFixed(1)} s`);

  if (args.misses !== undefined) {
    // Every query whose top hit is not the judged document at a judged page; the baseline's
    // in FILE.baseline.
    const runs: Array<[string, Map<string, Answer>]> = [[args.misses, folio.answers]];
    if (baseline !== null) runs.push([`${args.misses}.baseline`, baseline.answers]);
    for (const [file, answers] of runs) {
      const lines = queries
        .filter((query) => {
          const top = answers.get(query.id)?.hits[0];
          return top === undefined || top.id !== query.doc || !query.pages.includes(top.page ?? -1);
        })
        .map((query) => describe(query, answers.get(query.id)));
      writeFileSync(file, lines.join('\n') + '\n');
      console.error(`[pages] ${lines.length} misses (doc or page) written to ${file}`);
    }
  }
}

await main();
