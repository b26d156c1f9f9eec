// Cluster mode under faults, each a real multi-process cluster on 127.0.0.1 — one writer, one
// standby, two replicas, real PostgreSQL, Redis and a real S3 endpoint (s3rver):
//  - the writer SIGKILLed in the middle of a 100,000-document import: after failover every
//    acknowledged write is searchable on every node, none twice;
//  - a replica SIGKILLed under search load: the others keep answering;
//  - PostgreSQL stopped: writes fail with 503 and Retry-After, searches serve the last
//    manifest, and everything resumes when it is back;
//  - the object store stopped: new segments wait, nothing is published that cannot be read.
// Skips with a message when PostgreSQL or Redis are not installed (`.ci/run` installs them).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterServicesMissing } from '../helpers/cluster-services.ts';
import { callNode, eventually, startTestCluster } from '../helpers/test-cluster.ts';
import type { ClusterNodeProcess, TestCluster } from '../helpers/test-cluster.ts';

const missing = clusterServicesMissing();
const DOCUMENTS = 100_000;
const BATCH = 1_000;
const KILL_AFTER_BATCHES = 30;

function batchBody(batch: number): string {
  const lines: string[] = [];
  for (let i = batch * BATCH; i < (batch + 1) * BATCH; i++) {
    lines.push(JSON.stringify({ id: `d${i}`, title: `Record ${i}`, text: `bulk record number ${i} of the import`, metadata: { batch } }));
  }
  return lines.join('\n') + '\n';
}

async function liveDocuments(node: ClusterNodeProcess, collection: string): Promise<number> {
  const info = await callNode(node.url, 'GET', `/v1/collections/${collection}`);
  return info.status === 200 ? info.body.documents : -1;
}

async function searchTotal(node: ClusterNodeProcess, collection: string, query: string): Promise<number> {
  const found = await callNode(node.url, 'GET', `/v1/collections/${collection}/search?q=${encodeURIComponent(query)}&track_total=true&limit=1`);
  return found.status === 200 ? found.body.total : -1;
}

async function roleOf(node: ClusterNodeProcess, collection: string): Promise<string | undefined> {
  return (await callNode(node.url, 'GET', '/v1/stats')).body.cluster?.collections?.[collection]?.role;
}

