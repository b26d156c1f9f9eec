// What the controls an application shapes its search with cost (`npm run bench:controls`,
// issue 30 point 7): GCIDE over HTTP on a real server process, search cache off, 1,000
// distinct queries, each control measured against the same queries without it in the same run
// (passes alternating, measureAlternating), so the machine's noise falls on both sides:
//  - synonyms: 1,000 groups built from the dictionary's own "Syn:" lists — each a headword
//    with its synonyms, the headwords the queries use first — configured on the collection,
//    against `synonyms=false` (which skips the rule look-up: as if none were configured);
//  - a numeric boost (`metadata.senses` through log1p) against none;
//  - `distinct` on a field with 10,000 values (`bucket`, added to each entry from its id) against
//    no grouping;
// and prints the goals: ≥ 0.9×, ≥ 0.9× and ≥ 0.8× the QPS without. Boosts and grouping change
// which entries a page holds (a boost by senses lifts the long entries), so each is also measured
// with `fields=id` on both sides — the ranking's own cost, without the hits' size — and the table
// gives each side's mean response size. Then the engine alone (controls-in-process.ts): the
// same collection opened in process, each query with and without the control in turn.
// Options: --docs N (default all), --queries N (1,000), --passes P (3), --smoke (2,000 docs,
// 100 queries, 1 pass).

import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AUTH_HEADERS, BENCH_MASTER_KEY, folioCaller } from './folio-api.ts';
import { importCollection, ndjsonBatches } from './folio-import.ts';
import { GCIDE_CORPUS, gcideAvailable, gcideRunOptions, idBucket } from './gcide-corpus.ts';
import { atLeast, goalsTable } from './goals.ts';
import type { Goal } from './goals.ts';
import { readJsonlLines } from './jsonl-corpus.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureAlternating } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { LATENCY_HEADER, latencyCells, markdownTable } from './markdown-table.ts';
import { measureInProcess } from './controls-in-process.ts';
import { startServerProcess } from './server-process.ts';

const COLLECTION = 'gcide';
/** Values of the grouping field. */
const BUCKETS = 10_000;
const SYNONYM_GROUPS = 1_000;

interface GcideEntry {
  id: string;
  title: string;
  text: string;
  metadata: Record<string, unknown>;
}

/** The entry's "Syn:" words (single words only), lower-cased. */
function synonymsOf(entry: GcideEntry): string[] {
  const match = /Syn: ([^.;\n]+)/.exec(entry.text);
  if (match === null) return [];
  return match[1]
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => /^[a-z]+$/.test(word));
}

/** Up to `count` groups (headword + its synonyms), the headwords the queries use first. */
function synonymGroups(entries: readonly GcideEntry[], queries: readonly string[], count: number): { words: string[] }[] {
  const queryWords = new Set(queries.flatMap((query) => query.toLowerCase().split(/\s+/)));
  const groups: { words: string[]; used: boolean }[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const head = entry.title.toLowerCase();
    if (!/^[a-z]+$/.test(head) || seen.has(head)) continue;
    const synonyms = synonymsOf(entry).filter((word) => word !== head);
    if (synonyms.length === 0) continue;
    seen.add(head);
    groups.push({ words: [head, ...synonyms.slice(0, 7)], used: queryWords.has(head) });
  }
  groups.sort((a, b) => Number(b.used) - Number(a.used));
  return groups.slice(0, count).map(({ words }) => ({ words }));
}

