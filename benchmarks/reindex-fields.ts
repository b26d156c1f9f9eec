// Re-indexing after a `searchable_fields` change (`npm run bench:reindex`, issue 30): "Re-indexing
// 1M synthetic documents after a `searchable_fields` change: time against a fresh import of the
// same documents, peak RSS within the import's bound." On a real server process (search cache
// off, as `bench:scale`) with a fresh data directory:
//  1. fresh import: the synthetic corpus (../shared/corpora/synthetic) as NDJSON batches, as
//     `bench:scale` imports it (folio-import.ts), timed until `POST …/refresh` answers and
//     background merges have settled; the server's peak RSS (VmHWM) once they have;
//  2. the server is stopped and started again on the same data directory, so that its VmHWM
//     covers only the re-index (Linux keeps the peak since the process started; the helpers
//     have no way to reset it), and merges are waited for;
//  3. re-index: `PATCH` the collection's `searchable_fields` to title 3, text 1 and
//     `metadata.<field>` 2, then `GET` the collection every 250 ms until `reindexing` is null;
//     its time and the server's VmHWM over it;
//  4. checks: a search with `search_fields=metadata.<field>` for a word of the first document's
//     field finds documents (refused with 400 before the change), and the collection still
//     holds every document.
// It prints the two phases side by side with their ratios and the verdicts. The field is the
// corpus's `author` (5,000 names of two words, e.g. "Brandon Lesk"), the only metadata string
// with more than one word.
// Options: --docs N (1,000,000); --data DIR (the corpus in DIR/nN, generated there when missing;
// default $TMPDIR/folio-synthetic, shared with bench:scale); --field NAME (author); --batch B
// (5,000 docs a request); --server-arg X (repeatable); --smoke (20,000 docs generated in a
// temporary directory). Without the generator (and no corpus) it prints "skipping" and exits 0.

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { numberOption } from './bench-options.ts';
import { AUTH_HEADERS, BENCH_MASTER_KEY, folioCaller } from './folio-api.ts';
import { importCollection } from './folio-import.ts';
import type { CollectionImport } from './folio-import.ts';
import { streamJsonlLines } from './jsonl-corpus.ts';
import type { CorpusDoc } from './jsonl-corpus.ts';
import { count, markdownTable, mib, seconds } from './markdown-table.ts';
import { waitForMergesToSettle } from './merge-settle.ts';
import { ndjsonBatches } from './ndjson-import.ts';
import { currentRssBytes, peakRssBytes } from './proc-memory.ts';
import { GENERATOR, corpusDir, corpusExists, ensureCorpus, generatorAvailable } from './scale-corpus.ts';
import { startServerProcess } from './server-process.ts';
import type { ServerProcess } from './server-process.ts';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string' },
    data: { type: 'string' },
    field: { type: 'string', default: 'author' },
    batch: { type: 'string', default: '5000' },
    'server-arg': { type: 'string', multiple: true, default: [] },
    smoke: { type: 'boolean', default: false },
  },
});

const smoke = args.smoke;
const DOCS = numberOption(args.docs?.replace(/_/g, ''), smoke ? 20_000 : 1_000_000, 'docs');
const BATCH = numberOption(args.batch, 5_000, 'batch');
const FIELD = args.field;
if (!(Number.isInteger(DOCS) && DOCS >= 1)) throw new Error('--docs must be a whole number of documents ≥ 1');
if (!(Number.isInteger(BATCH) && BATCH >= 1 && BATCH <= 10_000)) throw new Error("--batch must be 1 to 10,000 (the server's batch limit)");
if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(FIELD)) throw new Error(`--field: '${FIELD}' is not a metadata field name`);

const COLLECTION = 'synthetic';
const POLL_MS = 250;
/** Progress (documents, RSS) goes to stderr this often during each phase. */
const REPORT_MS = 15_000;
/** Merges after a 1M import can take minutes (as in bench:scale). */
const SETTLE_LIMIT_MS = 600_000;
/** A re-index that has not finished after this long fails the run. */
const REINDEX_LIMIT_MS = 3 * 3_600_000;
const SEARCHABLE_FIELDS = [
  { field: 'title', weight: 3 },
  { field: 'text', weight: 1 },
  { field: `metadata.${FIELD}`, weight: 2 },
];

