// Relevance benchmark (`npm run bench:quality`): starts a real Folio server, indexes the SciFact
// corpus (../shared/corpora/scifact) over HTTP, runs its 300 test queries and prints nDCG@10
// and Recall@100 with trec_eval's definitions. Queries are sent as a user would type them.
// `--split train` runs the 809 train queries instead (tune on train, report test).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meanOverQueries, ndcgAt, recallAt } from './ir-metrics.ts';
import type { Run } from './ir-metrics.ts';
import { SCIFACT_DIR, indexScifact, jsonCaller, parseSplit, readScifact, scifactAvailable } from './scifact.ts';
import { startServerProcess } from './server-process.ts';

async function main(): Promise<void> {
  if (!scifactAvailable()) {
    console.error(`SciFact not found at ${SCIFACT_DIR}; the benchmark needs ../shared/corpora beside the checkout.`);
    process.exit(2);
  }
  const split = parseSplit(process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : undefined);
  const { docs, queries, qrels } = readScifact(split);

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-quality-'));
  const server = await startServerProcess(dataDir, 'folio_' + 'q'.repeat(40));
  const call = jsonCaller(server.url, server.masterKey);
  try {
    const indexMs = await indexScifact(call, 'scifact', docs);

    const run: Run = new Map();
    const searchStarted = performance.now();
    for (const queryId of qrels.keys()) {
      const q = queries.get(queryId) ?? '';
      const result = await call('POST', '/v1/collections/scifact/search', { q, limit: 100 });
      run.set(queryId, result.hits.map((hit: { id: string }) => hit.id));
    }
    const searchMs = performance.now() - searchStarted;
    const ndcg = meanOverQueries(qrels, run, (r, j) => ndcgAt(10, r, j));
    const recall = meanOverQueries(qrels, run, (r, j) => recallAt(100, r, j));
    console.log(`SciFact: ${docs.length} documents indexed over HTTP in ${(indexMs / 1000).toFixed(2)} s`);
    console.log(`${qrels.size} ${split} queries in ${(searchMs / 1000).toFixed(2)} s (limit 100)`);
    console.log(`nDCG@10    ${ndcg.toFixed(4)}`);
    console.log(`Recall@100 ${recall.toFixed(4)}`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
