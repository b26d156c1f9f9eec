// Per-key search concurrency: a key runs at most its limit of searches at once, the rest wait
// in order and then run; past MAX_WAITING_PER_KEY waiting, 503 `overloaded` with Retry-After;
// other keys, the master key and sessions are not held up by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FolioError } from '../errors/index.ts';
import type { Principal } from '../auth/index.ts';
import { MAX_WAITING_PER_KEY, SearchAdmission, defaultKeySearchConcurrency } from './search-admission.ts';

const key = (id: string): Principal => ({ kind: 'key', id, scopes: ['search'], collections: null, rateLimit: null, expiresAt: null, filter: null });

/** A search that runs until `finish` is called, noting when it started. */
function heldSearch(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<string>((resolve) => (finish = () => resolve(name)));
  return {
    run: () => {
      started.push(name);
      return done;
    },
    finish: () => finish(),
  };
}

test('a thread stays free for other keys: the default is one fewer than the search threads', () => {
  assert.equal(defaultKeySearchConcurrency(1), 1);
  assert.equal(defaultKeySearchConcurrency(2), 1);
  assert.equal(defaultKeySearchConcurrency(8), 7);
});

test("a key's searches beyond its limit wait in order; other keys and the master key run at once", async () => {
  const admission = new SearchAdmission(2);
  const started: string[] = [];
  const searches = ['a1', 'a2', 'a3', 'a4'].map((name) => heldSearch(started, name));
  const answers = searches.map((search) => admission.run(key('a'), search.run));
  const other = heldSearch(started, 'b1');
  const otherAnswer = admission.run(key('b'), other.run);
  const master = heldSearch(started, 'm1');
  const masterAnswer = admission.run({ kind: 'master' }, master.run);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual([...started].sort(), ['a1', 'a2', 'b1', 'm1']);
  assert.deepEqual(admission.state('a'), { running: 2, waiting: 2 });

  searches[1].finish();
  assert.equal(await answers[1], 'a2');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started.slice(4), ['a3'], 'the first waiting search takes the turn given back');
  for (const search of searches) search.finish();
  other.finish();
  master.finish();
  assert.deepEqual(await Promise.all([...answers, otherAnswer, masterAnswer]), ['a1', 'a2', 'a3', 'a4', 'b1', 'm1']);
  assert.deepEqual(admission.state('a'), { running: 0, waiting: 0 });
});

test('a failing search gives its turn back', async () => {
  const admission = new SearchAdmission(1);
  await assert.rejects(admission.run(key('a'), async () => Promise.reject(new Error('bad query'))), /bad query/);
  assert.equal(await admission.run(key('a'), async () => 'next'), 'next');
  assert.deepEqual(admission.state('a'), { running: 0, waiting: 0 });
});

test('past the waiting line, a search is refused with 503 overloaded and Retry-After', async () => {
  const admission = new SearchAdmission(1);
  const started: string[] = [];
  const held = Array.from({ length: 1 + MAX_WAITING_PER_KEY }, (_, i) => heldSearch(started, `s${i}`));
  const answers = held.map((search) => admission.run(key('a'), search.run));
  await assert.rejects(admission.run(key('a'), async () => 'too many'), (error: unknown) => {
    assert.ok(error instanceof FolioError);
    assert.equal(error.code, 'overloaded');
    assert.equal(error.retryAfterSeconds, 1);
    return true;
  });
  for (const search of held) search.finish();
  await Promise.all(answers);
  assert.equal(started.length, 1 + MAX_WAITING_PER_KEY);
});
