// The webhook dispatcher on real files: deliveries owed to a webhook that no longer exists (a
// crash between deleting the webhook and its deliveries) are forgotten at start instead of
// being retried in a loop, and a secret that cannot sign fails an attempt like any other
// failure instead of stopping the dispatcher.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { WebhookDispatcher } from './webhook-dispatcher.ts';
import { WebhookOutbox } from './webhook-outbox.ts';
import type { OutboxDelivery } from './webhook-places.ts';
import { WebhookStore } from './webhook-store.ts';

const root = mkdtempSync(join(tmpdir(), 'folio-dispatcher-'));
after(() => rmSync(root, { recursive: true, force: true }));

function owed(webhookId: string, n: number): OutboxDelivery {
  return {
    id: `dlv_${n}`,
    webhookId,
    event: { id: `evt_${n}`, type: 'collection.created', created_at: new Date().toISOString(), data: { collection: 'c' } },
    state: 'pending',
    attempts: [],
    nextAttemptAt: 0,
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('deliveries of a webhook that no longer exists are forgotten, not retried in a loop', async () => {
  const dir = mkdtempSync(join(root, 'orphan-'));
  const outbox = WebhookOutbox.open(dir);
  await outbox.add([owed('wh_gone000000000000', 1), owed('wh_gone000000000000', 2)]);
  const dispatcher = new WebhookDispatcher({ store: WebhookStore.open(dir), outbox, allowPrivate: true });
  dispatcher.start();
  await tick(50); // a timer fires: the event loop is not held by a promise loop
  await dispatcher.idle();
  assert.deepEqual(outbox.pending(), []);
  assert.deepEqual(WebhookOutbox.open(dir).pending(), [], 'forgotten in the log too');
  dispatcher.close();
  await outbox.close();
});

test('a secret that cannot sign fails the attempt and schedules a retry', async () => {
  const dir = mkdtempSync(join(root, 'badsecret-'));
  const store = WebhookStore.open(dir);
  const webhook = store.create({ url: 'http://127.0.0.1:9/hook', events: ['*'], description: null, secret: 'whsec_!!not base64!!' });
  const outbox = WebhookOutbox.open(dir);
  await outbox.add([owed(webhook.id, 3)]);
  const dispatcher = new WebhookDispatcher({ store, outbox, allowPrivate: true, retryDelaysMs: [60_000] });
  dispatcher.start();
  await tick(50);
  await dispatcher.idle();
  const [delivery] = outbox.pending();
  assert.equal(delivery!.attempts.length, 1);
  assert.match(delivery!.attempts[0]!.error ?? '', /could not sign/);
  assert.ok(delivery!.nextAttemptAt! > Date.now() + 30_000, 'retried later, not at once');
  dispatcher.close();
  await outbox.close();
});
