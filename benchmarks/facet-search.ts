// Facet value search at scale (`npm run bench:facet-search`, issue 31 goal "facet search"): the
// synthetic corpus (../shared/corpora/synthetic, 1,000,000 documents by default) imported over
// HTTP into a real server process, each document given a `publisher` of 100,000 distinct
// two-word names (seeded; document i gets name i mod 100,000), then `POST
// …/facet-search` on `publisher` timed over one keep-alive connection: what a user types (the
// first 1–4 letters of a word of a name), typed words of 5+ letters with a typo, the same
// prefixes counted under a filter (`category`), and under search words (the corpus's queries).
// Options: --docs N (1,000,000), --values N (100,000), --queries N (1,000), --passes P (3),
// --data DIR (corpora in DIR/nN; default $TMPDIR/folio-synthetic), --smoke (10,000 documents,
// 1,000 values, 100 queries, one pass).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seededRandom } from '../engine/vectors/seeded-random.ts';
import { numberOption } from './bench-options.ts';
import { AUTH_HEADERS, BENCH_MASTER_KEY } from './folio-api.ts';
import { importCollection } from './folio-import.ts';
import { readQueryTexts, streamJsonlLines } from './jsonl-corpus.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureSequential } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { corpusDir, ensureCorpus, generatorAvailable } from './scale-corpus.ts';
import { startServerProcess } from './server-process.ts';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string' },
    values: { type: 'string' },
    queries: { type: 'string' },
    passes: { type: 'string' },
    data: { type: 'string' },
    smoke: { type: 'boolean', default: false },
  },
});
const smoke = args.smoke === true;
const DOCS = numberOption(args.docs, smoke ? 10_000 : 1_000_000, 'docs');
const VALUES = numberOption(args.values, smoke ? 1_000 : 100_000, 'values');
const QUERIES = numberOption(args.queries, smoke ? 100 : 1_000, 'queries');
const PASSES = numberOption(args.passes, smoke ? 1 : 3, 'passes');
const GOAL_P50_MS = 5;
const GOAL_P99_MS = 20;

/** Categories of the synthetic corpus (gen-synthetic.mjs), for the filtered workload. */
const CATEGORIES = ['astronomy', 'biology', 'chemistry', 'economics', 'education', 'engineering', 'finance', 'geology', 'history', 'law', 'medicine', 'physics'];

const SYLLABLES = ['an', 'bel', 'cor', 'da', 'el', 'fen', 'gar', 'hol', 'is', 'jon', 'kel', 'lin', 'mar', 'nor', 'ol', 'per', 'quin', 'ros', 'sil', 'tor', 'ul', 'ven', 'wil', 'xan', 'yor', 'zel', 'ber', 'cal', 'dor', 'fal', 'ka', 'nu', 'th', 'mi', 'ra', 'so'];

