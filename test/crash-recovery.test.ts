// Durability under kill -9: a real server process acknowledges writes (single upserts, a batch,
// NDJSON, a patch, deletes, an API key and a revocation), is sent SIGKILL at once — with more
// writes still in flight — and restarted on the same data directory. Every acknowledged change
// must be there and searchable; writes that were never acknowledged may or may not be, but
// nothing is corrupt. Webhook deliveries owed at the kill are made after the restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../benchmarks/server-process.ts';
import type { ServerProcess } from '../benchmarks/server-process.ts';
import { processClient } from './helpers/process-client.ts';
import { verifyWebhookSignature } from '../server/webhooks/webhook-signature.ts';
import { Receiver } from './helpers/webhook-receiver.ts';

const MASTER_KEY = 'folio_' + 'K'.repeat(40);

const client = (server: ServerProcess) => processClient(server, MASTER_KEY);

test('every acknowledged write survives SIGKILL and is searchable after restart', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-crash-'));
  let server = await startServerProcess(dataDir, MASTER_KEY);
  try {
    let call = client(server);
    assert.equal((await call('POST', '/v1/collections', { name: 'crash' })).status, 201);

    // Round 1: concurrent single upserts, a JSON batch and an NDJSON batch, all acknowledged.
    const acknowledged = new Map<string, string>();
    const singles = Array.from({ length: 60 }, (_, i) =>
      call('PUT', `/v1/collections/crash/documents/single-${i}`, { title: `single ${i}`, text: `zebracorn number ${i}`, metadata: { i } }).then((r) => {
        if (r.status === 200) acknowledged.set(`single-${i}`, `zebracorn number ${i}`);
        return r.status;
      }),
    );
    const batch = Array.from({ length: 500 }, (_, i) => ({ id: `batch-${i}`, text: `zebracorn batch ${i}` }));
    const batchWrite = call('POST', '/v1/collections/crash/documents', batch).then((r) => {
      if (r.status === 200) for (const doc of batch) acknowledged.set(doc.id, doc.text);
      return r.status;
    });
    const ndjson = Array.from({ length: 100 }, (_, i) => JSON.stringify({ id: `nd-${i}`, text: `zebracorn ndjson ${i}` })).join('\n');
    const ndjsonWrite = call('POST', '/v1/collections/crash/documents', ndjson, 'application/x-ndjson').then((r) => {
      if (r.status === 200) for (let i = 0; i < 100; i++) acknowledged.set(`nd-${i}`, `zebracorn ndjson ${i}`);
      return r.status;
    });
    const statuses = await Promise.all([...singles, batchWrite, ndjsonWrite]);
    assert.ok(statuses.every((s) => s === 200), `all writes acknowledged: ${statuses.join(',')}`);

    // Round 2: changes to acknowledged docs, then kill the moment they are acknowledged,
    // while further writes are still in flight.
    assert.equal((await call('DELETE', '/v1/collections/crash/documents/single-0')).status, 204);
    acknowledged.delete('single-0');
    assert.equal((await call('PATCH', '/v1/collections/crash/documents/single-1', { metadata: { patched: true } })).status, 200);
    // An acknowledged API key and a revocation hold too.
    const keptKey = (await call('POST', '/v1/api-keys', { name: 'kept', scopes: ['search'] })).json;
    const revoked = (await call('POST', '/v1/api-keys', { name: 'revoked' })).json;
    assert.equal((await call('DELETE', `/v1/api-keys/${revoked.id}`)).status, 204);
    const inFlight = Array.from({ length: 40 }, (_, i) =>
      call('PUT', `/v1/collections/crash/documents/late-${i}`, { text: `zebracorn late ${i}` }).catch(() => null),
    );
    await server.kill();
    await Promise.all(inFlight);

    server = await startServerProcess(dataDir, MASTER_KEY);
    call = client(server);
    for (const [id, text] of acknowledged) {
      const got = await call('GET', `/v1/collections/crash/documents/${id}`);
      assert.equal(got.status, 200, `acknowledged ${id} is present after the crash`);
      assert.equal(got.json.text, text);
    }
    assert.equal((await call('GET', '/v1/collections/crash/documents/single-0')).status, 404, 'acknowledged delete held');
    const asKey = async (key: string) =>
      (await fetch(`${server.url}/v1/collections/crash`, { headers: { authorization: `Bearer ${key}` } })).status;
    assert.equal(await asKey(keptKey.key), 200, 'an acknowledged key works after the crash');
    assert.equal(await asKey(revoked.key), 401, 'an acknowledged revocation held');
    const patched = await call('GET', '/v1/collections/crash/documents/single-1');
    assert.deepEqual(patched.json.metadata, { i: 1, patched: true }, 'acknowledged patch held');

    // Searchable: every acknowledged document matches; in-flight ones may have landed too.
    assert.equal((await call('POST', '/v1/collections/crash/refresh', {})).status, 200);
    const found = new Set<string>();
    for (let offset = 0; offset < 10_000; offset += 100) {
      const page = await call('GET', `/v1/collections/crash/search?q=zebracorn&limit=100&offset=${offset}`);
      assert.equal(page.status, 200);
      for (const hit of page.json.hits) found.add(hit.id);
      if (!page.json.has_more) break;
    }
    for (const id of acknowledged.keys()) assert.ok(found.has(id), `${id} is searchable after the crash`);
    for (const id of found) assert.ok(acknowledged.has(id) || id.startsWith('late-'), `${id} is a document that was written`);
    const info = await call('GET', '/v1/collections/crash');
    assert.equal(info.json.documents, found.size);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('webhook deliveries owed at SIGKILL are made after the restart', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-crash-hooks-'));
  // The receiver is down while the server runs the first time: every delivery stays owed.
  const probe = new Receiver();
  await probe.listen();
  const port = probe.port;
  await probe.close();
  let server = await startServerProcess(dataDir, MASTER_KEY, ['--allow-private-webhooks']);
  const receiver = new Receiver();
  try {
    let call = client(server);
    const hook = await call('POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['document.indexed'] });
    assert.equal(hook.status, 201);
    assert.equal((await call('POST', '/v1/collections', { name: 'hooks' })).status, 201);
    const ids = Array.from({ length: 5 }, (_, i) => `hooked-${i}`);
    for (const id of ids) assert.equal((await call('PUT', `/v1/collections/hooks/documents/${id}`, { text: 'owed' })).status, 200);
    await server.kill();

    await receiver.listen(port);
    server = await startServerProcess(dataDir, MASTER_KEY, ['--allow-private-webhooks']);
    call = client(server);
    // The first attempts failed before the kill; the retries (about 5 s later) reach the receiver.
    await receiver.waitFor(ids.length, 30_000);
    const delivered = new Set(receiver.received.map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id));
    assert.deepEqual([...delivered].sort(), ids);
    for (const r of receiver.received) {
      assert.ok(verifyWebhookSignature(hook.json.secret, String(r.headers['webhook-id']), Number(r.headers['webhook-timestamp']), r.body, String(r.headers['webhook-signature'])));
    }
  } finally {
    await server.stop();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