const log = (message: string): void => console.error(`[reindex ${count(DOCS)}] ${message}`);

interface Reindexing {
  fields: string[];
  documents_done: number;
  documents_total: number;
}

interface CollectionRecord {
  documents: number;
  segments: number;
  size_bytes: number;
  reindexing?: Reindexing | null;
}

/** Samples the server's VmRSS every second (the largest seen, for growth) and reports it now and then. */
function startRssSampler(pid: number, label: string): { stop(): number | null } {
  let largest: number | null = null;
  const started = performance.now();
  let reported = started;
  const timer = setInterval(() => {
    const rss = currentRssBytes(pid);
    if (rss !== null) largest = Math.max(largest ?? 0, rss);
    if (performance.now() - reported >= REPORT_MS) {
      reported = performance.now();
      log(`${label}: ${seconds(reported - started)} s, RSS ${mib(rss)} MiB, peak ${mib(peakRssBytes(pid))} MiB`);
    }
  }, 1_000);
  return {
    stop: () => {
      clearInterval(timer);
      return largest;
    },
  };
}

/** The words of a metadata value that is a string or an array of strings. */
function wordsOf(value: unknown): string[] {
  const strings = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return strings.flatMap((s) => s.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? []);
}

/** How many of the corpus's first `docs` documents have `word` among the words of their field. */
async function documentsWithWord(corpusFile: string, docs: number, field: string, word: string): Promise<number> {
  let found = 0;
  for await (const line of streamJsonlLines(corpusFile, docs)) {
    if (!line.toLowerCase().includes(word)) continue;
    if (wordsOf((JSON.parse(line) as CorpusDoc).metadata[field]).includes(word)) found++;
  }
  return found;
}

/** A request the server answered 429/503 (back-pressure, retried by the importer): logged at error level. */
function isBackPressure(line: string): boolean {
  return /"status":(429|503)\b/.test(line);
}

/** Lines the server logged at warn level or above (pino JSON: level ≥ 40), or that look like errors. */
function serverTrouble(output: string): string[] {
  return output.split('\n').filter((line) => {
    const level = /"level":(\d+)/.exec(line);
    return level !== null ? Number(level[1]) >= 40 : /\b(error|fatal|warn)/i.test(line);
  });
}

interface ImportPhase {
  loaded: CollectionImport;
  /** Until searchable plus until merges settled. */
  totalMs: number;
  peakRss: number | null;
  largestSampledRss: number | null;
  /** A search naming the field before the change (400 expected). */
  refusedBefore: string;
  trouble: string[];
}

interface ReindexPhase {
  rssAtStart: number | null;
  /** Merges after the restart, before the PATCH (none expected). */
  restartSettleMs: number;
  segmentsBefore: number;
  patchAnsweredMs: number;
  /** `reindexing` in the PATCH's answer. */
  reindexingInAnswer: Reindexing | null;
  totalMs: number;
  /** After `reindexing` turned null, until the segment count stopped changing. */
  settleAfterMs: number;
  segmentsAfter: number;
  peakRss: number | null;
  largestSampledRss: number | null;
  polls: number;
  documents: number;
  trouble: string[];
}

interface Checks {
  word: string;
  refusedBefore: string;
  total: number;
  totalRelation: string;
  expected: number;
  documents: number;
}

