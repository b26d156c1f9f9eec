// Two builds of the engine, side by side in one process, over one kept data directory: the
// measure of an engine change on a machine whose speed drifts by ±25 % within minutes. Each
// build is a compiled `dist/` (`npm run build`, then copy it away; put the copies inside the
// repository, so that their imports find node_modules). Every query is first checked to answer
// the same hits, scores and total in both. Then, pass after pass, the two builds take turns
// query by query — each running a different query at each step (half the list apart), so
// neither warms the CPU's caches for the other, as running the same query twice in a row
// would (that hides any change about memory) — and each build's time is summed per pass.
//
//   npx tsx benchmarks/engine-ab.ts --old .tmp/dist-old --new .tmp/dist-new --data DIR
//     [--collection synthetic] [--queries FILE] [--limit N] [--passes 6] [--mode ids|ids-typos|full]

import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { numberOption } from './bench-options.ts';
import { readQueryTexts } from './jsonl-corpus.ts';

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string' },
    data: { type: 'string' },
    collection: { type: 'string', default: 'synthetic' },
    queries: { type: 'string', default: '/tmp/folio-synthetic/n1000000/queries.jsonl' },
    limit: { type: 'string' },
    passes: { type: 'string' },
    mode: { type: 'string', default: 'ids' },
  },
});
if (values.old === undefined || values.new === undefined || values.data === undefined) {
  throw new Error('usage: engine-ab.ts --old DIST --new DIST --data DATA_DIR [--collection NAME] [--queries FILE] [--limit N] [--passes N] [--mode ids|ids-typos|full]');
}
/** Each mode's request for `q`: ids of exact words, ids with the default typo tolerance, or full hits. */
const requests: Record<string, (q: string) => Record<string, unknown>> = {
  ids: (q) => ({ q, limit: 10, fields: 'id', typos: '0' }),
  'ids-typos': (q) => ({ q, limit: 10, fields: 'id' }),
  full: (q) => ({ q, limit: 10 }),
};
const request = requests[values.mode!];
if (request === undefined) throw new Error(`--mode expects ids, ids-typos or full, got '${values.mode}'`);
const collectionDir = join(values.data, 'collections', values.collection);

type Search = (q: string) => { total: number; hits: { id: string; score: number }[] };

/** The route's own request for `q` (as the mode asks), run by the build in `dist`. */
async function load(dist: string): Promise<Search> {
  const root = resolve(dist);
  const { Analyzer, DEFAULT_TYPO_TOLERANCE, searchSegments } = await import(join(root, 'engine/index.js'));
  const { toSearchRequest } = await import(join(root, 'server/http/routes/search/search-request.js'));
  const { SegmentSet } = await import(join(root, 'server/indexing/segment-set.js'));
  const { readManifest } = await import(join(root, 'storage/index.js'));
  const snapshot = SegmentSet.load(collectionDir, readManifest(collectionDir));
  const analyzer = Analyzer.for('english');
  return (q) => searchSegments(snapshot.views, analyzer, { ...toSearchRequest(request(q), 'querystring'), typoTolerance: DEFAULT_TYPO_TOLERANCE });
}

const builds = [await load(values.old), await load(values.new)];
const queries = readQueryTexts(values.queries, numberOption(values.limit, Infinity, 'limit'));
const answer = (search: Search, q: string): string => {
  const result = search(q);
  return JSON.stringify([result.total, result.hits.map((hit) => [hit.id, hit.score])]);
};
let differ = 0;
for (const q of queries) {
  const [before, after] = builds.map((search) => answer(search, q));
  if (before !== after && differ++ < 3) console.log(`differs: '${q}'\n  old ${before.slice(0, 300)}\n  new ${after.slice(0, 300)}`);
}
console.log(`${differ} of ${queries.length} queries answer differently`);

const timed = (search: Search, q: string): number => {
  const started = performance.now();
  search(q);
  return performance.now() - started;
};
const n = queries.length;
const qps: number[][] = [[], []];
const totals = [0, 0];
for (let pass = 0; pass < numberOption(values.passes, 6, 'passes'); pass++) {
  const spent = [0, 0];
  for (let k = 0; k < n; k++) {
    const oldQuery = queries[k];
    const newQuery = queries[(k + (n >> 1)) % n];
    // Which build goes first alternates, step by step and pass by pass.
    if ((k + pass) % 2 === 0) {
      spent[0] += timed(builds[0], oldQuery);
      spent[1] += timed(builds[1], newQuery);
    } else {
      spent[1] += timed(builds[1], newQuery);
      spent[0] += timed(builds[0], oldQuery);
    }
  }
  for (const b of [0, 1]) {
    qps[b].push((n / spent[b]) * 1000);
    totals[b] += spent[b];
  }
}
const row = (values: number[]) => values.map((value) => value.toFixed(0)).join(' ');
console.log(`QPS per pass: old ${row(qps[0])} | new ${row(qps[1])}`);
console.log(`new/old: ${(totals[0] / totals[1]).toFixed(3)} over all passes; per pass ${qps[1].map((value, i) => (value / qps[0][i]).toFixed(2)).join(' ')}`);