/** `count` distinct names of two capitalised words, seeded. */
function publisherNames(count: number): string[] {
  const random = seededRandom(31);
  const word = (syllables: number): string => {
    const text = Array.from({ length: syllables }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
    return text[0].toUpperCase() + text.slice(1);
  };
  const names = new Set<string>();
  while (names.size < count) names.add(`${word(2)} ${word(2 + Math.floor(random() * 2))}`);
  return [...names];
}

/** The corpus's lines, each document given its publisher. */
async function* withPublishers(file: string, names: readonly string[], batchSize: number): AsyncGenerator<string> {
  let batch: string[] = [];
  let i = 0;
  for await (const line of streamJsonlLines(file, DOCS)) {
    const doc = JSON.parse(line) as { metadata: Record<string, unknown> };
    doc.metadata.publisher = names[i++ % names.length];
    batch.push(JSON.stringify(doc));
    if (batch.length >= batchSize) {
      yield batch.join('\n');
      batch = [];
    }
  }
  if (batch.length > 0) yield batch.join('\n');
}

interface Workload {
  name: string;
  bodies: Record<string, unknown>[];
}

function workloads(names: readonly string[], searchTexts: readonly string[]): Workload[] {
  const random = seededRandom(77);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const aWord = (): string => pick(pick(names).split(' ')).toLowerCase();
  const prefixes = Array.from({ length: QUERIES }, () => aWord().slice(0, 1 + Math.floor(random() * 4)));
  const typos = Array.from({ length: QUERIES }, () => {
    let word = aWord();
    while (word.length < 5) word = aWord();
    const at = 1 + Math.floor(random() * (word.length - 1));
    return word.slice(0, at) + 'x' + word.slice(at + 1);
  });
  return [
    { name: 'a prefix typed (1–4 letters of a word)', bodies: prefixes.map((q) => ({ facet: 'publisher', q })) },
    { name: 'a word of 5+ letters with a typo', bodies: typos.map((q) => ({ facet: 'publisher', q })) },
    { name: 'a prefix, counted under a filter (`category`)', bodies: prefixes.map((q, i) => ({ facet: 'publisher', q, filter: { category: CATEGORIES[i % CATEGORIES.length] } })) },
    { name: 'a prefix, counted under search words', bodies: prefixes.map((q, i) => ({ facet: 'publisher', q, query: searchTexts[i % searchTexts.length] })) },
  ];
}

async function main(): Promise<void> {
  if (!generatorAvailable()) {
    console.log('The synthetic corpus generator (../shared/corpora/synthetic) is not there: skipped.');
    return;
  }
  const dataRoot = smoke ? mkdtempSync(join(tmpdir(), 'folio-bench-facets-smoke-')) : resolve(args.data ?? join(tmpdir(), 'folio-synthetic'));
  const corpus = ensureCorpus(DOCS, corpusDir(dataRoot, DOCS));
  const names = publisherNames(VALUES);
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-facets-'));
  const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--rate-limit', 'off']);
  try {
    const imported = await importCollection({ server, dataDir, collection: 'synthetic', batches: withPublishers(corpus.corpusFile, names, 5_000), expectedDocs: DOCS, probe: false });
    const client = new KeepAliveClient(server.url, { ...AUTH_HEADERS });
    const results: { workload: Workload; latency: LatencySummary; values: number }[] = [];
    try {
      for (const workload of workloads(names, readQueryTexts(corpus.queriesFile, QUERIES))) {
        let values = 0;
        const latency = await measureSequential(workload.bodies, PASSES, async (body) => {
          const answer = await client.post('/v1/collections/synthetic/facet-search', body);
          if (answer.status !== 200) throw new Error(`facet-search ${JSON.stringify(body)} → ${answer.status} ${JSON.stringify(answer.body)}`);
          values += answer.body.values.length;
        });
        results.push({ workload, latency, values: values / (workload.bodies.length * (PASSES + 1)) });
      }
    } finally {
      client.close();
    }
    console.log(`# Facet value search: ${DOCS.toLocaleString('en')} synthetic documents, \`publisher\` of ${VALUES.toLocaleString('en')} distinct values\n`);
    console.log(`Imported over HTTP in ${(imported.importMs / 1000).toFixed(1)} s; ${QUERIES.toLocaleString('en')} queries per row, ${PASSES} timed passes, one keep-alive connection, \`limit\` 10.\n`);
    console.log('| what is typed | p50 ms | p99 ms | mean ms | QPS | values answered (mean) |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const { workload, latency, values } of results) {
      console.log(`| ${workload.name} | ${latency.p50Ms.toFixed(2)} | ${latency.p99Ms.toFixed(2)} | ${latency.meanMs.toFixed(2)} | ${Math.round(latency.qps)} | ${values.toFixed(1)} |`);
    }
    const first = results[0].latency;
    const met = first.p50Ms <= GOAL_P50_MS && first.p99Ms <= GOAL_P99_MS;
    console.log(`\nGoal (a prefix typed): p50 ≤ ${GOAL_P50_MS} ms and p99 ≤ ${GOAL_P99_MS} ms — ${met ? 'met' : 'missed'} (${first.p50Ms.toFixed(2)} / ${first.p99Ms.toFixed(2)} ms).`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (smoke) rmSync(dataRoot, { recursive: true, force: true });
  }
}

await main();
