// 10,000 collections on one server (`npm run bench:collections`, issue 31 goal "many
// collections"): a real server process started under `ulimit -n 1024` gets 10,000 collections of
// 10 documents each (created and filled over HTTP, 32 at a time), then every collection is
// searched once; its open descriptors and RSS are read from /proc. It is then stopped and started
// again under the same limit (restart to serving: spawn until a search of a collection answers),
// the first search of 1,000 cold collections is timed one at a time, and 50 connections search
// random collections for 10 s (autocannon).
// Options: --collections N (10,000), --docs N a collection (10), --seconds S (10), --smoke (300
// collections, 3 s of load).

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { numberOption } from './bench-options.ts';
import { AUTH_HEADERS, BENCH_MASTER_KEY } from './folio-api.ts';
import { runLoad } from './http-load.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { percentile } from './latency.ts';
import { currentRssBytes } from './proc-memory.ts';
import { startServerProcess } from './server-process.ts';
import type { ServerProcess } from './server-process.ts';

const { values: args } = parseArgs({
  options: { collections: { type: 'string' }, docs: { type: 'string' }, seconds: { type: 'string' }, smoke: { type: 'boolean', default: false } },
});
const smoke = args.smoke === true;
const COLLECTIONS = numberOption(args.collections, smoke ? 300 : 10_000, 'collections');
const DOCS = numberOption(args.docs, 10, 'docs');
const SECONDS = numberOption(args.seconds, smoke ? 3 : 10, 'seconds');
const DESCRIPTOR_LIMIT = 1024;
const CONCURRENCY = 32;
const COLD_SEARCHES = Math.min(1_000, COLLECTIONS);
const WORDS = ['ledger', 'invoice', 'harbor', 'lantern', 'copper', 'meadow', 'signal', 'river', 'stone', 'paper'];

const GOALS = { descriptors: 1_000, rssMiB: 500, restartMs: 5_000, coldP99Ms: 50, loadP99Ms: 100 };

const nameOf = (i: number): string => `tenant${String(i).padStart(5, '0')}`;

async function call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, { method, headers: { ...AUTH_HEADERS, ...(body !== undefined && { 'content-type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

async function eachOf(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
}

const start = (dataDir: string): Promise<ServerProcess> => startServerProcess(dataDir, BENCH_MASTER_KEY, ['--rate-limit', 'off', '--log-level', 'warn', '--search-cache-mb', '0'], [], DESCRIPTOR_LIMIT);
const descriptors = (server: ServerProcess): number => readdirSync(`/proc/${server.child.pid}/fd`).length;
const rssMiB = (server: ServerProcess): number => (currentRssBytes(server.child.pid!) ?? 0) / 1024 / 1024;
const verdict = (met: boolean): string => (met ? '**met**' : '**missed**');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-collections-'));
  let server = await start(dataDir);
  try {
    const began = performance.now();
    await eachOf(COLLECTIONS, async (i) => {
      await call(server, 'POST', '/v1/collections', { name: nameOf(i) });
      const docs = Array.from({ length: DOCS }, (_, d) => ({ id: `d${d}`, text: `${WORDS[(i + d) % WORDS.length]} ${WORDS[(i * 3 + d) % WORDS.length]} note ${d} of ${nameOf(i)}` }));
      await call(server, 'POST', `/v1/collections/${nameOf(i)}/documents?refresh=wait_for`, docs);
    });
    const createMs = performance.now() - began;
    await eachOf(COLLECTIONS, async (i) => {
      const found = await call(server, 'GET', `/v1/collections/${nameOf(i)}/search?q=note&limit=1&fields=id`);
      if (found.body.total !== DOCS) throw new Error(`${nameOf(i)}: ${found.body.total} documents found, not ${DOCS}`);
    });
    const afterAll = { descriptors: descriptors(server), rssMiB: rssMiB(server) };

    // Restart under the same limit: spawn until a collection answers a search.
    await server.stop();
    const restarted = performance.now();
    server = await start(dataDir);
    await call(server, 'GET', `/v1/collections/${nameOf(COLLECTIONS - 1)}/search?q=note&limit=1`);
    const restartMs = performance.now() - restarted;

    // The first search of cold collections, one at a time (a stride through them).
    const client = new KeepAliveClient(server.url, { ...AUTH_HEADERS });
    const cold: number[] = [];
    try {
      for (let k = 0; k < COLD_SEARCHES; k++) {
        const i = (k * 7919 + 1) % COLLECTIONS;
        const t0 = performance.now();
        await client.get(`/v1/collections/${nameOf(i)}/search?q=ledger+harbor&limit=10`);
        cold.push(performance.now() - t0);
      }
    } finally {
      client.close();
    }
    cold.sort((a, b) => a - b);

    // 50 connections, each cycling through random collections.
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const paths = Array.from({ length: 5_000 }, () => `/v1/collections/${nameOf(Math.floor(random() * COLLECTIONS))}/search?q=${WORDS[Math.floor(random() * WORDS.length)]}&limit=10`);
    const load = await runLoad({ url: server.url, paths, connections: 50, seconds: SECONDS, headers: { ...AUTH_HEADERS } });
    const afterLoad = { descriptors: descriptors(server), rssMiB: rssMiB(server) };

    console.log(`# ${COLLECTIONS.toLocaleString('en')} collections of ${DOCS} documents on one server under \`ulimit -n ${DESCRIPTOR_LIMIT}\`\n`);
    console.log(`Created and filled over HTTP (${CONCURRENCY} at a time, \`refresh=wait_for\`) in ${(createMs / 1000).toFixed(1)} s.\n`);
    console.log('| measure | goal | measured | verdict |');
    console.log('| --- | --- | --- | --- |');
    console.log(`| open descriptors after creating and searching all | ≤ ${GOALS.descriptors} | ${afterAll.descriptors} | ${verdict(afterAll.descriptors <= GOALS.descriptors)} |`);
    console.log(`| RSS after creating and searching all | ≤ ${GOALS.rssMiB} MiB | ${afterAll.rssMiB.toFixed(0)} MiB | ${verdict(afterAll.rssMiB <= GOALS.rssMiB)} |`);
    console.log(`| restart to serving (spawn until a search answers) | ≤ ${GOALS.restartMs / 1000} s | ${(restartMs / 1000).toFixed(2)} s | ${verdict(restartMs <= GOALS.restartMs)} |`);
    console.log(`| first search of a cold collection, p50 / p99 (${COLD_SEARCHES.toLocaleString('en')}) | p99 ≤ ${GOALS.coldP99Ms} ms | ${percentile(cold, 50).toFixed(2)} / ${percentile(cold, 99).toFixed(2)} ms | ${verdict(percentile(cold, 99) <= GOALS.coldP99Ms)} |`);
    console.log(`| 50 connections, random collections, ${SECONDS} s: p50 / p99 (req/s) | p99 ≤ ${GOALS.loadP99Ms} ms | ${load.p50Ms} / ${load.p99Ms} ms (${Math.round(load.requestsPerSecond)}/s, ${load.errors + load.non2xx} errors) | ${verdict(load.p99Ms <= GOALS.loadP99Ms && load.errors + load.non2xx === 0)} |`);
    console.log(`| open descriptors / RSS after the load | — | ${afterLoad.descriptors} / ${afterLoad.rssMiB.toFixed(0)} MiB | |`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
