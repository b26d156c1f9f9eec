// WorkerStarts with real Piscina threads: a pool closed right after it opens first waits for
// every thread to finish loading its module (terminating one mid-import of a native addon can
// abort the process), then closes; the real pools' close() does the same.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Piscina } from 'piscina';
import { IndexPool } from './index-pool.ts';
import { SearchPool } from './search-pool.ts';
import { workerEntry } from './worker-file.ts';
import { WORKER_STARTED_KEY, WorkerStarts } from './worker-starts.ts';

test('allStarted resolves once every created thread has loaded its worker module', async () => {
  const pool = new Piscina({ ...workerEntry('index-worker', import.meta.url), minThreads: 2, maxThreads: 2 });
  const starts = new WorkerStarts(pool);
  const created = new Set<number>();
  const loaded = new Set<number>();
  pool.on('workerCreate', (worker: { id: number }) => created.add(worker.id));
  pool.on('message', (message: Record<string, unknown>) => {
    if (typeof message[WORKER_STARTED_KEY] === 'number') loaded.add(message[WORKER_STARTED_KEY] as number);
  });
  await starts.allStarted();
  assert.equal(created.size, 2);
  assert.deepEqual([...loaded].sort(), [...created].sort(), 'every thread posted that it loaded');
  await pool.destroy();
});

test('pools closed the moment they open close cleanly, again and again', async () => {
  for (let round = 0; round < 4; round++) {
    const search = new SearchPool({ threads: 2 });
    const index = new IndexPool({ threads: 2 });
    await Promise.all([search.close(), index.close()]);
  }
});
