// Cluster mode end to end against real PostgreSQL and a real S3 endpoint (s3rver): a writer
// and a replica as child processes. Collections, settings, writes and deletes made through any
// node reach every node; `refresh=true` on a replica answers once the replica searches the
// write; segment files go to the object store. Skips with a message when PostgreSQL or Redis
// are not installed (`.ci/run` installs them).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';

import { clusterServicesMissing } from '../helpers/cluster-services.ts';
import { CLUSTER_MASTER_KEY, callNode, eventually, startTestCluster } from '../helpers/test-cluster.ts';
import type { ClusterNodeProcess, TestCluster } from '../helpers/test-cluster.ts';
import { runCli } from '../helpers/spawn-cli.ts';
import { ObjectStore } from '../../server/cluster/index.ts';

const missing = clusterServicesMissing();

describe('cluster mode', { skip: missing ?? false, timeout: 180_000 }, () => {
  let cluster: TestCluster;
  let writer: ClusterNodeProcess;
  let replica: ClusterNodeProcess;

  before(async () => {
    cluster = await startTestCluster();
    // A grace period of 1 s, so superseded and deleted files go within the test.
    writer = await cluster.startNode('writer', ['--cluster-grace', '1']);
    replica = await cluster.startNode('replica', ['--cluster-grace', '1']);
  });
  after(async () => {
    await cluster?.destroy();
  });

  it('a collection created on the replica appears on the writer, and a write through either is searchable on both', async () => {
    const created = await callNode(replica.url, 'POST', '/v1/collections', { name: 'notes', typo_tolerance: { enabled: false } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await eventually('the writer lists the collection', async () => (await callNode(writer.url, 'GET', '/v1/collections/notes')).status === 200);
    const onWriter = await callNode(writer.url, 'GET', '/v1/collections/notes');
    assert.equal(onWriter.body.settings.typo_tolerance.enabled, false);
    assert.equal(onWriter.body.created_at, created.body.created_at);

    const again = await callNode(writer.url, 'POST', '/v1/collections', { name: 'notes' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'collection_exists');

    const written = await callNode(replica.url, 'POST', '/v1/collections/notes/documents?refresh=true', { id: 'n1', title: 'Lighthouse', text: 'a keeper of the lamp' });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    // refresh=true on the replica: searchable there when the answer comes.
    const onReplica = await callNode(replica.url, 'GET', '/v1/collections/notes/search?q=lamp');
    assert.equal(onReplica.body.total, 1);
    const second = await callNode(writer.url, 'POST', '/v1/collections/notes/documents?refresh=true', { id: 'n2', title: 'Harbour', text: 'boats and the lamp' });
    assert.equal(second.status, 200);
    await eventually('the replica finds both', async () => (await callNode(replica.url, 'GET', '/v1/collections/notes/search?q=lamp')).body.total === 2);
    assert.equal((await callNode(replica.url, 'GET', '/v1/collections/notes/documents/n2')).body.title, 'Harbour');
  });

  it('patches and deletes through the replica reach every node', async () => {
    const patched = await callNode(replica.url, 'PATCH', '/v1/collections/notes/documents/n1?refresh=true', { title: 'Lighthouse keeper' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await eventually('the writer sees the patch', async () => (await callNode(writer.url, 'GET', '/v1/collections/notes/documents/n1')).body.title === 'Lighthouse keeper');
    const deleted = await callNode(replica.url, 'DELETE', '/v1/collections/notes/documents/n2?refresh=true');
    assert.equal(deleted.status, 204);
    await eventually('the writer no longer finds n2', async () => (await callNode(writer.url, 'GET', '/v1/collections/notes/documents/n2')).status === 404);
    assert.equal((await callNode(replica.url, 'GET', '/v1/collections/notes/search?q=lamp')).body.total, 1);
  });

  it('settings changed on one node apply on the others', async () => {
    const changed = await callNode(writer.url, 'PATCH', '/v1/collections/notes', { typo_tolerance: { enabled: true } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await eventually('the replica has the new settings', async () => (await callNode(replica.url, 'GET', '/v1/collections/notes')).body.settings.typo_tolerance.enabled === true);
    // Synonyms, ranking and searchable fields travel the same way, and the replica searches with them.
    const shaped = await callNode(writer.url, 'PATCH', '/v1/collections/notes', {
      synonyms: [{ words: ['beacon', 'lamp'] }],
      ranking: { boost: [{ field: 'metadata.rating', modifier: 'log1p' }] },
      searchable_fields: [{ field: 'title', weight: 2 }, { field: 'text', weight: 1 }],
    });
    assert.equal(shaped.status, 200, JSON.stringify(shaped.body));
    await eventually('the replica searches with the synonyms', async () => (await callNode(replica.url, 'GET', '/v1/collections/notes/search?q=beacon')).body.total === 1);
    const settings = (await callNode(replica.url, 'GET', '/v1/collections/notes')).body.settings;
    assert.deepEqual(settings.ranking, { boost: [{ field: 'metadata.rating', modifier: 'log1p' }] });
    assert.deepEqual(settings.searchable_fields, [{ field: 'title', weight: 2 }, { field: 'text', weight: 1 }]);
  });

  async function objectKeys(prefix: string): Promise<string[]> {
    const saved = { ...process.env };
    Object.assign(process.env, cluster.s3.env);
    const store = new ObjectStore({ bucket: cluster.s3.bucket, prefix: '' }, cluster.s3.endpoint);
    process.env = saved;
    try {
      return (await store.list(prefix)).map((object) => object.key);
    } finally {
      store.close();
    }
  }

  it('keeps segment files in the object store under the writer\'s fencing token', async () => {
    const keys = await objectKeys('folio/collections/notes/');
    assert.ok(keys.some((key) => /\/w\d+\/seg-\d+\.fseg$/.test(key)), keys.join(', '));
  });

  it('a collection deleted on one node goes from every node, and its files from the store after the grace period', async () => {
    await callNode(writer.url, 'POST', '/v1/collections', { name: 'scratch' });
    await eventually('the replica lists scratch', async () => (await callNode(replica.url, 'GET', '/v1/collections/scratch')).status === 200);
    assert.equal((await callNode(replica.url, 'POST', '/v1/collections/scratch/documents?refresh=true', { id: 's', text: 'soon gone' })).status, 200);
    assert.ok((await objectKeys('folio/collections/scratch/')).length > 0);
    assert.equal((await callNode(replica.url, 'DELETE', '/v1/collections/scratch')).status, 204);
    await eventually('the writer no longer has scratch', async () => (await callNode(writer.url, 'GET', '/v1/collections/scratch')).status === 404);
    await eventually('its objects are removed', async () => (await objectKeys('folio/collections/scratch/')).length === 0, 20_000);
  });

  it('removes superseded files from the store once no kept manifest names them', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await callNode(writer.url, 'DELETE', `/v1/collections/notes/documents/missing-${i}`)).status, 404);
      assert.equal((await callNode(writer.url, 'PUT', `/v1/collections/notes/documents/churn?refresh=true`, { text: `version ${i}` })).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    const db = new pg.Client({ connectionString: cluster.postgres.url });
    await db.connect();
    try {
      await eventually('only the files of kept manifests are stored', async () => {
        // One more publication drops the manifests older than the grace period, then sweeps.
        await callNode(writer.url, 'PUT', '/v1/collections/notes/documents/churn?refresh=true', { text: 'last version' });
        await new Promise((resolve) => setTimeout(resolve, 300));
        const { rows } = await db.query<{ objects: Record<string, string> }>("SELECT objects FROM folio_manifests WHERE collection = 'notes'");
        const named = new Set(rows.flatMap((row) => Object.values(row.objects)));
        const stored = await objectKeys('folio/collections/notes/');
        return stored.length > 0 && stored.every((key) => named.has(key));
      }, 20_000);
    } finally {
      await db.end();
    }
  });

  it('says which node writes which collection in stats', async () => {
    await eventually('the writer holds the lease of notes', async () => (await callNode(writer.url, 'GET', '/v1/stats')).body.cluster?.collections?.notes?.role === 'writer');
    const stats = await callNode(replica.url, 'GET', '/v1/stats');
    assert.equal(stats.body.cluster.role, 'replica');
    assert.equal(stats.body.cluster.collections.notes.role, 'replica');
    assert.ok(stats.body.cluster.collections.notes.manifest_version >= 1);
  });

  it('shares API keys and sessions: made on one node, they work on every node; revoked, on none', async () => {
    const created = await callNode(writer.url, 'POST', '/v1/api-keys', { name: 'shared', scopes: ['search'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const search = (url: string, token: string) => fetch(`${url}/v1/collections/notes/search?q=lamp`, { headers: { authorization: `Bearer ${token}` } });
    await eventually('the replica accepts the key', async () => (await search(replica.url, created.body.key)).status === 200);
    assert.equal((await search(replica.url, created.body.key)).status, 200);
    const listed = await callNode(replica.url, 'GET', '/v1/api-keys');
    assert.ok(listed.body.keys.some((key: { id: string }) => key.id === created.body.id));
    assert.ok(!JSON.stringify(listed.body).includes(created.body.key), 'the key itself is never listed');

    assert.equal((await callNode(replica.url, 'DELETE', `/v1/api-keys/${created.body.id}`)).status, 204);
    assert.equal((await search(replica.url, created.body.key)).status, 401, 'revoked at once where it was revoked');
    await eventually('the writer refuses the revoked key', async () => (await search(writer.url, created.body.key)).status === 401);

    const session = await fetch(`${replica.url}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ master_key: CLUSTER_MASTER_KEY }) });
    assert.equal(session.status, 201);
    const { token } = (await session.json()) as { token: string };
    await eventually('the writer accepts the session', async () => (await search(writer.url, token)).status === 200);
  });

  it('refuses cluster flags that do not go together, naming them', async () => {
    const noStore = await runCli(['serve', '--port', '0', '--cluster', cluster.postgres.url], { FOLIO_MASTER_KEY: 'k'.repeat(32) });
    assert.notEqual(noStore.code, 0);
    assert.match(noStore.output, /--cluster needs --object-store/);
    const stray = await runCli(['serve', '--port', '0', '--object-store', 's3://bucket/x']);
    assert.notEqual(stray.code, 0);
    assert.match(stray.output, /--object-store is for cluster mode/);
    const noKey = await runCli(['serve', '--port', '0', '--cluster', cluster.postgres.url, '--object-store', 's3://bucket/x']);
    assert.notEqual(noKey.code, 0);
    assert.match(noKey.output, /FOLIO_MASTER_KEY/);
  });
});
