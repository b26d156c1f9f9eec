// Relevance benchmark (`npm run bench:quality`): starts a real Folio server, indexes the SciFact
// corpus (../shared/corpora/scifact) over HTTP, runs its 300 test queries and prints nDCG@10
// and Recall@100 with trec_eval's definitions. Queries are sent as a user would type them.
// `--split train` runs the 809 train queries instead (tune on train, report test).

import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meanOverQueries, ndcgAt, parseQrelsTsv, recallAt } from './ir-metrics.ts';
import type { Run } from './ir-metrics.ts';
import { startServerProcess } from './server-process.ts';

const CORPUS_DIR = fileURLToPath(new URL('../../shared/corpora/scifact/', import.meta.url));
const BATCH = 1000;

async function main(): Promise<void> {
  if (!existsSync(join(CORPUS_DIR, 'corpus.jsonl'))) {
    console.error(`SciFact not found at ${CORPUS_DIR}; the benchmark needs ../shared/corpora beside the checkout.`);
    process.exit(2);
  }
  const docs = readFileSync(join(CORPUS_DIR, 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { _id: string; title: string; text: string });
  const queries = new Map(
    readFileSync(join(CORPUS_DIR, 'queries.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { _id: string; text: string })
      .map((q) => [q._id, q.text]),
  );
  const split = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'test';
  if (split !== 'test' && split !== 'train') throw new Error(`--split is test or train, not '${split}'`);
  const qrels = parseQrelsTsv(readFileSync(join(CORPUS_DIR, `qrels/${split}.tsv`), 'utf8'));

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-quality-'));
  const server = await startServerProcess(dataDir, 'folio_' + 'q'.repeat(40));
  const headers = { authorization: `Bearer ${server.masterKey}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown, contentType?: string): Promise<any> => {
    const response = await fetch(server.url + path, {
      method,
      headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    await call('POST', '/v1/collections', { name: 'scifact', language: 'english' });
    const started = performance.now();
    for (let i = 0; i < docs.length; i += BATCH) {
      const ndjson = docs
        .slice(i, i + BATCH)
        .map((d) => JSON.stringify({ id: d._id, title: d.title, text: d.text }))
        .join('\n');
      await call('POST', '/v1/collections/scifact/documents', ndjson, 'application/x-ndjson');
    }
    await call('POST', '/v1/collections/scifact/refresh', {});
    const indexMs = performance.now() - started;

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
