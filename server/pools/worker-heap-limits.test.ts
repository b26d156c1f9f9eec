// The worker heap limits follow the machine's memory within their floors and ceilings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INDEX_WORKER_HEAP, SEARCH_WORKER_HEAP, heapLimitMb } from './worker-heap-limits.ts';

const GIB = 1024 ** 3;

test('a share of the memory, never under the floor nor over the ceiling', () => {
  assert.equal(heapLimitMb(SEARCH_WORKER_HEAP, 1 * GIB), 256);
  assert.equal(heapLimitMb(SEARCH_WORKER_HEAP, 8 * GIB), 1024);
  assert.equal(heapLimitMb(SEARCH_WORKER_HEAP, 64 * GIB), 2048);
  assert.equal(heapLimitMb(INDEX_WORKER_HEAP, 1 * GIB), 512);
  assert.equal(heapLimitMb(INDEX_WORKER_HEAP, 8 * GIB), 2048);
  assert.equal(heapLimitMb(INDEX_WORKER_HEAP, 24 * GIB), 4096);
});
