// Search-by-meaning benchmark (`npm run bench:semantic`, issue 16): starts a real Folio server
// (dist/), creates a SciFact collection with the builtin embedder (Universal Sentence Encoder
// lite, 512 dimensions), indexes the corpus (../shared/corpora/scifact) over HTTP and measures
//  1. indexing: time until keyword-searchable, then until every document is embedded
//     (`embedding.use.pending === 0`), embedding throughput in docs/s and passages/s (passages
//     counted with the engine's cutPassages) with the server's embedding threads, and the
//     server process's peak RSS. By default each NDJSON batch (1,000 documents; 150 with
//     --smoke) is refreshed into its own segment: segments under 2,000 passages, searched
//     exactly. --one-refresh indexes as quality.ts does (one refresh, one segment, split over
//     the embedding threads; from 2,000 passages a segment carries an HNSW graph, so its
//     dense search is approximate);
//  2. relevance (nDCG@10, Recall@100, trec_eval's definitions): BM25 (mode=keyword), dense
//     (mode=semantic), hybrid convex at several semantic_ratio values, hybrid at the
//     embedder's default ratio (no semantic_ratio) and RRF at 0.5, on the TRAIN queries (809)
//     and the TEST queries (300), limit 100, fields=id. The convex ratio is chosen on TRAIN by
//     nDCG@10 and reported on TEST, with the verdict "hybrid default ≥ BM25 on test";
//  3. latency: p50/p99 of the server's took_ms and of client wall time, keyword against
//     semantic (and hybrid at the default ratio), test queries, limit 10, one connection,
//     sequential, one warm-up pass then --passes timed passes, order rotated.
// Every query is sent as `q` (the server embeds it), never as a caller's `vector`.
// Options: --one-refresh (above), --smoke (the first 300 documents and the test queries judged
// on them only; no TRAIN, no verdict: about a minute, most of it embedding), --json FILE (the
// results), --passes P (latency passes: 2), --local-model DIR (noted and skipped: not measured
// by this benchmark yet).

import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { meanOverQueries, ndcgAt, recallAt } from './ir-metrics.ts';
import type { Qrels, Run } from './ir-metrics.ts';
import { percentile, summarise } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { markdownTable, mib, ms, seconds } from './markdown-table.ts';
import { currentRssBytes, peakRssBytes } from './proc-memory.ts';
import { SCIFACT_DIR, jsonCaller, readScifact, scifactAvailable } from './scifact.ts';
import type { JsonCall } from './scifact.ts';
import { countPassages, indexWithEmbedders, subsetWithJudgments, waitForEmbedding } from './semantic-corpus.ts';
import { processCpuSeconds } from './proc-cpu.ts';
import { startServerProcess } from './server-process.ts';

const COLLECTION = 'scifact';
const EMBEDDER = 'use';
const LIMIT = 100;
const LATENCY_LIMIT = 10;
const SMOKE_DOCS = 300;
/** Documents per NDJSON batch (and per segment unless --one-refresh). */
const FULL_BATCH = 1000;
const SMOKE_BATCH = 150;
const CONVEX_RATIOS = [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7];
const RRF_RATIO = 0.5;
/** Longest wait for the whole corpus to be embedded. */
const EMBEDDING_TIMEOUT_MS = 40 * 60_000;
const LOCAL_NOTE =
  'local (ONNX) embedder: not measured — this benchmark runs the builtin model only; a local model (folio models pull bge-small-en-v1.5) needs the Hugging Face hub, which this machine cannot reach';

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    'one-refresh': { type: 'boolean', default: false },
    json: { type: 'string' },
    passes: { type: 'string', default: '2' },
    'local-model': { type: 'string' },
  },
});
const passes = Number(args.passes);
if (!Number.isInteger(passes) || passes < 1) throw new Error(`--passes expects a whole number ≥ 1, got '${args.passes}'`);

interface Variant {
  key: string;
  label: string;
  params: { mode: 'keyword' | 'semantic' | 'hybrid'; semantic_ratio?: number; fusion?: 'convex' | 'rrf' };
}