async function main(): Promise<void> {
  if (!gcideAvailable()) {
    console.log('GCIDE corpus not found beside the checkout (../shared/corpora/gcide): skipped.');
    return;
  }
  const { docLimit, queries, passes } = gcideRunOptions();
  const entries = readJsonlLines(GCIDE_CORPUS, docLimit).map((line) => JSON.parse(line) as GcideEntry);
  const lines = entries.map((entry) => JSON.stringify({ ...entry, metadata: { ...entry.metadata, bucket: idBucket(entry.id, BUCKETS) } }));
  const groups = synonymGroups(entries, queries, SYNONYM_GROUPS);

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-controls-'));
  const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--search-cache-mb', '0', '--rate-limit', 'off']);
  try {
    const imported = await importCollection({ server, dataDir, collection: COLLECTION, batches: ndjsonBatches(lines), expectedDocs: lines.length, probe: false });
    const call = folioCaller(server.url);
    await call('PATCH', `/v1/collections/${COLLECTION}`, JSON.stringify({ synonyms: groups }));

    const client = new KeepAliveClient(server.url, { ...AUTH_HEADERS });
    const get = (path: string): Promise<number> => client.get(path);
    const base = queries.map((query) => `/v1/collections/${COLLECTION}/search?q=${encodeURIComponent(query)}&limit=10`);
    const compare = async (without: string, withIt: string): Promise<[LatencySummary, LatencySummary]> => {
      const [off, on] = await measureAlternating(
        [
          { queries: base.map((path) => `${path}${without}`), run: get },
          { queries: base.map((path) => `${path}${withIt}`), run: get },
        ],
        passes,
      );
      return [off, on];
    };
    let rows: { name: string; without: LatencySummary; withIt: LatencySummary; goal: number; bytes: [number, number] }[];
    /** Mean response bytes of the queries with `suffix`. */
    const meanBytes = async (suffix: string): Promise<number> => {
      let total = 0;
      for (const path of base) total += await get(`${path}${suffix}`);
      return total / base.length;
    };
    const sizes = async (without: string, withIt: string): Promise<[number, number]> => [await meanBytes(without), await meanBytes(withIt)];
    try {
      const boost = encodeURIComponent(JSON.stringify([{ field: 'metadata.senses', modifier: 'log1p' }]));
      const [noSynonyms, synonyms] = await compare('&synonyms=false', '');
      const [noBoost, boosted] = await compare('', `&boost=${boost}`);
      const [ungrouped, grouped] = await compare('', '&distinct=bucket');
      const [noBoostIds, boostedIds] = await compare('&fields=id', `&fields=id&boost=${boost}`);
      const [ungroupedIds, groupedIds] = await compare('&fields=id', '&fields=id&distinct=bucket');
      const distinctName = `\`distinct\` on a field with ${BUCKETS.toLocaleString('en')} values (against none)`;
      rows = [
        { name: `${groups.length.toLocaleString('en')} synonym groups configured (against \`synonyms=false\`)`, without: noSynonyms, withIt: synonyms, goal: 0.9, bytes: await sizes('&synonyms=false', '') },
        { name: 'a numeric boost, `metadata.senses` through log1p (against none)', without: noBoost, withIt: boosted, goal: 0.9, bytes: await sizes('', `&boost=${boost}`) },
        { name: distinctName, without: ungrouped, withIt: grouped, goal: 0.8, bytes: await sizes('', '&distinct=bucket') },
        { name: 'the same boost, `fields=id` on both sides', without: noBoostIds, withIt: boostedIds, goal: 0.9, bytes: await sizes('&fields=id', `&fields=id&boost=${boost}`) },
        { name: `the same \`distinct\`, \`fields=id\` on both sides`, without: ungroupedIds, withIt: groupedIds, goal: 0.8, bytes: await sizes('&fields=id', '&fields=id&distinct=bucket') },
      ];
    } finally {
      client.close();
    }

    console.log(`# Search controls on GCIDE (issue 30): ${imported.documents.toLocaleString('en')} entries, ${queries.length} distinct queries, ${passes} pass(es) alternating, search cache off`);
    console.log(`\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}\n`);
    console.log(
      markdownTable(
        ['control', 'variant', ...LATENCY_HEADER.slice(1), 'mean response bytes'],
        rows.flatMap(({ name, without, withIt, bytes }) => [
          [name, ...latencyCells('without', without), bytes[0].toFixed(0)],
          [name, ...latencyCells('with', withIt, `${((withIt.qps / without.qps) * 100).toFixed(1)} % of the QPS without`), bytes[1].toFixed(0)],
        ]),
      ),
    );
    const goals: Goal[] = rows.map(({ name, without, withIt, goal }) => {
      const ratio = withIt.qps / without.qps;
      return { what: name, target: `≥ ${goal}× the QPS without`, measured: `${ratio.toFixed(2)}×`, verdict: atLeast(ratio, goal, '×') };
    });
    console.log(`\n${goalsTable(goals)}`);
    await server.stop();

    // The engine's own part, without HTTP: the same collection opened in process.
    const boostParam = JSON.stringify([{ field: 'metadata.senses', modifier: 'log1p' }]);
    const inProcess = measureInProcess(dataDir, COLLECTION, queries, [
      { name: 'neither', params: {} },
      { name: 'the boost', params: { boost: boostParam } },
      { name: '`distinct`', params: { distinct: 'bucket' } },
    ], passes + 2);
    console.log(`\nIn process (the engine alone, ids only, each query with and without the control in turn, median of ${passes + 2} passes):\n`);
    console.log(markdownTable(['searched with', 'µs a query', 'QPS ÷ without'], inProcess.map(({ name, micros, ratio }) => [name, micros.toFixed(0), `${ratio.toFixed(2)}×`])));
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
