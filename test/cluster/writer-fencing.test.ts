// The pieces of cluster mode that decide who writes and in what order, against a real
// PostgreSQL: a lease is taken over only once expired, with the next fencing token; a stale
// writer can neither renew nor publish; the shared write log numbers concurrent appends without
// gaps, in commit order. Skips with a message when PostgreSQL or Redis are not installed.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterServicesMissing, startPostgres } from '../helpers/cluster-services.ts';
import type { PostgresServer } from '../helpers/cluster-services.ts';
import { ClusterDatabase } from '../../server/cluster/cluster-database.ts';
import { CollectionCatalog } from '../../server/cluster/collection-catalog.ts';
import { LeaseLostError, PublishedManifests } from '../../server/cluster/published-manifests.ts';
import { SharedWriteLog } from '../../server/cluster/shared-write-log.ts';
import { WriterLeases } from '../../server/cluster/writer-lease.ts';
import type { Manifest } from '../../storage/index.ts';

const missing = clusterServicesMissing();
const EMPTY: Manifest = { formatVersion: 1, generation: 0, walGeneration: 1, nextSegmentNumber: 1, segments: [] };

describe('writer leases, fencing and the shared log', { skip: missing ?? false, timeout: 60_000 }, () => {
  let postgres: PostgresServer;
  let db: ClusterDatabase;

  before(async () => {
    postgres = await startPostgres();
    db = new ClusterDatabase(postgres.url);
    await db.migrate();
    await db.migrate(); // a second node starting finds the schema there
    const catalog = new CollectionCatalog(db);
    await catalog.create({ name: 'c', language: 'english', createdAt: '2026-11-24T00:00:00.000Z', settings: { typo_tolerance: {}, embedders: {} } });
  });
  after(async () => {
    await db?.close();
    await postgres?.destroy();
  });

  it('hands a lease over only once it expires, with the next token; the stale writer cannot publish', async () => {
    const a = new WriterLeases(db, 'node-a', 300);
    const b = new WriterLeases(db, 'node-b', 300);
    const leaseA = await a.acquire('c');
    assert.deepEqual(leaseA, { collection: 'c', token: 1 });
    assert.equal(await b.acquire('c'), null, 'held and not expired');
    const manifests = new PublishedManifests(db);
    assert.equal(await manifests.publish(leaseA!, 0, EMPTY, {}, 60_000), 1);

    await new Promise((resolve) => setTimeout(resolve, 400));
    const leaseB = await b.acquire('c');
    assert.deepEqual(leaseB, { collection: 'c', token: 2 });
    assert.equal(await a.renew(leaseA!), false, 'the old writer cannot renew');
    await assert.rejects(manifests.publish(leaseA!, 5, { ...EMPTY, generation: 9 }, {}, 60_000), LeaseLostError);
    assert.equal(await manifests.publish(leaseB!, 3, { ...EMPTY, generation: 1 }, {}, 60_000), 2);
    const latest = await manifests.latest('c');
    assert.equal(latest?.version, 2);
    assert.equal(latest?.logSeq, 3);
    assert.equal(latest?.manifest.generation, 1, "the stale writer's manifest was never published");

    await b.release(leaseB!);
    assert.deepEqual(await a.acquire('c'), { collection: 'c', token: 3 }, 'a released lease is free at once');
  });

  it('numbers concurrent appends without gaps, each record under its number', async () => {
    const log = new SharedWriteLog(db);
    const seqs = await Promise.all(Array.from({ length: 40 }, (_, i) => log.append('c', Buffer.from(`record ${i}`))));
    assert.deepEqual([...seqs].sort((x, y) => x - y), Array.from({ length: 40 }, (_, i) => i + 1));
    const read = await log.read('c', 0, 100, 1 << 20);
    assert.deepEqual(read.map((write) => write.seq), Array.from({ length: 40 }, (_, i) => i + 1));
    for (const write of read) assert.equal(Buffer.from(write.record).toString(), `record ${seqs.indexOf(write.seq)}`);
    assert.equal((await log.read('c', 0, 100, 20)).length, 2, 'a byte budget stops the read');
    assert.equal((await log.read('c', 0, 100, 1)).length, 1, 'never below one record');
    await log.trim('c', 30);
    assert.deepEqual((await log.read('c', 0, 100, 1 << 20)).map((write) => write.seq), [31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
    assert.equal(await log.head('c'), 40);
    await assert.rejects(log.append('missing', Buffer.from('x')), /collection 'missing' does not exist/);
  });
});
