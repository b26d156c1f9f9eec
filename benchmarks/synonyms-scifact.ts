// Do synonyms help a judged search? (`npm run bench:synonyms`, issue 30 point 7): SciFact's
// judged queries (../shared/corpora/scifact) searched over HTTP on a real server, without and
// with synonyms from WordNet 3.0 (Debian's `wordnet-base`, /usr/share/wordnet): every synset of
// two or more words that holds a word of some query becomes a multi-way group (at most
// --max-groups, the synsets of the rarest senses last). Both runs in the same process, same
// index; nDCG@10 and Recall@100 with trec_eval's definitions. Tune on train, report test.
// Options: --split test|train (test), --max-groups N (20,000). Without WordNet: skipped, say so.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { numberOption } from './bench-options.ts';
import { meanOverQueries, ndcgAt, recallAt } from './ir-metrics.ts';
import type { Run } from './ir-metrics.ts';
import { SCIFACT_DIR, indexScifact, jsonCaller, parseSplit, readScifact, scifactAvailable } from './scifact.ts';
import { startServerProcess } from './server-process.ts';
import { WORDNET_DIR, readSynsets, wordnetAvailable } from './wordnet.ts';


const { values: args } = parseArgs({
  options: {
    split: { type: 'string' },
    'max-groups': { type: 'string' },
  },
});

async function main(): Promise<void> {
  if (!scifactAvailable()) {
    console.log(`SciFact not found at ${SCIFACT_DIR}: skipped.`);
    return;
  }
  if (!wordnetAvailable()) {
    console.log(`WordNet not found at ${WORDNET_DIR} (apt-get install wordnet-base): skipped.`);
    return;
  }
  const split = parseSplit(args.split);
  const maxGroups = numberOption(args['max-groups'], 20_000, 'max-groups');
  const { docs, queries, qrels } = readScifact(split);
  const queryWords = new Set([...qrels.keys()].flatMap((id) => (queries.get(id) ?? '').toLowerCase().split(/[^a-z0-9-]+/)).filter(Boolean));
  const groups = readSynsets()
    .filter((words) => words.some((word) => queryWords.has(word) || word.split(' ').every((part) => queryWords.has(part))))
    .slice(0, maxGroups)
    .map((words) => ({ words }));

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-synonyms-'));
  const server = await startServerProcess(dataDir, 'folio_' + 's'.repeat(40), ['--search-cache-mb', '0']);
  const call = jsonCaller(server.url, server.masterKey);
  try {
    await indexScifact(call, 'scifact', docs);
    await call('PATCH', '/v1/collections/scifact', { synonyms: groups });
    const measure = async (synonyms: boolean): Promise<{ ndcg: number; recall: number }> => {
      const run: Run = new Map();
      for (const queryId of qrels.keys()) {
        const result = await call('POST', '/v1/collections/scifact/search', { q: queries.get(queryId) ?? '', limit: 100, fields: ['id'], synonyms });
        run.set(queryId, result.hits.map((hit: { id: string }) => hit.id));
      }
      return { ndcg: meanOverQueries(qrels, run, (r, j) => ndcgAt(10, r, j)), recall: meanOverQueries(qrels, run, (r, j) => recallAt(100, r, j)) };
    };
    const without = await measure(false);
    const withSynonyms = await measure(true);
    console.log(`# Synonyms on SciFact (${split}, ${qrels.size} queries): ${groups.length.toLocaleString('en')} WordNet groups holding a query word\n`);
    console.log('| run | nDCG@10 | Recall@100 |');
    console.log('| --- | --- | --- |');
    console.log(`| without synonyms (\`synonyms=false\`) | ${without.ndcg.toFixed(4)} | ${without.recall.toFixed(4)} |`);
    console.log(`| with WordNet synonyms | ${withSynonyms.ndcg.toFixed(4)} | ${withSynonyms.recall.toFixed(4)} |`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
