// The worker heap limits follow the machine's memory within their floors and ceilings, and a
// worker's young generation stays small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { INDEX_WORKER_HEAP, SEARCH_WORKER_HEAP, heapLimitMb, workerResourceLimits } from './worker-heap-limits.ts';

const GIB = 1024 ** 3;

test('a share of the memory, never under the floor nor over the ceiling', () => {
  assert.equal(heapLimitMb(SEARCH_WORKER_HEAP, 1 * GIB), 256);
  assert.equal(heapLimitMb(SEARCH_WORKER_HEAP, 8 * GIB), 1024);
  assert.equal(heapLimitMb(SEARCH_WORKER_HEAP, 64 * GIB), 2048);
  assert.equal(heapLimitMb(INDEX_WORKER_HEAP, 1 * GIB), 512);
  assert.equal(heapLimitMb(INDEX_WORKER_HEAP, 8 * GIB), 2048);
  assert.equal(heapLimitMb(INDEX_WORKER_HEAP, 24 * GIB), 4096);
});

for (const [name, rule] of [['a search', SEARCH_WORKER_HEAP], ['an index', INDEX_WORKER_HEAP]] as const) {
  test(`${name} worker's young generation stays within its limit however much it allocates`, async () => {
    const limits = workerResourceLimits(rule);
    assert.equal(limits.maxOldGenerationSizeMb, heapLimitMb(rule));
    const youngMb = limits.maxYoungGenerationSizeMb!;
    // Objects that live a while, as a build's do: without a limit V8 grows this worker's young generation to 32 MiB.
    const source = `
      const v8 = require('node:v8');
      const ring = new Array(200_000);
      let kept = 0;
      for (let i = 0; i < 3_000_000; i++) {
        ring[i % ring.length] = { token: 'term' + (i % 5000), at: i };
        kept += ring[(i * 7) % ring.length]?.at ?? 0;
      }
      const young = v8.getHeapSpaceStatistics().filter((space) => space.space_name === 'new_space' || space.space_name === 'new_large_object_space');
      require('node:worker_threads').parentPort.postMessage({ kept, young: young.reduce((sum, space) => sum + space.space_size, 0) });
    `;
    const worker = new Worker(source, { eval: true, resourceLimits: limits });
    const reply = await new Promise<{ kept: number; young: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    assert.ok(reply.kept > 0);
    assert.ok(reply.young <= youngMb * 1024 * 1024, `young generation ${reply.young} bytes over ${youngMb} MiB`);
  });
}
