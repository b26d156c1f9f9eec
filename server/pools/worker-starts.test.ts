// WorkerStarts with real Piscina threads: a pool closed right after it opens first waits for
// every thread to finish loading its module (terminating one mid-import of a native addon can
// abort the process), then closes; the real pools' close() does the same. A stand-in worker
// module that takes 500 ms to load (worker-starts.test-worker.ts) logs when each thread begins
// and finishes loading, so the tests see whether a close cut a load short; the real pools'
// threads are watched for the message each posts once loaded.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ExtractionPool } from './extraction-pool.ts';
import { IndexPool } from './index-pool.ts';
import { SearchPool } from './search-pool.ts';
import { workerEntry } from './worker-file.ts';
import { WORKER_STARTED_KEY, WorkerStarts } from './worker-starts.ts';

/** The worker module that takes a while to load. */
const SLOW_WORKER = 'worker-starts.test-worker';

const logDir = mkdtempSync(path.join(tmpdir(), 'folio-worker-starts-'));
after(() => rmSync(logDir, { recursive: true, force: true }));
let logCount = 0;

/** Names a fresh load log for the threads started from now on (they copy the environment). */
function freshLoadLog(): string {
  const log = path.join(logDir, `loads-${++logCount}.log`);
  process.env.FOLIO_SLOW_START_LOG = log;
  return log;
}

/** The ids of the threads that began loading and of those that finished, per the log. */
function readLoadLog(log: string): { loading: number[]; loaded: number[] } {
  let lines: string[] = [];
  try {
    lines = readFileSync(log, 'utf8').split('\n');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const ids = (kind: string): number[] =>
    lines.filter((line) => line.startsWith(`${kind} `)).map((line) => Number(line.slice(kind.length + 1))).sort((a, b) => a - b);
  return { loading: ids('loading'), loaded: ids('loaded') };
}

function threadIds(threads: readonly Worker[]): number[] {
  return threads.map((thread) => thread.threadId).sort((a, b) => a - b);
}

/** Records which of `threads` have posted that their worker module loaded. */
function watchLoaded(threads: readonly Worker[]): Set<number> {
  const loaded = new Set<number>();
  for (const thread of threads) {
    thread.on('message', (message: unknown) => {
      const id = (message as Record<string, unknown> | null)?.[WORKER_STARTED_KEY];
      if (typeof id === 'number') loaded.add(id);
    });
  }
  return loaded;
}

test('allStarted resolves only once every thread still loading its module has loaded it', async () => {
  const log = freshLoadLog();
  const pool = new Piscina({ ...workerEntry(SLOW_WORKER, import.meta.url), minThreads: 2, maxThreads: 2 });
  const starts = new WorkerStarts(pool);
  const ids = threadIds(pool.threads);
  assert.equal(ids.length, 2);
  await starts.allStarted();
  assert.deepEqual(readLoadLog(log), { loading: ids, loaded: ids }, 'both threads had finished loading when allStarted resolved');
  await pool.destroy();
});

test('a thread started later, whose loaded message comes before Piscina announces it, is not waited for', async () => {
  freshLoadLog();
  // As the index pool: one thread from the start, a second started when the first is busy.
  const pool = new Piscina({ ...workerEntry(SLOW_WORKER, import.meta.url), minThreads: 1, maxThreads: 2, idleTimeout: 60_000 });
  const starts = new WorkerStarts(pool);
  await starts.allStarted();
  const ran = await Promise.all([pool.run(300), pool.run(300)]);
  assert.equal(new Set(ran).size, 2, 'the two tasks ran on two threads');
  assert.equal(pool.threads.length, 2);
  // The second thread posted that it loaded before Piscina announced it; were it taken for a
  // thread still starting, allStarted would wait out its 10 s limit.
  const began = performance.now();
  await starts.allStarted();
  assert.ok(performance.now() - began < 1_000, `allStarted took ${Math.round(performance.now() - began)} ms`);
  await pool.destroy();
});

test('an extraction pool closed the moment it opens lets every thread finish loading first', async () => {
  const log = freshLoadLog();
  const pool = new ExtractionPool({ workerModule: SLOW_WORKER, threads: 2 });
  assert.equal(pool.threads.length, 0, 'threads start with the first files');
  // Two files start both threads; the pool closes while they load (the files then fail).
  for (const name of ['a.txt', 'b.txt']) pool.extract(path.join(logDir, name), name).catch(() => {});
  const ids = threadIds(pool.threads);
  assert.equal(ids.length, 2);
  await pool.close();
  assert.deepEqual(readLoadLog(log), { loading: ids, loaded: ids }, 'no thread was terminated while loading');
  assert.equal(pool.threads.length, 0, 'the threads are gone');
});

test('the real pools start threads only for work, and closed the moment they start them let every thread finish loading first', async () => {
  for (let round = 0; round < 2; round++) {
    const search = new SearchPool({ threads: 2 });
    const index = new IndexPool({ threads: 2 });
    const extraction = new ExtractionPool({ threads: 1 });
    assert.equal(search.threads.length + index.threads.length + extraction.threads.length, 0, 'no thread starts before work comes');
    // Work for every thread (it fails or is cut short when the pools close; only the starts matter).
    const snapshot = { collectionId: 'none', dir: logDir, language: 'english', generation: 1, segments: [] };
    for (let i = 0; i < 2; i++) {
      search.search(snapshot, { q: 'x' } as never).catch(() => {});
      index.writeSegment(path.join(logDir, `unused-${round}-${i}.seg`), { language: 'english', searchFields: [] }, []).catch(() => {});
    }
    extraction.extract(path.join(logDir, 'missing.txt'), 'missing.txt').catch(() => {});
    const threads = [...search.threads, ...index.threads, ...extraction.threads];
    const ids = threadIds(threads); // (a terminated thread's id reads -1)
    assert.equal(ids.length, 5);
    const loaded = watchLoaded(threads);
    await Promise.all([search.close(), index.close(), extraction.close()]);
    assert.deepEqual([...loaded].sort((a, b) => a - b), ids, 'every thread posted that it loaded before its pool closed');
  }
});