async function searchFieldStatus(server: ServerProcess, word: string): Promise<{ status: number; body: any }> {
  const params = new URLSearchParams({ q: word, search_fields: `metadata.${FIELD}`, limit: '1', facets: 'category' });
  const response = await fetch(`${server.url}/v1/collections/${COLLECTION}/search?${params}`, { headers: { ...AUTH_HEADERS } });
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function importPhase(dataDir: string, corpusFile: string, word: string): Promise<ImportPhase> {
  const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--search-cache-mb', '0', ...args['server-arg']]);
  try {
    const sampler = startRssSampler(server.child.pid!, 'import');
    let loaded: CollectionImport;
    let largestSampledRss: number | null;
    try {
      loaded = await importCollection({
        server,
        dataDir,
        collection: COLLECTION,
        batches: ndjsonBatches(corpusFile, BATCH, DOCS),
        expectedDocs: DOCS,
        probe: false,
        settleLimitMs: SETTLE_LIMIT_MS,
      });
    } finally {
      largestSampledRss = sampler.stop();
    }
    // Before the change the field is not one the collection searches: a search naming it is refused.
    const { status, body } = await searchFieldStatus(server, word);
    return {
      loaded,
      totalMs: loaded.importMs + loaded.settleMs,
      peakRss: loaded.peakRssSettled,
      largestSampledRss,
      refusedBefore: status === 400 ? `400 ${body?.error?.code ?? body?.code ?? ''}`.trim() : `${status} (expected 400)`,
      trouble: serverTrouble(server.output()),
    };
  } catch (error) {
    log(`import failed; the server's last output:\n${server.output().split('\n').slice(-40).join('\n')}`);
    throw error;
  } finally {
    await server.stop();
  }
}

async function reindexPhase(dataDir: string): Promise<{ phase: ReindexPhase; server: ServerProcess }> {
  const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--search-cache-mb', '0', ...args['server-arg']]);
  const pid = server.child.pid!;
  const call = folioCaller(server.url);
  const info = (): Promise<CollectionRecord> => call('GET', `/v1/collections/${COLLECTION}`);
  try {
    const restartSettleMs = await waitForMergesToSettle(info, SETTLE_LIMIT_MS, pid);
    const before = await info();
    if (before.reindexing !== null && before.reindexing !== undefined) throw new Error(`the collection is re-indexing before the change: ${JSON.stringify(before.reindexing)}`);
    const rssAtStart = currentRssBytes(pid);
    log(`server restarted (RSS ${mib(rssAtStart)} MiB, ${before.segments} segments); PATCH searchable_fields + metadata.${FIELD}…`);

    const sampler = startRssSampler(pid, 're-index');
    let largestSampledRss: number | null = null;
    let record: CollectionRecord;
    let polls = 0;
    const started = performance.now();
    let patchAnsweredMs: number;
    let reindexingInAnswer: Reindexing | null;
    let totalMs: number;
    try {
      const answer = (await call('PATCH', `/v1/collections/${COLLECTION}`, JSON.stringify({ searchable_fields: SEARCHABLE_FIELDS }))) as CollectionRecord;
      patchAnsweredMs = performance.now() - started;
      reindexingInAnswer = answer.reindexing ?? null;
      let reported = performance.now();
      for (;;) {
        record = await info();
        polls++;
        if (record.reindexing === null || record.reindexing === undefined) break;
        if (performance.now() - started > REINDEX_LIMIT_MS) throw new Error(`the re-index has not finished after ${seconds(REINDEX_LIMIT_MS)} s: ${JSON.stringify(record.reindexing)}`);
        if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`the server exited (${server.child.exitCode ?? server.child.signalCode}) during the re-index`);
        if (performance.now() - reported >= REPORT_MS) {
          reported = performance.now();
          const { documents_done: done, documents_total: total } = record.reindexing;
          log(`re-index: ${count(done)} of ${count(total)} documents, ${record.segments} segments, ${seconds(reported - started)} s`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      totalMs = performance.now() - started;
    } finally {
      largestSampledRss = sampler.stop();
    }
    if (record.reindexing === undefined) throw new Error('the collection record has no `reindexing`: this server does not re-index for searchable metadata fields');
    const settleAfterMs = await waitForMergesToSettle(info, SETTLE_LIMIT_MS, pid);
    const settled = await info();
    return {
      phase: {
        rssAtStart,
        restartSettleMs,
        segmentsBefore: before.segments,
        patchAnsweredMs,
        reindexingInAnswer,
        totalMs,
        settleAfterMs,
        segmentsAfter: settled.segments,
        peakRss: peakRssBytes(pid),
        largestSampledRss,
        polls,
        documents: settled.documents,
        trouble: serverTrouble(server.output()),
      },
      server,
    };
  } catch (error) {
    log(`re-index failed; the server's last output:\n${server.output().split('\n').slice(-40).join('\n')}`);
    await server.stop();
    throw error;
  }
}

function ratio(a: number | null, b: number | null): string {
  return a === null || b === null || !(b > 0) ? '—' : `${(a / b).toFixed(2)}×`;
}

function report(importing: ImportPhase, reindexing: ReindexPhase, checks: Checks, dataRoot: string): void {
  const cpu = cpus();
  const { loaded } = importing;
  const docsPerSecond = (ms: number): number => DOCS / (ms / 1000);
  console.log(`# Re-indexing after a \`searchable_fields\` change (issue 30): ${count(DOCS)} synthetic documents`);
  console.log('');
  console.log(
    `${new Date().toISOString().slice(0, 10)}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
      `corpus from ${dataRoot}; NDJSON batches of ${count(BATCH)}; server with \`--search-cache-mb 0\`${args['server-arg'].length > 0 ? ` ${args['server-arg'].join(' ')}` : ''}; ` +
      `change: \`searchable_fields\` title 3, text 1 → title 3, text 1, \`metadata.${FIELD}\` 2. ` +
      'The server was restarted on the same data directory between the phases, so each peak RSS (VmHWM) covers its own phase only.',
  );
  console.log('');
  const importNotes =
    `searchable (refresh answered) after ${seconds(loaded.importMs)} s, merges settled ${seconds(loaded.settleMs)} s later; ` +
    `VmHWM ${mib(loaded.peakRssAtRefresh)} MiB at the refresh; ${count(loaded.imported.batches)} batches, ${count(loaded.imported.retries)} retries after 429/503`;
  const reindexNotes =
    `from the PATCH until \`reindexing\` is null (polled every ${POLL_MS} ms, ${count(reindexing.polls)} polls); the PATCH answered in ${seconds(reindexing.patchAnsweredMs)} s with ` +
    `${reindexing.reindexingInAnswer === null ? '`reindexing` null' : `\`reindexing\` ${count(reindexing.reindexingInAnswer.documents_done)} of ${count(reindexing.reindexingInAnswer.documents_total)}`}; ` +
    `RSS ${mib(reindexing.rssAtStart)} MiB after the restart${reindexing.restartSettleMs > 0 ? ` (merges after the restart: ${seconds(reindexing.restartSettleMs)} s)` : ''}; ` +
    `segments ${reindexing.segmentsBefore} → ${reindexing.segmentsAfter}; merges after it: ${seconds(reindexing.settleAfterMs)} s`;
  console.log(
    markdownTable(
      ['phase', 'docs', 'time s', 'docs/s', 'peak RSS MiB', 'largest RSS sampled MiB', 'notes'],
      [
        ['fresh import (until searchable and merges settled)', count(DOCS), seconds(importing.totalMs), count(docsPerSecond(importing.totalMs)), mib(importing.peakRss), mib(importing.largestSampledRss), importNotes],
        [`re-index for \`metadata.${FIELD}\``, count(DOCS), seconds(reindexing.totalMs), count(docsPerSecond(reindexing.totalMs)), mib(reindexing.peakRss), mib(reindexing.largestSampledRss), reindexNotes],
        ['re-index ÷ import', '', ratio(reindexing.totalMs, importing.totalMs), ratio(docsPerSecond(reindexing.totalMs), docsPerSecond(importing.totalMs)), ratio(reindexing.peakRss, importing.peakRss), ratio(reindexing.largestSampledRss, importing.largestSampledRss), ''],
      ],
    ),
  );
  console.log('');
  const withinBound = reindexing.peakRss !== null && importing.peakRss !== null ? (reindexing.peakRss <= importing.peakRss ? 'yes' : 'no') : 'not measured';
  console.log(`- re-index time vs fresh import: ${ratio(reindexing.totalMs, importing.totalMs)} (${seconds(reindexing.totalMs)} s against ${seconds(importing.totalMs)} s)`);
  console.log(`- peak RSS within the import's bound: ${withinBound} (re-index ${mib(reindexing.peakRss)} MiB vs import ${mib(importing.peakRss)} MiB)`);
  const found = checks.total > 0 ? 'yes' : '**no**';
  console.log(
    `- search \`q=${checks.word}&search_fields=metadata.${FIELD}\` finds documents: ${found} (total ${count(checks.total)}, ${checks.totalRelation}; ` +
      `${count(checks.expected)} of the corpus's documents have "${checks.word}" in \`${FIELD}\`; before the change: ${checks.refusedBefore})`,
  );
  console.log(`- the collection's \`documents\` equals ${count(DOCS)}: ${checks.documents === DOCS ? 'yes' : `**no** (${count(checks.documents)})`}`);
  const trouble = [...importing.trouble, ...reindexing.trouble];
  const backPressure = trouble.filter(isBackPressure).length;
  const other = trouble.filter((line) => !isBackPressure(line));
  console.log(
    `- server warnings or errors: ${other.length === 0 ? 'none' : `${other.length} line(s); the first: ${other.slice(0, 3).map((line) => `\`${line.slice(0, 300)}\``).join(', ')}`}` +
      `${backPressure === 0 ? '' : ` (besides ${backPressure} answer(s) 429/503 to import batches, logged at error level: back-pressure, retried)`}`,
  );
}

