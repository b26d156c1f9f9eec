// What a key with a filter costs (`npm run bench:filtered-keys`, issue 31 goal): GCIDE over HTTP
// on a real server process, search cache off, each entry given a `tenant` of 100 values (from a
// hash of its id). The same 1,000 distinct queries are searched with a search key without a
// filter and with a key whose filter is one tenant (`{"tenant": "t42"}`), passes alternating, so
// the machine's noise falls on both sides; the goal is ≥ 0.9× the QPS without. Both keys get the
// rate limit off (`--rate-limit off`). Mean response sizes are given: the filtered key's pages
// hold fewer hits (a hundredth of the entries match its filter).
// Options: --docs N (default all), --queries N (1,000), --passes P (3), --smoke (2,000 docs,
// 100 queries, 1 pass).

import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_MASTER_KEY, folioCaller } from './folio-api.ts';
import { importCollection, ndjsonBatches } from './folio-import.ts';
import { GCIDE_CORPUS, gcideAvailable, gcideRunOptions, idBucket } from './gcide-corpus.ts';
import { atLeast, goalsTable } from './goals.ts';
import { readJsonlLines } from './jsonl-corpus.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureAlternating } from './latency.ts';
import { LATENCY_HEADER, latencyCells, markdownTable } from './markdown-table.ts';
import { startServerProcess } from './server-process.ts';

const COLLECTION = 'gcide';
const TENANTS = 100;

async function main(): Promise<void> {
  if (!gcideAvailable()) {
    console.log('GCIDE corpus not found beside the checkout (../shared/corpora/gcide): skipped.');
    return;
  }
  const { docLimit, queries, passes } = gcideRunOptions();
  const lines = readJsonlLines(GCIDE_CORPUS, docLimit).map((line) => {
    const entry = JSON.parse(line) as { id: string; metadata: Record<string, unknown> };
    return JSON.stringify({ ...entry, metadata: { ...entry.metadata, tenant: `t${idBucket(entry.id, TENANTS)}` } });
  });

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-filtered-keys-'));
  const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--search-cache-mb', '0', '--rate-limit', 'off']);
  try {
    const imported = await importCollection({ server, dataDir, collection: COLLECTION, batches: ndjsonBatches(lines), expectedDocs: lines.length, probe: false });
    const call = folioCaller(server.url);
    const plain = (await call('POST', '/v1/api-keys', JSON.stringify({ name: 'plain', scopes: ['search'] }))) as { key: string };
    const filtered = (await call('POST', '/v1/api-keys', JSON.stringify({ name: 'tenant', filter: { tenant: 't42' } }))) as { key: string };
    const clients = [plain, filtered].map(({ key }) => new KeepAliveClient(server.url, { authorization: `Bearer ${key}` }));
    const paths = queries.map((query) => `/v1/collections/${COLLECTION}/search?q=${encodeURIComponent(query)}&limit=10`);
    try {
      const [without, withFilter] = await measureAlternating(
        clients.map((client) => ({ queries: paths, run: (path: string) => client.get(path) })),
        passes,
      );
      const bytes = await Promise.all(clients.map(async (client) => {
        let total = 0;
        for (const path of paths) total += await client.get(path);
        return total / paths.length;
      }));
      console.log(`# A key with a filter on GCIDE (issue 31): ${imported.documents.toLocaleString('en')} entries, ${TENANTS} tenants, ${queries.length} distinct queries, ${passes} pass(es) alternating, search cache off`);
      console.log(`\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}\n`);
      console.log(markdownTable(['key', ...LATENCY_HEADER.slice(1), 'mean response bytes'], [
        [...latencyCells('a search key without a filter', without), bytes[0].toFixed(0)],
        [...latencyCells('a search key with `{"tenant": "t42"}`', withFilter, `${((withFilter.qps / without.qps) * 100).toFixed(1)} % of the QPS without`), bytes[1].toFixed(0)],
      ]));
      const ratio = withFilter.qps / without.qps;
      console.log(`\n${goalsTable([{ what: 'a key with a filter (a field of 100 values) against one without', target: '≥ 0.9× the QPS without', measured: `${ratio.toFixed(2)}×`, verdict: atLeast(ratio, 0.9, '×') }])}`);
    } finally {
      for (const client of clients) client.close();
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
