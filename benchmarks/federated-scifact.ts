// Does federated search rank as one collection would? (`npm run bench:federated`, issue 31 goal
// "federated relevance"): SciFact (../shared/corpora/scifact) indexed once whole and once split at
// random (seeded) into 3 collections, on one real server. Each judged query is searched on the
// whole collection, and over the 3 parts merged by each rule: the server's federated search
// (`POST /v1/multi-search` with `federation`: the statistics of all three collections), and,
// from the parts' own answers (`multi-search` without federation), raw scores, scores divided by
// each part's best (Meilisearch-style normalised), min-max normalised, and reciprocal rank
// fusion (k = 60). nDCG@10 and Recall@100 as trec_eval defines them, all in the same run.
// Options: --split test|train (test), --seed N (1).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { numberOption } from './bench-options.ts';
import { meanOverQueries, ndcgAt, recallAt } from './ir-metrics.ts';
import type { Run } from './ir-metrics.ts';
import { SCIFACT_DIR, indexScifact, jsonCaller, parseSplit, readScifact, scifactAvailable } from './scifact.ts';
import type { ScifactDocument } from './scifact.ts';
import { startServerProcess } from './server-process.ts';

const { values: args } = parseArgs({ options: { split: { type: 'string' }, seed: { type: 'string' } } });

const PARTS = 3;
const DEPTH = 100;

interface Hit {
  id: string;
  score: number;
}

/** Merges the parts' ranked hits by a rule's score of (hit, its rank, its part's hits). */
function mergeBy(parts: readonly Hit[][], score: (hit: Hit, rank: number, part: readonly Hit[]) => number): string[] {
  return parts
    .flatMap((part) => part.map((hit, rank) => ({ id: hit.id, value: score(hit, rank, part) })))
    .sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, DEPTH)
    .map((hit) => hit.id);
}

const RULES: Record<string, (parts: readonly Hit[][]) => string[]> = {
  'raw BM25 scores of each collection': (parts) => mergeBy(parts, (hit) => hit.score),
  'scores ÷ the collection\'s best (normalised)': (parts) => mergeBy(parts, (hit, _rank, part) => hit.score / part[0].score),
  'min-max normalised scores': (parts) =>
    mergeBy(parts, (hit, _rank, part) => {
      const low = part.at(-1)!.score;
      const span = part[0].score - low;
      return span > 0 ? (hit.score - low) / span : 1;
    }),
  'reciprocal rank fusion (k = 60)': (parts) => mergeBy(parts, (_hit, rank) => 1 / (60 + rank + 1)),
};

/** A seeded shuffle's assignment of each document to a part (mulberry32). */
function split(docs: readonly ScifactDocument[], seed: number): ScifactDocument[][] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const parts: ScifactDocument[][] = Array.from({ length: PARTS }, () => []);
  for (const doc of docs) parts[Math.floor(random() * PARTS)].push(doc);
  return parts;
}

async function main(): Promise<void> {
  if (!scifactAvailable()) {
    console.log(`SciFact not found at ${SCIFACT_DIR}: skipped.`);
    return;
  }
  const splitName = parseSplit(args.split);
  const seed = numberOption(args.seed, 1, 'seed');
  const { docs, queries, qrels } = readScifact(splitName);
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-federated-'));
  const server = await startServerProcess(dataDir, 'folio_' + 'f'.repeat(40), ['--search-cache-mb', '0']);
  const call = jsonCaller(server.url, server.masterKey);
  try {
    await indexScifact(call, 'whole', docs);
    const parts = split(docs, seed);
    for (const [i, part] of parts.entries()) await indexScifact(call, `part${i}`, part);
    const names = parts.map((_, i) => `part${i}`);

    const runs = new Map<string, Run>([['one collection (all documents)', new Map()], ['federated search (statistics of all collections)', new Map()]]);
    for (const rule of Object.keys(RULES)) runs.set(rule, new Map());
    for (const queryId of qrels.keys()) {
      const q = queries.get(queryId) ?? '';
      const whole = await call('POST', '/v1/collections/whole/search', { q, limit: DEPTH, fields: ['id'] });
      runs.get('one collection (all documents)')!.set(queryId, whole.hits.map((hit: Hit) => hit.id));
      const federated = await call('POST', '/v1/multi-search', { queries: names.map((collection) => ({ collection, q, fields: ['id'] })), federation: { limit: DEPTH } });
      runs.get('federated search (statistics of all collections)')!.set(queryId, federated.hits.map((hit: Hit) => hit.id));
      const separate = await call('POST', '/v1/multi-search', { queries: names.map((collection) => ({ collection, q, limit: DEPTH, fields: ['id'] })) });
      const partHits: Hit[][] = separate.results.map((result: { hits: Hit[] }) => result.hits).filter((hits: Hit[]) => hits.length > 0);
      for (const [rule, merge] of Object.entries(RULES)) runs.get(rule)!.set(queryId, merge(partHits));
    }

    const single = runs.get('one collection (all documents)')!;
    const singleNdcg = meanOverQueries(qrels, single, (r, j) => ndcgAt(10, r, j));
    console.log(`# Federated search on SciFact (${splitName}, ${qrels.size} queries): ${docs.length.toLocaleString('en')} documents, split at random (seed ${seed}) into ${parts.map((part) => part.length).join(' + ')}\n`);
    console.log('| merge rule | nDCG@10 | Recall@100 | nDCG@10 − one collection |');
    console.log('| --- | --- | --- | --- |');
    for (const [rule, run] of runs) {
      const ndcg = meanOverQueries(qrels, run, (r, j) => ndcgAt(10, r, j));
      const recall = meanOverQueries(qrels, run, (r, j) => recallAt(100, r, j));
      console.log(`| ${rule} | ${ndcg.toFixed(4)} | ${recall.toFixed(4)} | ${(ndcg - singleNdcg >= 0 ? '+' : '') + (ndcg - singleNdcg).toFixed(4)} |`);
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