describe('cluster faults', { skip: missing ?? false, timeout: 600_000 }, () => {
  let cluster: TestCluster;
  let writer: ClusterNodeProcess;
  let standby: ClusterNodeProcess;
  let replicaA: ClusterNodeProcess;
  let replicaB: ClusterNodeProcess;

  before(async () => {
    cluster = await startTestCluster({ leaseSeconds: 2, redis: true });
    writer = await cluster.startNode('writer');
    const created = await callNode(writer.url, 'POST', '/v1/collections', { name: 'bulk' });
    assert.equal(created.status, 201);
    await eventually('the first node writes bulk', async () => (await roleOf(writer, 'bulk')) === 'writer');
    standby = await cluster.startNode('writer');
    replicaA = await cluster.startNode('replica');
    replicaB = await cluster.startNode('replica');
  });
  after(async () => {
    await cluster?.destroy();
  });

  it('loses no acknowledged write and doubles none when the writer is SIGKILLed mid-import', async () => {
    const acknowledged = new Set<number>();
    let writerKilledAt = 0;
    const targets = () => (writerKilledAt === 0 ? [writer, standby, replicaA, replicaB] : [standby, replicaA, replicaB]);
    let next = 0;
    const importer = async (worker: number): Promise<void> => {
      let attempt = worker;
      for (;;) {
        const batch = next++;
        if (batch >= DOCUMENTS / BATCH) return;
        for (;;) {
          const nodes = targets();
          const node = nodes[attempt++ % nodes.length]!;
          try {
            const answer = await callNode(node.url, 'POST', '/v1/collections/bulk/documents', batchBody(batch), 'application/x-ndjson');
            if (answer.status === 200) {
              acknowledged.add(batch);
              break;
            }
            assert.ok(answer.status === 503 || answer.status === 429, `batch ${batch} on ${node.url}: ${answer.status} ${JSON.stringify(answer.body)}`);
          } catch (error) {
            // The killed node: the connection failed; the batch goes to another node (upserts are idempotent).
            assert.ok(writerKilledAt > 0 || node === writer, String(error));
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        if (writerKilledAt === 0 && acknowledged.size >= KILL_AFTER_BATCHES) {
          writerKilledAt = Date.now();
          await writer.kill();
        }
      }
    };
    await Promise.all([importer(0), importer(1), importer(2)]);
    assert.equal(acknowledged.size, DOCUMENTS / BATCH);
    const failover = await eventually('the standby takes over writing bulk', async () => (await roleOf(standby, 'bulk')) === 'writer', 60_000);
    const failoverMs = Date.now() - writerKilledAt;
    for (const node of [standby, replicaA, replicaB]) {
      await eventually(`every acknowledged document searchable on ${node.url}`, async () => (await searchTotal(node, 'bulk', 'bulk')) >= DOCUMENTS, 240_000);
      // Once: no document twice in the search, nor among the live documents.
      assert.equal(await searchTotal(node, 'bulk', 'bulk'), DOCUMENTS);
      assert.equal(await liveDocuments(node, 'bulk'), DOCUMENTS);
      assert.equal(await searchTotal(node, 'bulk', '"record number 99999"'), 1);
      assert.equal(await searchTotal(node, 'bulk', '"record number 12345"'), 1);
    }
    console.log(`# failover: the standby wrote bulk ${failoverMs} ms after the writer was killed (${failover} ms after the import ended)`);
  });

  it('a killed writer restarted on its data directory serves the published state, not what it never published', async () => {
    // Its directory holds segments and a WAL it built before the kill; the standby has since
    // published segments of its own, some under the same names.
    const restarted = await cluster.startNode('writer', [], writer.dataDir);
    await eventually('the restarted node finds every document once', async () => (await searchTotal(restarted, 'bulk', 'bulk')) === DOCUMENTS, 60_000);
    assert.equal(await liveDocuments(restarted, 'bulk'), DOCUMENTS);
    assert.equal(await searchTotal(restarted, 'bulk', '"record number 31337"'), 1);
    assert.equal(await roleOf(restarted, 'bulk'), 'replica', 'the standby keeps the lease');
    await restarted.stop();
  });

  it('keeps answering searches on the other nodes when a replica is SIGKILLed under load', async () => {
    let stop = false;
    const failures: string[] = [];
    let answered = 0;
    const searcher = async (node: ClusterNodeProcess): Promise<void> => {
      while (!stop) {
        try {
          const found = await callNode(node.url, 'GET', '/v1/collections/bulk/search?q=record&limit=5');
          if (found.status === 200 && found.body.hits.length === 5) answered++;
          else failures.push(`${node.url}: ${found.status}`);
        } catch (error) {
          failures.push(`${node.url}: ${(error as Error).message}`);
        }
      }
    };
    const load = [searcher(standby), searcher(replicaB), searcher(replicaB)];
    await new Promise((resolve) => setTimeout(resolve, 500));
    await replicaA.kill();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    stop = true;
    await Promise.all(load);
    assert.deepEqual(failures, []);
    assert.ok(answered > 20, `only ${answered} searches answered`);
  });

  it('refuses writes with 503 and Retry-After while PostgreSQL is down, serves searches, and resumes', async () => {
    await cluster.postgres.stop();
    try {
      const refused = await callNode(replicaB.url, 'POST', '/v1/collections/bulk/documents', { id: 'while-down', text: 'postgres was away' });
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'cluster_unavailable');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      const onWriter = await callNode(standby.url, 'POST', '/v1/collections/bulk/documents', { id: 'while-down', text: 'postgres was away' });
      assert.equal(onWriter.status, 503);
      assert.equal(await searchTotal(replicaB, 'bulk', '"record number 4242"'), 1);
      assert.equal(await searchTotal(standby, 'bulk', '"record number 4242"'), 1);
    } finally {
      await cluster.postgres.start();
    }
    await eventually('writes are accepted again', async () => (await callNode(replicaB.url, 'POST', '/v1/collections/bulk/documents', { id: 'after-pg', text: 'postgres came back' })).status === 200);
    await eventually('the write is searchable on the replica', async () => (await searchTotal(replicaB, 'bulk', 'came back')) === 1);
    assert.equal(await searchTotal(replicaB, 'bulk', 'away'), 0, 'the refused write was not written');
  });

  it('publishes nothing while the object store is down, and catches up when it is back', async () => {
    const versionOn = async (node: ClusterNodeProcess): Promise<number> => (await callNode(node.url, 'GET', '/v1/stats')).body.cluster.collections.bulk.manifest_version;
    // Settle first: the writer may still publish what it uploaded before the outage (the last
    // write's segment, or a merge of it), and the replica may not have installed it yet.
    let before = -1;
    let settledSince = Date.now();
    await eventually('the writer and the replica agree on a manifest that stays put', async () => {
      const [onWriter, onReplica] = [await versionOn(standby), await versionOn(replicaB)];
      if (onWriter !== onReplica || onReplica !== before) {
        before = onReplica;
        settledSince = Date.now();
      }
      return onWriter === onReplica && Date.now() - settledSince >= 2_000;
    }, 30_000);
    await cluster.s3.stop();
    try {
      const written = await callNode(replicaB.url, 'POST', '/v1/collections/bulk/documents', { id: 'during-s3', text: 'the bucket was unreachable' });
      assert.equal(written.status, 200, 'the write is acknowledged: it is in the shared log');
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.equal(await versionOn(replicaB), before, 'no manifest was published whose files the store does not hold');
      assert.equal(await searchTotal(replicaB, 'bulk', 'unreachable'), 0);
      assert.equal(await searchTotal(replicaB, 'bulk', '"record number 777"'), 1, 'the replica serves the last manifest');
    } finally {
      await cluster.s3.start();
    }
    await eventually('the write is published and searchable on the replica', async () => (await searchTotal(replicaB, 'bulk', 'unreachable')) === 1, 30_000);
    assert.ok((await versionOn(replicaB)) > before);
  });
});
