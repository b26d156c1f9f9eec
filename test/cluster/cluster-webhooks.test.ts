// Webhooks in cluster mode against real PostgreSQL and s3rver: a webhook registered on one node
// hears about writes made through another, once; a delivery that failed is retried by a node
// that is still alive after the other is SIGKILLed (at least once, whichever node is alive; a
// node killed in the middle of an attempt leaves a claim that expires after 60 s, too long for
// this test). Skips with a message when PostgreSQL or Redis are not installed.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterServicesMissing } from '../helpers/cluster-services.ts';
import { callNode, eventually, startTestCluster } from '../helpers/test-cluster.ts';
import type { ClusterNodeProcess, TestCluster } from '../helpers/test-cluster.ts';
import { Receiver } from '../helpers/webhook-receiver.ts';

const missing = clusterServicesMissing();

describe('cluster webhooks', { skip: missing ?? false, timeout: 120_000 }, () => {
  let cluster: TestCluster;
  let nodeA: ClusterNodeProcess;
  let nodeB: ClusterNodeProcess;
  let receiver: Receiver;

  before(async () => {
    receiver = new Receiver();
    await receiver.listen();
    cluster = await startTestCluster();
    nodeA = await cluster.startNode('writer', ['--allow-private-webhooks']);
    nodeB = await cluster.startNode('writer', ['--allow-private-webhooks']);
    assert.equal((await callNode(nodeA.url, 'POST', '/v1/collections', { name: 'events' })).status, 201);
    await eventually('node B has the collection', async () => (await callNode(nodeB.url, 'GET', '/v1/collections/events')).status === 200);
  });
  after(async () => {
    await cluster?.destroy();
    await receiver?.close();
  });

  it('delivers an event once, whichever node took the write', async () => {
    const hook = await callNode(nodeA.url, 'POST', '/v1/webhooks', { url: receiver.url(), events: ['document.indexed'] });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    await eventually('node B knows the webhook', async () => (await callNode(nodeB.url, 'GET', `/v1/webhooks/${hook.body.id}`)).status === 200);
    assert.equal((await callNode(nodeB.url, 'PUT', '/v1/collections/events/documents/one', { text: 'first' })).status, 200);
    await receiver.waitFor(1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(receiver.received.length, 1, 'one delivery, not one per node');
    const event = JSON.parse(receiver.received[0]!.body);
    assert.equal(event.type, 'document.indexed');
    const listed = await callNode(nodeA.url, 'GET', `/v1/webhooks/${hook.body.id}/deliveries`);
    assert.equal(listed.body.deliveries[0].status, 'delivered');
    assert.equal(listed.body.deliveries[0].attempts.length, 1);
  });

  it('retries a failed delivery from a node still alive after the other is SIGKILLed', async () => {
    receiver.received.length = 0;
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? 503 : 204);
    assert.equal((await callNode(nodeA.url, 'PUT', '/v1/collections/events/documents/two', { text: 'second' })).status, 200);
    await receiver.waitFor(1, 10_000);
    // Once the failed attempt is recorded (its claim released), the node that made it dies.
    const hookId = (await callNode(nodeB.url, 'GET', '/v1/webhooks')).body.webhooks[0].id;
    await eventually('the failed attempt is recorded', async () => {
      const { body } = await callNode(nodeB.url, 'GET', `/v1/webhooks/${hookId}/deliveries`);
      return body.deliveries.some((delivery: { status: string; attempts: unknown[] }) => delivery.status === 'pending' && delivery.attempts.length === 1);
    });
    await nodeA.kill();
    // Retried after about 5 s (±20 %) by node B, the only one left.
    await receiver.waitFor(2, 20_000);
    assert.equal(receiver.received[1]!.headers['webhook-id'], receiver.received[0]!.headers['webhook-id'], 'the same event, sent again');
  });
});
