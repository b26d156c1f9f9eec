// Cluster mode beside the single process, in the same run on this machine (issue 19):
//  - searches per second: one single-process node (every core) against one replica, and against
//    two replicas loaded together (on a 2-core machine expect no gain: report per-node cost);
//  - what the cluster adds to a search (one connection, p50) and to a write (one document,
//    acknowledged: a PostgreSQL commit instead of a local fsync);
//  - how long a write takes to become searchable on a replica (write on one node, poll another);
//  - failover: the writer SIGKILLed, the time until the standby writes and a write made after
//    the kill is searchable on a replica.
// Real PostgreSQL and s3rver, nodes as child processes of the built CLI (test/helpers/).
//
//   npm run build && tsx benchmarks/cluster.ts [--docs 20000] [--seconds 8] [--lease 5] [--smoke]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { clusterServicesMissing } from '../test/helpers/cluster-services.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { startCli } from '../test/helpers/spawn-cli.ts';
import { CLUSTER_MASTER_KEY, callNode, eventually, startTestCluster } from '../test/helpers/test-cluster.ts';
import { runLoad } from './http-load.ts';
import type { LoadResult } from './http-load.ts';
import { percentile } from './latency.ts';
import { markdownTable } from './markdown-table.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '8' },
    lease: { type: 'string', default: '5' },
    smoke: { type: 'boolean', default: false },
  },
});
const SMOKE = values.smoke === true;
const DOCS = SMOKE ? 2_000 : Number(values.docs);
const LOAD_SECONDS = SMOKE ? 2 : Number(values.seconds);
/** `--cluster-lease`: the failover time is about this (5 s is the default of `folio serve`). */
const LEASE_SECONDS = Number(values.lease);
const BATCH = 1_000;
const CONNECTIONS = 8;
const SINGLE_WRITES = SMOKE ? 20 : 200;
const VISIBILITY_SAMPLES = SMOKE ? 5 : 30;
const AUTH = { authorization: `Bearer ${CLUSTER_MASTER_KEY}` };
/** No rate limit, and no search cache: every search is run (the queries repeat). */
const NODE_ARGS = ['--rate-limit', 'off', '--search-cache-mb', '0'];


// A seeded corpus: words drawn from a Zipf-like vocabulary, so queries hit posting lists of every length.
const random = seededRandom(19);
const VOCABULARY = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}x${Math.floor(random() * 1e6).toString(36)}`);
const word = (): string => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2)]!;
function batchBody(batch: number): string {
  const lines: string[] = [];
  for (let i = batch * BATCH; i < Math.min(DOCS, (batch + 1) * BATCH); i++) {
    lines.push(JSON.stringify({ id: `d${i}`, title: `${word()} ${word()}`, text: Array.from({ length: 40 }, word).join(' ') }));
  }
  return lines.join('\n') + '\n';
}
const QUERIES = Array.from({ length: 200 }, () => `/v1/collections/bench/search?q=${word()}+${word()}&limit=10`);

async function importCorpus(url: string): Promise<number> {
  const started = performance.now();
  for (let batch = 0; batch * BATCH < DOCS; batch++) {
    const answer = await callNode(url, 'POST', '/v1/collections/bench/documents', batchBody(batch), 'application/x-ndjson');
    if (answer.status !== 200) throw new Error(`import batch ${batch}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return performance.now() - started;
}

async function searchable(url: string): Promise<void> {
  await eventually(`${DOCS} documents searchable on ${url}`, async () => (await callNode(url, 'GET', '/v1/collections/bench')).body.documents === DOCS, 300_000);
  await callNode(url, 'POST', '/v1/collections/bench/refresh').catch(() => undefined);
}