const VARIANTS: Variant[] = [
  { key: 'bm25', label: 'BM25 (mode=keyword)', params: { mode: 'keyword' } },
  { key: 'dense', label: 'dense (mode=semantic)', params: { mode: 'semantic' } },
  ...CONVEX_RATIOS.map((ratio): Variant => ({ key: `convex-${ratio}`, label: `hybrid convex ${ratio}`, params: { mode: 'hybrid', semantic_ratio: ratio, fusion: 'convex' } })),
  { key: 'default', label: 'hybrid default ratio', params: { mode: 'hybrid' } },
  { key: 'rrf', label: `hybrid RRF ${RRF_RATIO}`, params: { mode: 'hybrid', semantic_ratio: RRF_RATIO, fusion: 'rrf' } },
];

interface VariantScore {
  key: string;
  label: string;
  ndcg10: number;
  recall100: number;
  /** Mean server took_ms at limit 100. */
  meanTookMs: number;
  /** Answers carrying each warning code (semantic_fallback would mean keyword results were scored). */
  warnings: Record<string, number>;
  /** Lowest semantic_coverage seen (null for keyword). */
  minCoverage: number | null;
}

interface SplitResult {
  split: string;
  queries: number;
  wallMs: number;
  scores: VariantScore[];
}

interface LatencyRow {
  label: string;
  tookMs: { p50: number; p99: number; mean: number };
  wall: LatencySummary;
}

/** Runs every variant for every judged query (all variants of one query together) and scores them. */
async function relevance(call: JsonCall, split: string, queries: Map<string, string>, qrels: Qrels): Promise<SplitResult> {
  const runs = new Map<string, Run>(VARIANTS.map((v) => [v.key, new Map()]));
  const took = new Map<string, number>(VARIANTS.map((v) => [v.key, 0]));
  const warnings = new Map<string, Record<string, number>>(VARIANTS.map((v) => [v.key, {}]));
  const coverage = new Map<string, number | null>(VARIANTS.map((v) => [v.key, null]));
  const started = performance.now();
  let done = 0;
  for (const queryId of qrels.keys()) {
    const q = queries.get(queryId) ?? '';
    for (const variant of VARIANTS) {
      const result = await call('POST', `/v1/collections/${COLLECTION}/search`, { q, limit: LIMIT, fields: 'id', ...variant.params });
      runs.get(variant.key)!.set(queryId, result.hits.map((hit: { id: string }) => hit.id));
      took.set(variant.key, took.get(variant.key)! + (result.took_ms ?? 0));
      const seen = warnings.get(variant.key)!;
      for (const warning of (result.warnings ?? []) as { code: string }[]) seen[warning.code] = (seen[warning.code] ?? 0) + 1;
      if (typeof result.semantic_coverage === 'number') {
        const low = coverage.get(variant.key);
        coverage.set(variant.key, low === null || low === undefined ? result.semantic_coverage : Math.min(low, result.semantic_coverage));
      }
    }
    done++;
    if (done % 100 === 0) console.error(`[semantic] ${split}: ${done}/${qrels.size} queries × ${VARIANTS.length} variants, ${seconds(performance.now() - started)} s`);
  }
  const wallMs = performance.now() - started;
  const scores = VARIANTS.map((variant): VariantScore => {
    const run = runs.get(variant.key)!;
    return {
      key: variant.key,
      label: variant.label,
      ndcg10: meanOverQueries(qrels, run, (r, j) => ndcgAt(10, r, j)),
      recall100: meanOverQueries(qrels, run, (r, j) => recallAt(LIMIT, r, j)),
      meanTookMs: took.get(variant.key)! / Math.max(1, qrels.size),
      warnings: warnings.get(variant.key)!,
      minCoverage: coverage.get(variant.key) ?? null,
    };
  });
  return { split, queries: qrels.size, wallMs, scores };
}

/**
 * Sequential latency on one connection: one untimed warm-up pass of each variant, then
 * `passes` rounds in which each variant runs one timed pass, order rotated each round.
 */
async function latency(call: JsonCall, texts: string[], variants: Variant[]): Promise<LatencyRow[]> {
  const search = (variant: Variant, q: string) =>
    call('POST', `/v1/collections/${COLLECTION}/search`, { q, limit: LATENCY_LIMIT, fields: 'id', ...variant.params });
  for (const variant of variants) for (const q of texts) await search(variant, q);
  const wall: number[][] = variants.map(() => []);
  const took: number[][] = variants.map(() => []);
  const wallTotal = variants.map(() => 0);
  for (let pass = 0; pass < passes; pass++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (k + pass) % variants.length;
      const passStarted = performance.now();
      for (const q of texts) {
        const t0 = performance.now();
        const result = await search(variants[index], q);
        wall[index].push(performance.now() - t0);
        took[index].push(result.took_ms);
      }
      wallTotal[index] += performance.now() - passStarted;
    }
  }
  return variants.map((variant, i) => {
    const sorted = Float64Array.from(took[i]).sort();
    return {
      label: variant.label,
      tookMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length },
      wall: summarise(wall[i], wallTotal[i]),
    };
  });
}