async function main(): Promise<void> {
  const dataRoot = smoke ? mkdtempSync(join(tmpdir(), 'folio-bench-reindex-smoke-')) : resolve(args.data ?? join(tmpdir(), 'folio-synthetic'));
  const scratch = mkdtempSync(join(tmpdir(), `folio-bench-reindex-n${DOCS}-`));
  try {
    if (!corpusExists(corpusDir(dataRoot, DOCS)) && !generatorAvailable()) {
      console.log(`Synthetic corpus generator not found at ${GENERATOR} (it needs ../shared/corpora beside the checkout)${smoke ? '' : ', '}` +
        `${smoke ? '' : `and ${dataRoot} has no corpus of ${DOCS} documents`}; skipping the re-indexing benchmark.`);
      return;
    }
    const corpus = ensureCorpus(DOCS, corpusDir(dataRoot, DOCS));
    if (corpus.generatedMs !== null) log(`generated the corpus in ${seconds(corpus.generatedMs)} s`);
    let first: CorpusDoc | undefined;
    for await (const line of streamJsonlLines(corpus.corpusFile, 1)) first = JSON.parse(line) as CorpusDoc;
    if (first === undefined) throw new Error(`${corpus.corpusFile} is empty`);
    const words = wordsOf(first.metadata[FIELD]);
    if (words.length === 0) throw new Error(`the first document's metadata.${FIELD} has no words: ${JSON.stringify(first.metadata[FIELD])}`);
    // The last word: a surname rather than a given name, for `author`.
    const word = words[words.length - 1];
    const dataDir = join(scratch, 'folio');

    log(`fresh import of ${corpus.corpusFile}…`);
    const importing = await importPhase(dataDir, corpus.corpusFile, word);
    log(`imported in ${seconds(importing.totalMs)} s (peak RSS ${mib(importing.peakRss)} MiB)`);
    const { phase: reindexing, server } = await reindexPhase(dataDir);
    let checks: Checks;
    try {
      const { status, body } = await searchFieldStatus(server, word);
      if (status !== 200) throw new Error(`search_fields=metadata.${FIELD} after the re-index → ${status} ${JSON.stringify(body)}`);
      checks = {
        word,
        refusedBefore: importing.refusedBefore,
        total: body.total,
        totalRelation: body.total_relation,
        expected: 0,
        documents: reindexing.documents,
      };
    } finally {
      await server.stop();
    }
    log(`re-indexed in ${seconds(reindexing.totalMs)} s (peak RSS ${mib(reindexing.peakRss)} MiB); counting "${word}" in the corpus…`);
    checks.expected = await documentsWithWord(corpus.corpusFile, DOCS, FIELD, word);
    report(importing, reindexing, checks, dataRoot);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (smoke) rmSync(dataRoot, { recursive: true, force: true });
  }
}

await main();