async function oneConnectionP50(url: string, count: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${url}${QUERIES[i % QUERIES.length]}`, { headers: AUTH });
    await response.arrayBuffer();
    samples.push(performance.now() - started);
  }
  return percentile(samples.sort((a, b) => a - b), 50);
}

async function writeLatencies(url: string, count: number): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await callNode(url, 'PUT', `/v1/collections/bench/documents/w${i}`, { text: `single write ${word()} ${i}` });
    if (answer.status !== 200 && answer.status !== 201) throw new Error(`write: ${answer.status} ${JSON.stringify(answer.body)}`);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function load(urls: string[]): Promise<LoadResult[]> {
  return Promise.all(urls.map((url) => runLoad({ url, paths: QUERIES, connections: Math.max(1, Math.floor(CONNECTIONS / urls.length)), seconds: LOAD_SECONDS, headers: AUTH })));
}

const sum = (results: LoadResult[]): number => results.reduce((total, result) => total + result.requestsPerSecond, 0);
const errorsOf = (results: LoadResult[]): number => results.reduce((total, result) => total + result.errors + result.timeouts + result.non2xx, 0);

async function main(): Promise<void> {
  const missing = clusterServicesMissing();
  if (missing !== null) {
    console.log(`cluster benchmark skipped: ${missing}`);
    return;
  }
  const rows: string[][] = [];
  const notes: string[] = [];

  // The single process: the whole machine (default threads).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-single-'));
  const single = await startCli(['serve', '--port', '0', '--data', dir, '--log-level', 'warn', ...NODE_ARGS], { FOLIO_MASTER_KEY: CLUSTER_MASTER_KEY });
  let singleSearchP50: number;
  let singleWrite: { p50: number; p99: number };
  let singleLoad: LoadResult[];
  try {
    await callNode(single.url, 'POST', '/v1/collections', { name: 'bench' });
    const importMs = await importCorpus(single.url);
    await searchable(single.url);
    notes.push(`single process: ${DOCS.toLocaleString('en')} documents acknowledged in ${(importMs / 1000).toFixed(1)} s`);
    singleLoad = await load([single.url]);
    singleSearchP50 = await oneConnectionP50(single.url, 300);
    singleWrite = await writeLatencies(single.url, SINGLE_WRITES);
  } finally {
    await single.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  rows.push(['single process (2 search threads)', (sum(singleLoad)).toFixed(0), singleSearchP50.toFixed(2), singleWrite.p50.toFixed(2), singleWrite.p99.toFixed(2), String(errorsOf(singleLoad))]);

  // The cluster: a writer, a standby and two replicas (one search thread each).
  const cluster = await startTestCluster({ leaseSeconds: LEASE_SECONDS });
  try {
    const writer = await cluster.startNode('writer', NODE_ARGS);
    await callNode(writer.url, 'POST', '/v1/collections', { name: 'bench' });
    await eventually('the writer takes the lease', async () => (await callNode(writer.url, 'GET', '/v1/stats')).body.cluster.collections.bench?.role === 'writer');
    const standby = await cluster.startNode('writer', NODE_ARGS);
    const replicas = [await cluster.startNode('replica', NODE_ARGS), await cluster.startNode('replica', NODE_ARGS)];
    const importMs = await importCorpus(replicas[0]!.url);
    const importedAt = performance.now();
    for (const replica of replicas) await searchable(replica.url);
    notes.push(
      `cluster: ${DOCS.toLocaleString('en')} documents acknowledged in ${(importMs / 1000).toFixed(1)} s (appended to PostgreSQL), all searchable on both replicas ${((performance.now() - importedAt) / 1000).toFixed(1)} s later`,
    );
    const oneReplica = await load([replicas[0]!.url]);
    const twoReplicas = await load(replicas.map((replica) => replica.url));
    const replicaSearchP50 = await oneConnectionP50(replicas[0]!.url, 300);
    const clusterWrite = await writeLatencies(replicas[1]!.url, SINGLE_WRITES);
    rows.push(['cluster: one replica (1 search thread)', sum(oneReplica).toFixed(0), replicaSearchP50.toFixed(2), clusterWrite.p50.toFixed(2), clusterWrite.p99.toFixed(2), String(errorsOf(oneReplica))]);
    rows.push([`cluster: two replicas together (${twoReplicas.map((result) => result.requestsPerSecond.toFixed(0)).join(' + ')})`, sum(twoReplicas).toFixed(0), '', '', '', String(errorsOf(twoReplicas))]);

    // Visibility: a write through one replica, polled on the other.
    const lags: number[] = [];
    for (let i = 0; i < VISIBILITY_SAMPLES; i++) {
      const marker = `visible${i}marker${Math.floor(random() * 1e9).toString(36)}`;
      const started = performance.now();
      const answer = await callNode(replicas[0]!.url, 'PUT', `/v1/collections/bench/documents/v${i}`, { text: marker });
      if (answer.status !== 200 && answer.status !== 201) throw new Error(`visibility write: ${answer.status}`);
      await eventually('the write is searchable on the other replica', async () => (await callNode(replicas[1]!.url, 'GET', `/v1/collections/bench/search?q=${marker}`)).body.total === 1, 30_000);
      lags.push(performance.now() - started);
    }
    lags.sort((a, b) => a - b);

    // Failover: the writer SIGKILLed; a write made right after must become searchable.
    const killedAt = performance.now();
    await writer.kill();
    await callNode(replicas[0]!.url, 'PUT', '/v1/collections/bench/documents/after-kill', { text: 'afterkillmarker' });
    await eventually('the standby writes', async () => (await callNode(standby.url, 'GET', '/v1/stats')).body.cluster.collections.bench?.role === 'writer', 60_000);
    const takeoverMs = performance.now() - killedAt;
    await eventually('the write made after the kill is searchable on a replica', async () => (await callNode(replicas[1]!.url, 'GET', '/v1/collections/bench/search?q=afterkillmarker')).body.total === 1, 60_000);
    const recoveredMs = performance.now() - killedAt;

    console.log(`\nCluster benchmark — ${DOCS.toLocaleString('en')} documents, ${CONNECTIONS} connections for ${LOAD_SECONDS} s per load, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}\n`);
    console.log(markdownTable(['setup', 'searches/s', 'search p50 ms (1 conn)', 'write p50 ms', 'write p99 ms', 'errors'], rows));
    console.log('');
    console.log(markdownTable(['measure', 'value'], [
      ['two replicas ÷ one replica (searches/s)', (sum(twoReplicas) / sum(oneReplica)).toFixed(2)],
      ['one replica ÷ single process (searches/s)', (sum(oneReplica) / sum(singleLoad)).toFixed(2)],
      ['search p50: replica − single process', `${(replicaSearchP50 - singleSearchP50).toFixed(2)} ms`],
      ['write p50: cluster − single process (acknowledged)', `${(clusterWrite.p50 - singleWrite.p50).toFixed(2)} ms`],
      [`write → searchable on another replica (${VISIBILITY_SAMPLES} writes)`, `p50 ${percentile(lags, 50).toFixed(0)} ms, p95 ${percentile(lags, 95).toFixed(0)} ms, max ${lags[lags.length - 1]!.toFixed(0)} ms`],
      [`failover: writer SIGKILLed → standby writes (lease ${LEASE_SECONDS} s)`, `${takeoverMs.toFixed(0)} ms`],
      ['failover: writer SIGKILLed → a write made after it searchable on a replica', `${recoveredMs.toFixed(0)} ms`],
    ]));
    console.log('');
    for (const note of notes) console.log(`- ${note}`);
  } finally {
    await cluster.destroy();
  }
}

await main();
