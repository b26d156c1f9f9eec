// Webhooks over real HTTP (docs/api.md, "Webhooks"), with a real receiving server on loopback: registration and
// its validation, signed deliveries a receiver can verify, one event per bulk write, retry
// after a 500, disabling on 410, deletion stopping deliveries, a receiver that hangs never
// holding up writes, deliveries owed across a restart, and the SSRF guard (literal loopback,
// `localhost`, and a host name that resolves to 127.0.0.1).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhookSignature } from '../../server/webhooks/webhook-signature.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { Receiver } from '../helpers/webhook-receiver.ts';
import type { Received } from '../helpers/webhook-receiver.ts';

const FAST_RETRIES = [150, 300, 300, 300, 300, 300];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const eventOf = (received: Received): { id: string; type: string; created_at: string; data: Record<string, unknown> } => JSON.parse(received.body);

describe('webhooks', () => {
  let server: TestServer;
  let receiver: Receiver;

  before(async () => {
    receiver = new Receiver();
    await receiver.listen();
    server = await startTestServer({ webhooks: { allowPrivateWebhooks: true, webhookRetryDelaysMs: FAST_RETRIES } });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'hooked' })).status, 201);
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  async function register(events: string[], url = receiver.url()): Promise<{ id: string; secret: string }> {
    const response = await server.request('POST', '/v1/webhooks', { url, events, description: 'test hook' });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  test('registration validates the URL and the event names, and shows the secret once', async () => {
    for (const url of ['ftp://example.com/x', '/relative', 'not a url', 'http://user:pw@example.com/']) {
      const response = await server.request('POST', '/v1/webhooks', { url, events: ['*'] });
      assert.equal(response.status, 400, url);
      assert.equal(response.body.code, 'validation_failed');
    }
    const unknown = await server.request('POST', '/v1/webhooks', { url: receiver.url(), events: ['document.indexed', 'document.exploded'] });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /document\.exploded/);
    assert.match(unknown.body.detail, /collection\.created, collection\.deleted, document\.indexed, document\.deleted, file\.indexed, file\.failed, key\.created, key\.deleted, \*/);

    const created = await register(['collection.created']);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.match(created.id, /^wh_[0-9A-Za-z]{16}$/);
    const got = await server.request('GET', `/v1/webhooks/${created.id}`);
    assert.deepEqual(Object.keys(got.body).sort(), ['created_at', 'description', 'disabled', 'disabled_reason', 'events', 'id', 'url']);
    assert.ok(!(await server.request('GET', '/v1/webhooks')).text.includes(created.secret), 'the secret is never shown again');
    assert.equal((await server.request('DELETE', `/v1/webhooks/${created.id}`)).status, 204);
    assert.equal((await server.request('GET', `/v1/webhooks/${created.id}`)).status, 404);
    assert.equal((await server.request('DELETE', `/v1/webhooks/${created.id}`)).body.code, 'webhook_not_found');
  });

  test('a write is delivered signed within a second; a bulk write is one event with its ids', async () => {
    const hook = await register(['document.indexed']);
    const start = receiver.received.length;
    const written = Date.now();
    assert.equal((await server.request('PUT', '/v1/collections/hooked/documents/doc-1', { text: 'hello hooks' })).status, 200);
    await receiver.waitFor(start + 1, 1_000);
    assert.ok(Date.now() - written < 1_000);
    const [delivery] = receiver.received.slice(start);
    const event = eventOf(delivery!);
    assert.equal(event.type, 'document.indexed');
    assert.match(event.id, /^evt_/);
    assert.deepEqual(event.data, { collection: 'hooked', id: 'doc-1' });
    const headers = delivery!.headers;
    assert.equal(headers['webhook-id'], event.id);
    assert.equal(headers['content-type'], 'application/json');
    const timestamp = Number(headers['webhook-timestamp']);
    assert.ok(Math.abs(timestamp - Date.now() / 1000) < 5);
    assert.ok(verifyWebhookSignature(hook.secret, event.id, timestamp, delivery!.body, String(headers['webhook-signature'])));
    assert.ok(!verifyWebhookSignature(hook.secret, event.id, timestamp, delivery!.body.replace('doc-1', 'doc-2'), String(headers['webhook-signature'])));

    const batch = Array.from({ length: 250 }, (_, i) => ({ id: `bulk-${i}`, text: 'bulk words' }));
    assert.equal((await server.request('POST', '/v1/collections/hooked/documents', batch)).status, 200);
    await receiver.waitFor(start + 2);
    await sleep(200);
    assert.equal(receiver.received.length, start + 2, 'one delivery for the whole batch');
    const bulk = eventOf(receiver.received[start + 1]!);
    assert.deepEqual(bulk.data, { collection: 'hooked', ids: batch.map((doc) => doc.id) });
    assert.equal((await server.request('DELETE', `/v1/webhooks/${hook.id}`)).status, 204);
  });

  test('a 500 is retried; the deliveries list shows each attempt', async () => {
    const hook = await register(['collection.created']);
    const start = receiver.received.length;
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? 500 : 200);
    assert.equal((await server.request('POST', '/v1/collections', { name: 'retried' })).status, 201);
    await receiver.waitFor(start + 2);
    const [first, second] = receiver.received.slice(start).map(eventOf);
    assert.equal(first!.id, second!.id, 'the retry is the same event');
    assert.equal(first!.type, 'collection.created');
    await sleep(100);
    const deliveries = (await server.request('GET', `/v1/webhooks/${hook.id}/deliveries`)).body.deliveries;
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].status, 'delivered');
    assert.deepEqual(deliveries[0].attempts.map((a: { status: number }) => a.status), [500, 200]);
    receiver.answer = () => 204;
    assert.equal((await server.request('DELETE', `/v1/webhooks/${hook.id}`)).status, 204);
  });

  test('410 Gone disables the webhook, and nothing more is sent to it', async () => {
    const hook = await register(['document.deleted']);
    const start = receiver.received.length;
    receiver.answer = () => 410;
    await server.request('PUT', '/v1/collections/hooked/documents/to-delete', { text: 'x' });
    assert.equal((await server.request('DELETE', '/v1/collections/hooked/documents/to-delete')).status, 204);
    await receiver.waitFor(start + 1);
    await sleep(100);
    const got = (await server.request('GET', `/v1/webhooks/${hook.id}`)).body;
    assert.equal(got.disabled, true);
    assert.equal(got.disabled_reason, 'gone');
    await server.request('PUT', '/v1/collections/hooked/documents/to-delete', { text: 'x' });
    await server.request('DELETE', '/v1/collections/hooked/documents/to-delete');
    await sleep(400);
    assert.equal(receiver.received.length, start + 1, 'a disabled webhook gets nothing');
    receiver.answer = () => 204;
    await server.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('deleting a webhook stops its retries', async () => {
    const hook = await register(['key.created']);
    const start = receiver.received.length;
    receiver.answer = () => 503;
    const created = await server.request('POST', '/v1/api-keys', { name: 'evented' });
    assert.equal(created.status, 201);
    await receiver.waitFor(start + 1);
    assert.equal((await server.request('DELETE', `/v1/webhooks/${hook.id}`)).status, 204);
    await sleep(800); // several retry periods
    assert.ok(receiver.received.length <= start + 2, 'at most an attempt already under way');
    const event = eventOf(receiver.received[start]!);
    assert.equal((event.data.key as { name: string }).name, 'evented');
    assert.ok(!JSON.stringify(event).includes(created.body.key), 'the key itself is never in an event');
    receiver.answer = () => 204;
  });

  test('an upload sends file.indexed, a refused one file.failed', async () => {
    const hook = await register(['file.indexed', 'file.failed']);
    const start = receiver.received.length;
    const upload = async (name: string, content: Uint8Array | string): Promise<number> => {
      const form = new FormData();
      form.append('file', new Blob([content]), name);
      const response = await fetch(`${server.url}/v1/collections/hooked/files`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` }, body: form });
      await response.text();
      return response.status;
    };
    assert.equal(await upload('notes.md', '# Hooked notes\n\nwords'), 201);
    assert.equal(await upload('blob.unknownext', new Uint8Array([0, 1, 2, 3, 0, 255, 254, 0])), 415);
    await receiver.waitFor(start + 2);
    const events = receiver.received.slice(start).map(eventOf).sort((a, b) => a.type.localeCompare(b.type));
    assert.deepEqual(events.map((e) => e.type), ['file.failed', 'file.indexed']);
    assert.deepEqual([events[0]!.data.code, events[0]!.data.file_name, events[0]!.data.collection], ['unsupported_file_type', 'blob.unknownext', 'hooked']);
    const indexed = events[1]!.data as { document: { title: string; format: string; pages: number }; file_name: string };
    assert.deepEqual([indexed.document.title, indexed.document.format, indexed.document.pages, indexed.file_name], ['Hooked notes', 'md', 1, 'notes.md']);
    await server.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('a receiver that never answers does not hold up writes', async () => {
    const hook = await register(['document.indexed']);
    const start = receiver.received.length;
    receiver.answer = () => null;
    for (let i = 0; i < 3; i++) {
      assert.equal((await server.request('PUT', `/v1/collections/hooked/documents/slow-${i}`, { text: 'slow' })).status, 200);
    }
    await receiver.waitFor(start + 1);
    assert.equal((await server.request('GET', '/v1/collections/hooked/documents/slow-2')).status, 200, 'every write was answered while the receiver held its request');
    receiver.answer = () => 204;
    await server.request('DELETE', `/v1/webhooks/${hook.id}`);
  });
});

test('deliveries owed survive a restart and are made once the receiver is back', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-hooks-'));
  const receiver = new Receiver();
  await receiver.listen();
  const port = receiver.port;
  await receiver.close(); // the receiver is down: the delivery stays owed
  let server = await startTestServer({ dataDir, webhooks: { allowPrivateWebhooks: true, webhookRetryDelaysMs: [200, 200, 200, 200, 200, 200] } });
  try {
    const hook = (await server.request('POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['collection.created'] })).body;
    assert.equal((await server.request('POST', '/v1/collections', { name: 'owed' })).status, 201);
    await sleep(100);
    await server.close();

    const back = new Receiver();
    await back.listen(port);
    server = await startTestServer({ dataDir, webhooks: { allowPrivateWebhooks: true, webhookRetryDelaysMs: [200, 200, 200, 200, 200, 200] } });
    await back.waitFor(1, 5_000);
    const event = eventOf(back.received[0]!);
    assert.deepEqual([event.type, (event.data.collection as { name: string }).name], ['collection.created', 'owed']);
    assert.ok(verifyWebhookSignature(hook.secret, event.id, Number(back.received[0]!.headers['webhook-timestamp']), back.received[0]!.body, String(back.received[0]!.headers['webhook-signature'])));
    await back.close();
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('private addresses are refused by default: literal, localhost, and a name resolving to 127.0.0.1', async () => {
  const receiver = new Receiver();
  await receiver.listen();
  const server = await startTestServer({
    webhooks: {
      webhookRetryDelaysMs: [100, 100, 100, 100, 100, 100],
      // receiver.test resolves to loopback, as a DNS name pointing at 127.0.0.1 would.
      webhookLookup: async (hostname) => (hostname === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
    },
  });
  try {
    for (const url of [receiver.url(), `http://localhost:${receiver.port}/hook`, `http://[::1]:${receiver.port}/hook`, 'http://10.1.2.3/hook', 'http://169.254.169.254/latest']) {
      const response = await server.request('POST', '/v1/webhooks', { url, events: ['*'] });
      assert.equal(response.status, 400, url);
      assert.match(response.body.detail, /--allow-private-webhooks/, url);
    }
    const hook = await server.request('POST', '/v1/webhooks', { url: `http://receiver.test:${receiver.port}/hook`, events: ['collection.created'] });
    assert.equal(hook.status, 201, 'a name is only checked when it is resolved, at each delivery');
    assert.equal((await server.request('POST', '/v1/collections', { name: 'guarded' })).status, 201);
    await sleep(500);
    assert.equal(receiver.received.length, 0, 'the receiver on 127.0.0.1 never got a request');
    const [delivery] = (await server.request('GET', `/v1/webhooks/${hook.body.id}/deliveries`)).body.deliveries;
    assert.ok(delivery.attempts.length >= 1);
    assert.equal(delivery.attempts[0].status, null);
    assert.match(delivery.attempts[0].error, /127\.0\.0\.1/);
  } finally {
    await server.close();
    await receiver.close();
  }
});