function scoreRows(scores: VariantScore[], chosenKey: string | null): string[][] {
  return scores.map((s) => [
    s.key === chosenKey ? `**${s.label}** (chosen)` : s.label,
    s.ndcg10.toFixed(4),
    s.recall100.toFixed(4),
    ms(s.meanTookMs, 1),
    warningText(s),
  ]);
}

function warningText(s: VariantScore): string {
  const parts = Object.entries(s.warnings).map(([code, n]) => `${code} ×${n}`);
  if (s.minCoverage !== null && s.minCoverage < 1) parts.push(`min coverage ${s.minCoverage}`);
  return parts.length === 0 ? '—' : parts.join(', ');
}

const SCORE_HEADER = ['run', 'nDCG@10', 'Recall@100', 'mean took_ms', 'warnings'];

async function main(): Promise<void> {
  if (!scifactAvailable()) {
    console.error(`SciFact not found at ${SCIFACT_DIR}; the benchmark needs ../shared/corpora beside the checkout.`);
    process.exit(2);
  }
  const smoke = args.smoke;
  const test = readScifact('test');
  let docs = test.docs;
  let testQrels = test.qrels;
  let trainQrels: Qrels | null = null;
  if (smoke) ({ docs, qrels: testQrels } = subsetWithJudgments(test.docs, test.qrels, SMOKE_DOCS));
  else trainQrels = readScifact('train').qrels;
  const passages = countPassages(docs);

  const cpuList = cpus();
  console.log(`# Search by meaning: SciFact${smoke ? ' (--smoke)' : ''}`);
  console.log('');
  console.log(
    `${new Date().toISOString()} · ${cpuList.length} cores (${cpuList[0]?.model.trim() ?? '?'}), ${mib(totalmem())} MiB · Node ${process.version} · ` +
      `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} · ${docs.length} documents, ${passages} passages · embedder \`${EMBEDDER}\`: builtin (USE lite, 512 dims)`,
  );
  console.log('');
  if (args['local-model'] !== undefined) console.log(`--local-model ${args['local-model']}: not measured by this benchmark yet (skipped)`);
  console.log(LOCAL_NOTE);
  console.log('');

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-semantic-'));
  const server = await startServerProcess(dataDir, 'folio_' + 's'.repeat(40), ['--log-level', 'warn', '--search-cache-mb', '0']);
  const pid = server.child.pid!;
  const call = jsonCaller(server.url, server.masterKey);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: { cores: cpuList.length, cpu: cpuList[0]?.model.trim(), memoryBytes: totalmem(), node: process.version },
    smoke,
    documents: docs.length,
    passages,
    localEmbedder: 'not measured — no local model source on this server yet',
  };
  try {
    // 1. Indexing and embedding.
    const cpuBefore = processCpuSeconds(pid);
    const started = performance.now();
    const batch = smoke ? SMOKE_BATCH : FULL_BATCH;
    const refreshEachBatch = !args['one-refresh'];
    const keywordMs = await indexWithEmbedders(call, COLLECTION, { [EMBEDDER]: { source: 'builtin' } }, docs, { batch, refreshEachBatch });
    console.error(`[semantic] keyword-searchable after ${seconds(keywordMs)} s; embedding…`);
    let lastLogged = 0;
    const progress = await waitForEmbedding(call, COLLECTION, EMBEDDER, docs.length, EMBEDDING_TIMEOUT_MS, (p) => {
      if (performance.now() - lastLogged > 15_000) {
        lastLogged = performance.now();
        console.error(`[semantic] ${seconds(performance.now() - started)} s: embedded ${p.embedded}, pending ${p.pending}, failed ${p.failed}`);
      }
    });
    const embeddedMs = performance.now() - started;
    const cpuAfter = processCpuSeconds(pid);
    const coresBusy = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / (embeddedMs / 1000);
    const rssAfterEmbedding = currentRssBytes(pid);
    const peakAfterEmbedding = peakRssBytes(pid);
    const record = await call('GET', `/v1/collections/${COLLECTION}`);
    const defaultRatio: number = record.settings?.embedders?.[EMBEDDER]?.default_semantic_ratio;
    const stats = await call('GET', '/v1/stats').catch(() => null);
    const docsPerS = docs.length / (embeddedMs / 1000);
    const passagesPerS = passages / (embeddedMs / 1000);
    const afterKeywordS = (embeddedMs - keywordMs) / 1000;
    results.indexing = {
      batch,
      refreshEachBatch,
      keywordSearchableMs: keywordMs,
      allEmbeddedMs: embeddedMs,
      progress,
      docsPerSecond: docsPerS,
      passagesPerSecond: passagesPerS,
      serverCpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      serverCoresBusy: coresBusy,
      rssAfterEmbeddingBytes: rssAfterEmbedding,
      peakRssAfterEmbeddingBytes: peakAfterEmbedding,
      collectionBytes: record.size_bytes,
      segments: record.segments,
      defaultSemanticRatio: defaultRatio,
    };
    console.log(
      `## Indexing and embedding (builtin embedder; NDJSON batches of ${batch}, ` +
        `${refreshEachBatch ? 'a refresh after each: one segment per batch' : 'one refresh at the end (--one-refresh): one segment'})`,
    );
    console.log('');
    console.log(
      markdownTable(
        ['docs', 'passages', 'keyword-searchable s', 'all embedded s', 'embedding docs/s', 'passages/s', 'embedded / failed', 'segments', 'server CPU s', 'server CPU ÷ wall', 'docs per CPU s', 'RSS after MiB', 'peak RSS MiB', 'collection MiB'],
        [
          [
            String(docs.length),
            String(passages),
            seconds(keywordMs),
            seconds(embeddedMs),
            docsPerS.toFixed(1),
            passagesPerS.toFixed(1),
            `${progress.embedded} / ${progress.failed}`,
            String(record.segments),
            cpuBefore === null || cpuAfter === null ? '—' : (cpuAfter - cpuBefore).toFixed(0),
            coresBusy === null ? '—' : coresBusy.toFixed(2),
            cpuBefore === null || cpuAfter === null ? '—' : (docs.length / (cpuAfter - cpuBefore)).toFixed(1),
            mib(rssAfterEmbedding),
            mib(peakAfterEmbedding),
            mib(record.size_bytes),
          ],
        ],
      ),
    );
    console.log('');
    console.log(
      `Times from the first write; embedding runs in the background from the first refreshed segment, ` +
        `so docs/s = documents / all-embedded time (${afterKeywordS.toFixed(1)} s of it after keyword-searchable). ` +
        `Passages counted with the engine's cutPassages (200 words, 40 overlap). ` +
        `Server CPU ÷ wall: the server's CPU seconds over the all-embedded time, i.e. cores kept busy (2 = both embedding threads; ` +
        `less when other processes share the cores, see the load average above). Docs per CPU s: throughput per busy core, ` +
        `less sensitive to that sharing. ` +
        `Peak RSS: the server process (VmHWM), embedding threads included.` +
        (stats?.memory ? ` /v1/stats memory: ${JSON.stringify(stats.memory)}.` : ''),
    );
    console.log('');

    // 2. Relevance.
    let chosen: VariantScore | null = null;
    if (trainQrels !== null) {
      const train = await relevance(call, 'train', test.queries, trainQrels);
      const convex = train.scores.filter((s) => s.key.startsWith('convex-'));
      chosen = convex.reduce((best, s) => (s.ndcg10 > best.ndcg10 ? s : best), convex[0]);
      results.train = train;
      results.chosenRatio = Number(chosen.key.slice('convex-'.length));
      console.log(`## TRAIN: ${train.queries} queries (limit ${LIMIT}, fields=id; ${seconds(train.wallMs)} s for ${VARIANTS.length} runs)`);
      console.log('');
      console.log(markdownTable(SCORE_HEADER, scoreRows(train.scores, chosen.key)));
      console.log('');
      console.log(`Chosen convex semantic_ratio on TRAIN by nDCG@10: ${results.chosenRatio} (default ratio of the builtin embedder: ${defaultRatio}).`);
      console.log('');
    }
    const testResult = await relevance(call, 'test', test.queries, testQrels);
    results.test = testResult;
    const byKey = new Map(testResult.scores.map((s) => [s.key, s]));
    const bm25 = byKey.get('bm25')!;
    const hybridDefault = byKey.get('default')!;
    if (chosen !== null) {
      const chosenTest = byKey.get(chosen.key)!;
      const headline = [
        { ...bm25, label: 'BM25 (mode=keyword)' },
        { ...byKey.get('dense')!, label: 'dense (mode=semantic)' },
        { ...chosenTest, label: `hybrid convex, ratio chosen on train (${results.chosenRatio})` },
        { ...hybridDefault, label: `hybrid default ratio (${defaultRatio}, no semantic_ratio)` },
        { ...byKey.get('rrf')!, label: `hybrid RRF ${RRF_RATIO}` },
      ];
      console.log(`## TEST: ${testResult.queries} queries (limit ${LIMIT}, fields=id; ${seconds(testResult.wallMs)} s for ${VARIANTS.length} runs)`);
      console.log('');
      console.log(markdownTable(SCORE_HEADER, scoreRows(headline, null)));
      console.log('');
      console.log('Every run on TEST, for reference (not used to choose anything):');
      console.log('');
      console.log(markdownTable(SCORE_HEADER, scoreRows(testResult.scores, chosen.key)));
      console.log('');
      const yes = hybridDefault.ndcg10 >= bm25.ndcg10;
      results.verdict = { hybridDefaultAtLeastBm25: yes, hybridDefaultNdcg10: hybridDefault.ndcg10, bm25Ndcg10: bm25.ndcg10 };
      console.log(
        `hybrid default ≥ BM25 on test: ${yes ? 'yes' : 'no'} (nDCG@10 ${hybridDefault.ndcg10.toFixed(4)} vs ${bm25.ndcg10.toFixed(4)}; ` +
          `Recall@100 ${hybridDefault.recall100.toFixed(4)} vs ${bm25.recall100.toFixed(4)})`,
      );
      console.log('');
    } else {
      console.log(`## TEST (smoke): ${testResult.queries} queries judged on the ${docs.length} documents (limit ${LIMIT}; ${seconds(testResult.wallMs)} s)`);
      console.log('');
      console.log(markdownTable(SCORE_HEADER, scoreRows(testResult.scores, null)));
      console.log('');
      console.log('(smoke run: a subset, no TRAIN choice and no verdict)');
      console.log('');
    }

    // 3. Latency.
    const latencyQueries = [...testQrels.keys()].map((id) => test.queries.get(id) ?? '');
    const latencyVariants = [VARIANTS[0], VARIANTS[1], VARIANTS.find((v) => v.key === 'default')!];
    const rows = await latency(call, latencyQueries, latencyVariants);
    results.latency = { limit: LATENCY_LIMIT, passes, queries: latencyQueries.length, rows };
    console.log(`## Latency: ${latencyQueries.length} test queries × ${passes} passes, limit ${LATENCY_LIMIT}, fields=id, one connection, sequential`);
    console.log('');
    console.log(
      markdownTable(
        ['mode', 'took_ms p50', 'took_ms p99', 'took_ms mean', 'wall p50 ms', 'wall p99 ms', 'wall mean ms', 'QPS'],
        rows.map((row) => [
          row.label,
          String(row.tookMs.p50),
          String(row.tookMs.p99),
          row.tookMs.mean.toFixed(1),
          ms(row.wall.p50Ms, 1),
          ms(row.wall.p99Ms, 1),
          ms(row.wall.meanMs, 1),
          row.wall.qps.toFixed(1),
        ]),
      ),
    );
    const keywordP50 = rows[0].wall.p50Ms;
    const semanticP50 = rows[1].wall.p50Ms;
    console.log('');
    console.log(`Query embedding adds about ${(semanticP50 - keywordP50).toFixed(1)} ms at p50 (wall, semantic − keyword); took_ms is the server's own figure (whole ms).`);
    console.log('');

    const peakEnd = peakRssBytes(pid);
    results.peakRssEndBytes = peakEnd;
    console.log(`Server peak RSS over the whole run: ${mib(peakEnd)} MiB (after embedding: ${mib(peakAfterEmbedding)} MiB).`);
    console.log(LOCAL_NOTE);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (args.json !== undefined) writeFileSync(args.json, `${JSON.stringify(results, null, 2)}\n`);
}

await main();
