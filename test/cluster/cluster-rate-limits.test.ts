// Rate limits across the nodes of a cluster, against real PostgreSQL, Redis and s3rver: with
// `--redis` a key's token bucket is one bucket for every node (a Lua script per take); without
// it each node enforces its share of the limit and says so in stats.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterServicesMissing } from '../helpers/cluster-services.ts';
import { callNode, eventually, startTestCluster } from '../helpers/test-cluster.ts';
import type { ClusterNodeProcess, TestCluster } from '../helpers/test-cluster.ts';

const missing = clusterServicesMissing();

/** Sends `count` requests with `key`, alternating between the nodes; returns the statuses. */
async function burst(nodes: ClusterNodeProcess[], key: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${nodes[i % nodes.length]!.url}/v1/collections`, { headers: { authorization: `Bearer ${key}` } });
    statuses.push(response.status);
  }
  return statuses;
}

async function newKey(node: ClusterNodeProcess, others: ClusterNodeProcess[], burstSize: number): Promise<string> {
  const created = await callNode(node.url, 'POST', '/v1/api-keys', { scopes: ['search'], rate_limit: { per_second: 1, burst: burstSize } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  for (const other of others) {
    await eventually('every node knows the key', async () => (await callNode(other.url, 'GET', '/v1/api-keys')).body.keys.some((key: { id: string }) => key.id === created.body.id));
  }
  return created.body.key;
}

describe('cluster rate limits', { skip: missing ?? false, timeout: 120_000 }, () => {
  describe('with --redis', () => {
    let cluster: TestCluster;
    let nodes: ClusterNodeProcess[];
    before(async () => {
      cluster = await startTestCluster({ redis: true });
      nodes = [await cluster.startNode('writer'), await cluster.startNode('replica')];
    });
    after(async () => cluster?.destroy());

    it('gives a key one bucket across all nodes', async () => {
      const stats = await callNode(nodes[1]!.url, 'GET', '/v1/stats');
      assert.equal(stats.body.cluster.rate_limits, 'shared');
      const key = await newKey(nodes[0]!, nodes, 6);
      // Four through one node, then four through the other: six in all, as one bucket.
      assert.deepEqual(await burst([nodes[0]!], key, 4), [200, 200, 200, 200]);
      assert.deepEqual(await burst([nodes[1]!], key, 4), [200, 200, 429, 429]);
    });
  });

  describe('without --redis', () => {
    let cluster: TestCluster;
    let nodes: ClusterNodeProcess[];
    before(async () => {
      cluster = await startTestCluster();
      nodes = [await cluster.startNode('writer'), await cluster.startNode('replica')];
    });
    after(async () => cluster?.destroy());

    it('lets each node enforce its share, and says so in stats', async () => {
      await eventually('both nodes count two nodes', async () => {
        const counts = await Promise.all(nodes.map(async (node) => (await callNode(node.url, 'GET', '/v1/stats')).body.cluster.nodes));
        return counts.every((count) => count === 2);
      });
      assert.equal((await callNode(nodes[0]!.url, 'GET', '/v1/stats')).body.cluster.rate_limits, 'per_node');
      const key = await newKey(nodes[0]!, nodes, 6);
      // Each node allows 3 (half of 6): six in all across the two.
      assert.deepEqual(await burst([nodes[0]!], key, 4), [200, 200, 200, 429]);
      assert.deepEqual(await burst([nodes[1]!], key, 4), [200, 200, 200, 429]);
    });
  });
});
